import { type FormEvent, useState } from "react";
import type { Organization, Team } from "../../contract/api-models.js";
import { useT } from "../lib/i18n.js";
import type { HasCode } from "../lib/messages.js";
import {
  type FieldErrors,
  type FieldMessage,
  inviteForm,
  organizationForm,
  organizationSettingsForm,
  slugify,
  teamForm,
  validate,
} from "../lib/schemas.js";
import { Button, Field, Form, FormError, Select } from "./ui.js";

interface FormProps<T> {
  onSubmit: (values: T) => unknown;
  pending?: boolean;
  error?: HasCode | null;
}

export type SlugStatus = "unknown" | "checking" | "free" | "taken";

/** Name first; the slug follows the name until the user edits it, and is checked when it settles. */
export function CreateOrganizationForm({
  onSubmit,
  onCheckSlug,
  slugStatus,
  pending,
  error,
}: FormProps<{ name: string; slug: string }> & { onCheckSlug: (slug: string) => void; slugStatus: SlugStatus }) {
  const t = useT();
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [slugEdited, setSlugEdited] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(organizationForm, { name, slug });
    setErrors(result.ok ? {} : result.errors);
    if (result.ok && slugStatus !== "taken") void onSubmit({ name: name.trim(), slug });
  };
  const slugHint =
    slugStatus === "checking"
      ? t("org.slug.checking")
      : slugStatus === "free"
        ? t("org.slug.free")
        : slugStatus === "taken"
          ? undefined
          : t("org.slug.hint");
  return (
    <Form onSubmit={submit} error={error} aria-label={t("switcher.create")}>
      <Field
        label={t("field.name")}
        testId="org-create-name"
        value={name}
        onChange={(e) => {
          setName(e.target.value);
          if (!slugEdited) setSlug(slugify(e.target.value));
        }}
        onBlur={() => slug && onCheckSlug(slug)}
        error={errors.name}
      />
      <Field
        label={t("org.slug")}
        testId="org-create-slug"
        value={slug}
        onChange={(e) => {
          setSlugEdited(true);
          setSlug(e.target.value);
        }}
        onBlur={() => slug && onCheckSlug(slug)}
        error={errors.slug ?? (slugStatus === "taken" ? { key: "error.ORGANIZATION_SLUG_ALREADY_TAKEN" } : undefined)}
        hint={slugHint}
      />
      <FormError error={error ?? null} />
      <Button pending={pending} data-testid="org-create-submit">
        {t("switcher.create")}
      </Button>
    </Form>
  );
}

type SettingsValues = { name: string; slug: string; logo: string; metadata: string };

export function OrganizationSettingsForm({
  organization,
  onSubmit,
  pending,
  error,
  readOnly,
}: FormProps<{ name: string; slug: string; logo: string | null; metadata: Record<string, unknown> }> & {
  organization: Organization;
  readOnly: boolean;
}) {
  const t = useT();
  const metadataText =
    typeof organization.metadata === "string" ? organization.metadata : JSON.stringify(organization.metadata ?? {});
  const [values, setValues] = useState<SettingsValues>({
    name: organization.name,
    slug: organization.slug,
    logo: organization.logo ?? "",
    metadata: metadataText === "null" ? "" : metadataText,
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(organizationSettingsForm, values);
    setErrors(result.ok ? {} : result.errors);
    if (!result.ok) return;
    void onSubmit({
      name: values.name.trim(),
      slug: values.slug,
      logo: values.logo.trim() || null,
      metadata: values.metadata.trim() ? JSON.parse(values.metadata) : {},
    });
  };
  const set = (key: keyof SettingsValues) => (e: { target: { value: string } }) =>
    setValues({ ...values, [key]: e.target.value });
  return (
    <Form onSubmit={submit} error={error} aria-label={t("org.settings.form")}>
      <fieldset disabled={readOnly}>
        <Field
          label={t("field.name")}
          testId="org-settings-name"
          value={values.name}
          onChange={set("name")}
          error={errors.name}
        />
        <Field
          label={t("org.slug")}
          testId="org-settings-slug"
          value={values.slug}
          onChange={set("slug")}
          error={errors.slug}
        />
        <Field
          label={t("org.logoUrl")}
          testId="org-settings-logo"
          type="url"
          value={values.logo}
          onChange={set("logo")}
          error={errors.logo}
        />
        <Field
          label={t("org.metadata")}
          testId="org-settings-metadata"
          value={values.metadata}
          onChange={set("metadata")}
          error={errors.metadata}
        />
      </fieldset>
      <FormError error={error ?? null} />
      {!readOnly && (
        <Button pending={pending} data-testid="org-settings-submit">
          {t("org.settings.submit")}
        </Button>
      )}
    </Form>
  );
}

export function InviteMemberForm({
  teams,
  canInviteOwner,
  onSubmit,
  pending,
  error,
}: FormProps<{ email: string; role: "member" | "admin" | "owner"; teamId?: string }> & {
  teams: Team[];
  canInviteOwner: boolean;
}) {
  const t = useT();
  const [values, setValues] = useState({ email: "", role: "member", teamId: "" });
  const [errors, setErrors] = useState<FieldErrors>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(inviteForm, { ...values, teamId: values.teamId || undefined });
    setErrors(result.ok ? {} : result.errors);
    if (result.ok) {
      void onSubmit(result.value);
      setValues({ ...values, email: "" });
    }
  };
  return (
    <Form onSubmit={submit} error={error} aria-label={t("invite.title")} className="inline-form">
      <Field
        label={t("field.email")}
        testId="invite-email"
        type="email"
        value={values.email}
        onChange={(e) => setValues({ ...values, email: e.target.value })}
        error={errors.email}
      />
      <Select
        label={t("field.role")}
        testId="invite-role"
        value={values.role}
        onChange={(e) => setValues({ ...values, role: e.target.value })}
      >
        <option value="member">{t("role.member")}</option>
        <option value="admin">{t("role.admin")}</option>
        {canInviteOwner && <option value="owner">{t("role.owner")}</option>}
      </Select>
      {teams.length > 0 && (
        <Select
          label={t("invite.team")}
          testId="invite-team"
          value={values.teamId}
          onChange={(e) => setValues({ ...values, teamId: e.target.value })}
        >
          <option value="">{t("invite.noTeam")}</option>
          {teams.map((team) => (
            <option key={team.id} value={team.id}>
              {team.name}
            </option>
          ))}
        </Select>
      )}
      <FormError error={error ?? null} />
      <Button pending={pending} data-testid="invite-submit">
        {t("invite.submit")}
      </Button>
    </Form>
  );
}

export function TeamNameForm({
  initial = "",
  submitLabel,
  testId,
  onSubmit,
  pending,
  error,
}: FormProps<{ name: string }> & { initial?: string; submitLabel: string; testId: string }) {
  const t = useT();
  const [name, setName] = useState(initial);
  const [fieldError, setFieldError] = useState<FieldMessage>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(teamForm, { name });
    setFieldError(result.ok ? undefined : result.errors.name);
    if (result.ok) {
      void onSubmit({ name: name.trim() });
      if (!initial) setName("");
    }
  };
  return (
    <Form onSubmit={submit} error={error} aria-label={submitLabel} className="inline-form">
      <Field
        label={t("teams.name")}
        testId={`${testId}-name`}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={fieldError}
      />
      <FormError error={error ?? null} />
      <Button pending={pending} data-testid={`${testId}-submit`}>
        {submitLabel}
      </Button>
    </Form>
  );
}

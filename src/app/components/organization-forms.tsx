import type { Organization, Team } from "../../contract/api-models.js";
import { useT } from "../lib/i18n.js";
import { inviteForm, organizationSettingsForm, teamForm } from "../lib/schemas.js";
import { FormFooter, type FormProps, useFormState } from "./form-state.js";
import { Field, Form, FormError, Select } from "./ui.js";

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
  const { values, field, submitWith } = useFormState<SettingsValues>({
    name: organization.name,
    slug: organization.slug,
    logo: organization.logo ?? "",
    metadata: metadataText === "null" ? "" : metadataText,
  });
  const submit = submitWith(organizationSettingsForm, () =>
    onSubmit({
      name: values.name.trim(),
      slug: values.slug,
      logo: values.logo.trim() || null,
      metadata: values.metadata.trim() ? JSON.parse(values.metadata) : {},
    }),
  );
  return (
    <Form onSubmit={submit} error={error} aria-label={t("org.settings.form")}>
      <fieldset disabled={readOnly}>
        <Field label={t("field.name")} testId="org-settings-name" {...field("name")} />
        <Field label={t("org.slug")} testId="org-settings-slug" {...field("slug")} />
        <Field label={t("org.logoUrl")} testId="org-settings-logo" type="url" {...field("logo")} />
        <Field label={t("org.metadata")} testId="org-settings-metadata" {...field("metadata")} />
      </fieldset>
      {readOnly ? (
        <FormError error={error ?? null} />
      ) : (
        <FormFooter error={error} pending={pending} testId="org-settings-submit">
          {t("org.settings.submit")}
        </FormFooter>
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
  const { values, set, input, field, submitWith } = useFormState({ email: "", role: "member", teamId: "" });
  const submit = submitWith(
    inviteForm,
    (invitation) => {
      void onSubmit(invitation);
      set("email", "");
    },
    { ...values, teamId: values.teamId || undefined },
  );
  return (
    <Form onSubmit={submit} error={error} aria-label={t("invite.title")} className="inline-form">
      <Field label={t("field.email")} testId="invite-email" type="email" {...field("email")} />
      <Select label={t("field.role")} testId="invite-role" value={values.role} onChange={input("role")}>
        <option value="member">{t("role.member")}</option>
        <option value="admin">{t("role.admin")}</option>
        {canInviteOwner && <option value="owner">{t("role.owner")}</option>}
      </Select>
      {teams.length > 0 && (
        <Select label={t("invite.team")} testId="invite-team" value={values.teamId} onChange={input("teamId")}>
          <option value="">{t("invite.noTeam")}</option>
          {teams.map((team) => (
            <option key={team.id} value={team.id}>
              {team.name}
            </option>
          ))}
        </Select>
      )}
      <FormFooter error={error} pending={pending} testId="invite-submit">
        {t("invite.submit")}
      </FormFooter>
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
  const { values, set, field, submitWith } = useFormState({ name: initial });
  const submit = submitWith(teamForm, () => {
    void onSubmit({ name: values.name.trim() });
    if (!initial) set("name", "");
  });
  return (
    <Form onSubmit={submit} error={error} aria-label={submitLabel} className="inline-form">
      <Field label={t("teams.name")} testId={`${testId}-name`} {...field("name")} />
      <FormFooter error={error} pending={pending} testId={`${testId}-submit`}>
        {submitLabel}
      </FormFooter>
    </Form>
  );
}

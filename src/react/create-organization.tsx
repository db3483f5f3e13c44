import { useMemo, useState } from "react";
import { Button, ComponentRoot, ErrorMessage, Field, type FieldMessage, Form } from "./form-parts.js";
import { type Appearance, componentTranslator, type Labels, type Localization } from "./localization.js";
import { browserNavigate, type Navigate } from "./navigate.js";
import { useAuthClient } from "./provider.js";
import { SLUG_PATTERN, slugify } from "./slug.js";
import { useCall } from "./use-call.js";

export interface CreateOrganizationProps {
  localization?: Localization;
  labels?: Labels;
  appearance?: Appearance;
  navigate?: Navigate;
  /** Where to go once created (default `/organization`); the new organization is active by then. */
  afterCreateHref?: string;
  /** Called once created and active, instead of going to afterCreateHref. */
  onCreated?: (organization: { id: string; name: string; slug: string }) => void;
  /** 1 on a page of its own (default), 2 inside a page that has its heading. */
  headingLevel?: 1 | 2;
}

type SlugStatus = "unknown" | "checking" | "free" | "taken";

/**
 * A new organization: its name, and a slug that follows the name until edited and is checked with
 * the server when a field is left. The new organization becomes the active one.
 *
 * @example
 * <CreateOrganization
 *   navigate={navigate}
 *   onCreated={(organization) => navigate(`/organizations/${organization.slug}`)}
 *   headingLevel={2}
 * />
 */
export function CreateOrganization({
  localization,
  labels,
  appearance,
  navigate = browserNavigate,
  afterCreateHref = "/organization",
  onCreated,
  headingLevel,
}: CreateOrganizationProps) {
  const t = useMemo(() => componentTranslator(localization, labels), [localization, labels]);
  const client = useAuthClient();
  const create = useCall(client.organization.create);
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [slugEdited, setSlugEdited] = useState(false);
  const [slugStatus, setSlugStatus] = useState<SlugStatus>("unknown");
  const [errors, setErrors] = useState<Partial<Record<"name" | "slug", FieldMessage>>>({});

  const checkSlug = async () => {
    if (!SLUG_PATTERN.test(slug)) return;
    setSlugStatus("checking");
    const { data, error } = await client.organization.checkSlug({ slug });
    setSlugStatus(data?.status ? "free" : error?.code === "ORGANIZATION_SLUG_ALREADY_TAKEN" ? "taken" : "unknown");
  };
  const onSubmit = async () => {
    const found: typeof errors = {};
    if (!name.trim()) found.name = { key: "validation.nameRequired" };
    if (!slug) found.slug = { key: "validation.slug.required" };
    else if (slug.length > 48) found.slug = { key: "validation.maxLength", vars: { max: 48 } };
    else if (!SLUG_PATTERN.test(slug)) found.slug = { key: "validation.slug.format" };
    setErrors(found);
    if (Object.keys(found).length || slugStatus === "taken") return;
    const created = await create.run({ name: name.trim(), slug });
    if (!created) return;
    // The server makes the new organization active: read it before the next screen shows it.
    await client.$store.activeOrganization.refetch();
    await client.$store.listOrganizations.refetch();
    if (onCreated) onCreated({ id: created.id, name: created.name, slug: created.slug });
    else navigate(afterCreateHref);
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
    <ComponentRoot
      t={t}
      navigate={navigate}
      appearance={appearance}
      title={t("org.create.title")}
      testId="org-create-card"
      headingLevel={headingLevel}
    >
      <Form label={t("switcher.create")} error={create.error} onSubmit={() => void onSubmit()}>
        <Field
          label={t("field.name")}
          testId="org-create-name"
          value={name}
          error={errors.name}
          onChange={(e) => {
            setName(e.target.value);
            // An edited field's old message goes (the slug's too while it follows the name).
            setErrors(slugEdited ? { ...errors, name: undefined } : {});
            if (!slugEdited) {
              setSlug(slugify(e.target.value));
              setSlugStatus("unknown");
            }
          }}
          onBlur={() => void checkSlug()}
        />
        <Field
          label={t("org.slug")}
          testId="org-create-slug"
          value={slug}
          error={errors.slug ?? (slugStatus === "taken" ? { key: "error.ORGANIZATION_SLUG_ALREADY_TAKEN" } : undefined)}
          hint={slugHint}
          onChange={(e) => {
            setSlugEdited(true);
            setErrors({ ...errors, slug: undefined });
            setSlug(e.target.value);
            setSlugStatus("unknown");
          }}
          onBlur={() => void checkSlug()}
        />
        <ErrorMessage error={create.error} />
        <Button pending={create.pending} data-testid="org-create-submit">
          {t("switcher.create")}
        </Button>
      </Form>
    </ComponentRoot>
  );
}

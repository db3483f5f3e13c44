import { useState } from "react";
import type { FullOrganization } from "../contract/api-models.js";
import { useConfirm } from "./confirm.js";
import { Button, ErrorMessage, Field, type FieldMessage, Form, Notice, useFrame } from "./form-parts.js";
import { RowButton } from "./organization-parts.js";
import { useRoles } from "./organization-roles.js";
import { useAuthClient } from "./provider.js";
import { SLUG_PATTERN } from "./slug.js";
import { useCall } from "./use-call.js";

type Errors = Partial<Record<"name" | "slug" | "logo" | "metadata", FieldMessage>>;

const metadataText = (metadata: unknown) => {
  const text = typeof metadata === "string" ? metadata : JSON.stringify(metadata ?? {});
  return text === "null" || text === "{}" ? "" : text;
};

/**
 * The organization's settings: a form for those whose role may change them (the metadata only
 * for owners, under "Advanced"), a plain read-only view for everyone else; deleting for owners.
 */
export function OrganizationSettingsSection({
  organization: org,
  role,
  onDeleted,
}: {
  organization: FullOrganization;
  role: string | null | undefined;
  onDeleted: (name: string) => void;
}) {
  const { can, isOwner } = useRoles();
  const { t } = useFrame();
  const client = useAuthClient();
  const update = useCall(client.organization.update);
  const remove = useCall(client.organization.delete);
  const { confirm, dialog } = useConfirm();
  const [name, setName] = useState(org.name);
  const [slug, setSlug] = useState(org.slug);
  const [logo, setLogo] = useState(org.logo ?? "");
  const [metadata, setMetadata] = useState(metadataText(org.metadata));
  const [errors, setErrors] = useState<Errors>({});
  const [saved, setSaved] = useState(false);
  const editable = can(role, "organization", "update");
  const owner = isOwner(role);

  const onSubmit = async () => {
    setSaved(false);
    const found: Errors = {};
    if (!name.trim()) found.name = { key: "validation.nameRequired" };
    if (!slug) found.slug = { key: "validation.slug.required" };
    else if (!SLUG_PATTERN.test(slug)) found.slug = { key: "validation.slug.format" };
    if (logo.trim() && !/^https?:\/\/\S+$/.test(logo.trim())) found.logo = { key: "validation.imageUrl" };
    let parsed: Record<string, unknown> | undefined;
    if (owner && metadata.trim()) {
      try {
        const value = JSON.parse(metadata);
        if (value && typeof value === "object" && !Array.isArray(value)) parsed = value;
        else found.metadata = { key: "validation.metadata" };
      } catch {
        found.metadata = { key: "validation.metadata" };
      }
    }
    setErrors(found);
    if (Object.keys(found).length) return;
    const data = {
      name: name.trim(),
      slug,
      logo: logo.trim() || null,
      // Only an owner sees the metadata; nobody else's save touches it.
      ...(owner ? { metadata: parsed ?? {} } : {}),
    };
    setSaved(Boolean(await update.run({ data, organizationId: org.id })));
  };

  return (
    <div className="gh-section" data-testid="org-settings">
      {dialog}
      {editable ? (
        <Form label={t("org.settings.form")} error={update.error} onSubmit={() => void onSubmit()}>
          {saved && <Notice testId="org-settings-saved">{t("org.settings.saved")}</Notice>}
          <Field
            label={t("field.name")}
            testId="org-settings-name"
            value={name}
            error={errors.name}
            onChange={(e) => setName(e.target.value)}
          />
          <Field
            label={t("org.slug")}
            testId="org-settings-slug"
            value={slug}
            error={errors.slug}
            hint={t("org.slug.hint")}
            onChange={(e) => setSlug(e.target.value)}
          />
          <Field
            label={t("org.logoUrl")}
            testId="org-settings-logo"
            type="url"
            value={logo}
            error={errors.logo}
            onChange={(e) => setLogo(e.target.value)}
          />
          {owner && (
            <details data-testid="org-settings-advanced" open={Boolean(errors.metadata) || undefined}>
              <summary>{t("org.advanced")}</summary>
              <Field
                label={t("org.metadata")}
                testId="org-settings-metadata"
                value={metadata}
                error={errors.metadata}
                onChange={(e) => setMetadata(e.target.value)}
              />
            </details>
          )}
          <ErrorMessage error={update.error} />
          <Button pending={update.pending} data-testid="org-settings-submit">
            {t("org.settings.submit")}
          </Button>
        </Form>
      ) : (
        <>
          <p className="gh-hint" data-testid="org-settings-read-only">
            {t("org.settings.readOnly")}
          </p>
          <dl className="gh-readonly">
            <dt>{t("field.name")}</dt>
            <dd data-testid="org-settings-name">{org.name}</dd>
            <dt>{t("org.slug")}</dt>
            <dd data-testid="org-settings-slug">{org.slug}</dd>
            {org.logo && (
              <>
                <dt>{t("org.logoUrl")}</dt>
                <dd data-testid="org-settings-logo">{org.logo}</dd>
              </>
            )}
          </dl>
        </>
      )}
      {can(role, "organization", "delete") && (
        <div className="gh-section" data-testid="org-delete-section">
          <h3>{t("org.delete.title")}</h3>
          <p className="gh-hint">{t("org.delete.intro")}</p>
          <ErrorMessage error={remove.error} />
          <RowButton
            variant="danger"
            disabled={remove.pending}
            data-testid="org-delete"
            onClick={async () => {
              const yes = await confirm({
                title: t("org.delete.confirm.title", { name: org.name }),
                body: t("org.delete.confirm.body", { name: org.name, count: org.members.length }),
                confirmLabel: t("org.delete.title"),
              });
              if (yes && (await remove.run({ organizationId: org.id }))) onDeleted(org.name);
            }}
          >
            {t("org.delete.submit", { name: org.name })}
          </RowButton>
        </div>
      )}
    </div>
  );
}

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { SetupScope } from "../../contract/setup-links.js";
import { authClient, unwrap } from "../lib/client.js";
import { useFormatDate, useT } from "../lib/i18n.js";
import { useSubmit } from "../lib/use-submit.js";
import { CopyField } from "./copy-field.js";
import { Button, Card, Checkbox, Field, FormError, Loading, Notice } from "./ui.js";

const LINKS = ["setup-links"];
const SCOPES: SetupScope[] = ["sso", "domains", "directory", "auditStream"];

/**
 * The owners' setup links (docs/sso.md, "Let the customer set it up"): hand one to the customer's IT
 * admin, see which are live and when each was last used, revoke. A new link's address is shown once.
 */
export function SetupLinksCard({ organizationId }: { organizationId: string }) {
  const t = useT();
  const formatDate = useFormatDate();
  const queryClient = useQueryClient();
  const links = useQuery({
    queryKey: [...LINKS, organizationId],
    queryFn: () => unwrap(authClient.organization.listSetupLinks({ query: { organizationId } })),
  });
  const create = useSubmit(authClient.organization.createSetupLink);
  const revoke = useSubmit(authClient.organization.revokeSetupLink);
  const [scopes, setScopes] = useState<SetupScope[]>(["sso", "domains"]);
  const [label, setLabel] = useState("");
  const [address, setAddress] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: [...LINKS, organizationId] });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAddress(null);
    const made = await create.run({ organizationId, scopes, ...(label.trim() ? { label: label.trim() } : {}) });
    if (!made) return;
    setAddress(`${window.location.origin}/setup#${made.token}`);
    setLabel("");
    await refresh();
  };
  return (
    <Card title={t("setupLinks.title")} testId="setup-links-card">
      <p>{t("setupLinks.intro")}</p>
      {address && (
        <>
          <Notice testId="setup-link-once" takeFocus>
            {t("setupLinks.once")}
          </Notice>
          <CopyField label={t("setupLinks.address")} value={address} testId="setup-link-address" />
        </>
      )}
      <form onSubmit={(e) => void submit(e)} aria-label={t("setupLinks.create")} noValidate>
        <fieldset>
          <legend>{t("setupLinks.scopes")}</legend>
          {SCOPES.map((scope) => (
            <Checkbox
              key={scope}
              label={t(`setupLinks.scope.${scope}`)}
              testId={`setup-link-scope-${scope}`}
              checked={scopes.includes(scope)}
              onChange={(on) => setScopes(on ? [...scopes, scope] : scopes.filter((s) => s !== scope))}
            />
          ))}
        </fieldset>
        <Field
          label={t("setupLinks.label")}
          hint={t("setupLinks.labelHint")}
          testId="setup-link-label"
          value={label}
          onChange={(e) => setLabel(e.target.value)}
        />
        <FormError error={create.error} testId="setup-link-error" />
        <Button pending={create.pending} data-testid="setup-link-create">
          {t("setupLinks.create")}
        </Button>
      </form>
      {links.isPending ? (
        <Loading />
      ) : links.error ? (
        <FormError error={links.error} />
      ) : (
        <ul className="rows" data-testid="setup-links-list">
          {links.data.links.map((link) => (
            <li key={link.id} className="row" data-testid="setup-link-row" data-status={link.status}>
              <span>
                {t("setupLinks.row", {
                  label: link.label ?? t("setupLinks.unlabelled"),
                  scopes: link.scopes.map((s) => t(`setupLinks.scope.${s}`)).join(", "),
                  status: t(`setupLinks.status.${link.status}`),
                  expires: formatDate(link.expiresAt),
                })}
              </span>
              {link.status === "active" && (
                <Button
                  type="button"
                  variant="danger"
                  pending={revoke.pending}
                  data-testid="setup-link-revoke"
                  aria-label={t("setupLinks.revokeLabel", { label: link.label ?? t("setupLinks.unlabelled") })}
                  onClick={async () => {
                    if (await revoke.run({ linkId: link.id })) await refresh();
                  }}
                >
                  {t("setupLinks.revoke")}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <FormError error={revoke.error} />
    </Card>
  );
}

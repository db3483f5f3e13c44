import { useState } from "react";
import type { SSOProviderView } from "../../contract/sso.js";
import { authClient } from "../lib/client.js";
import { useT } from "../lib/i18n.js";
import { messageFor } from "../lib/messages.js";
import { roleLabel } from "../lib/permissions.js";
import { useSubmit } from "../lib/use-submit.js";
import { type ConnectionChange, EditConnectionForm, IdpValue } from "./connection-forms.js";
import { Button, FormError, Notice } from "./ui.js";

/** What the IdP's admin enters for this connection: the redirect URI, or the SAML SP side. */
export function IdpSettings({ connection }: { connection: SSOProviderView }) {
  const t = useT();
  const saml = connection.samlConfig;
  return (
    <div className="connection-idp" data-testid="connection-idp-settings">
      <h4>{t("connections.idpNeeds")}</h4>
      {saml ? (
        <>
          <IdpValue label={t("connections.acsURL")} value={saml.callbackUrl} testId="connection-acs-url" />
          <IdpValue label={t("connections.spEntityId")} value={saml.audience} testId="connection-sp-entity-id" />
          <IdpValue
            label={t("connections.spMetadataURL")}
            value={saml.spMetadataURL}
            testId="connection-sp-metadata-url"
          />
        </>
      ) : (
        <IdpValue
          label={t("connections.redirectURI")}
          value={connection.redirectURI}
          testId="connection-redirect-uri"
        />
      )}
    </div>
  );
}

/** The calls that prove a connection's domains: the owners' own, or a setup link's (pages/setup-page.tsx). */
export interface DomainCalls {
  request: (arg: { providerId: string }) => ReturnType<typeof authClient.sso.requestDomainVerification>;
  verify: (arg: { providerId: string }) => ReturnType<typeof authClient.sso.verifyDomain>;
}
const OWNER_DOMAIN_CALLS: DomainCalls = {
  request: authClient.sso.requestDomainVerification,
  verify: authClient.sso.verifyDomain,
};

/** The connection's domains; unverified ones get their TXT records and a Verify button. */
export function Domains({
  connection,
  onChanged,
  calls = OWNER_DOMAIN_CALLS,
}: {
  connection: SSOProviderView;
  onChanged: () => Promise<unknown>;
  calls?: DomainCalls;
}) {
  const t = useT();
  const request = useSubmit(calls.request);
  const verify = useSubmit(calls.verify);
  const [records, setRecords] = useState<{ name: string; value: string }[] | null>(null);
  const [verified, setVerified] = useState(false);
  const pending = connection.domains.some((d) => !d.verified);
  return (
    <div className="connection-domains">
      <h4>{t("connections.domains")}</h4>
      <ul data-testid="connection-domains">
        {connection.domains.map((d) => (
          <li key={d.domain} data-testid="connection-domain" data-verified={d.verified}>
            {t(d.verified ? "connections.domain.verified" : "connections.domain.unverified", { domain: d.domain })}
          </li>
        ))}
      </ul>
      {verified && <Notice testId="connection-domains-verified">{t("connections.domain.verifiedNotice")}</Notice>}
      {pending && !records && (
        <Button
          type="button"
          variant="secondary"
          pending={request.pending}
          data-testid="connection-domain-show"
          onClick={async () => {
            setVerified(false);
            const answer = await request.run({ providerId: connection.providerId });
            if (answer) setRecords(answer.records);
          }}
        >
          {t("connections.domain.show")}
        </Button>
      )}
      {pending && records && (
        <div data-testid="connection-domain-records">
          <p>{t("connections.domain.instructions")}</p>
          <table>
            <thead>
              <tr>
                <th scope="col">{t("connections.domain.recordName")}</th>
                <th scope="col">{t("connections.domain.recordValue")}</th>
              </tr>
            </thead>
            <tbody>
              {records.map((r) => (
                <tr key={r.name}>
                  <td>
                    <code data-testid="domain-record-name">{r.name}</code>
                  </td>
                  <td>
                    <code data-testid="domain-record-value">{r.value}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Button
            type="button"
            pending={verify.pending}
            data-testid="connection-domain-verify"
            onClick={async () => {
              if (await verify.run({ providerId: connection.providerId })) {
                setRecords(null);
                await onChanged();
                setVerified(true);
              }
            }}
          >
            {t("connections.domain.verify")}
          </Button>
        </div>
      )}
      <FormError error={request.error ?? verify.error} testId="connection-domain-error" />
    </div>
  );
}

/**
 * One connection: what it is, what the IdP needs, its domains, the roles it gives, and the owner's
 * controls. `roles` are those the viewer may hand out.
 */
export function ConnectionCard({
  connection,
  roles,
  onChanged,
  onDelete,
}: {
  connection: SSOProviderView;
  roles: string[];
  onChanged: () => Promise<unknown>;
  onDelete: (connection: SSOProviderView) => void;
}) {
  const t = useT();
  const test = useSubmit(authClient.sso.testConnection);
  const update = useSubmit(authClient.sso.updateProvider);
  const [result, setResult] = useState<{ ok: boolean; error: { code: string; message: string } | null } | null>(null);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const name = connection.providerId;
  const save = async (change: ConnectionChange) => {
    if (await update.run(change)) {
      setEditing(false);
      // Said once the card shows what was saved: the notice never stands beside the old summary.
      await onChanged();
      setSaved(true);
    }
  };
  return (
    <li className="row column" data-testid="connection-row" data-provider-id={name}>
      <h3>
        {name}{" "}
        <span className="badge" data-testid="connection-type">
          {t(connection.type === "saml" ? "connections.type.saml" : "connections.type.oidc")}
        </span>
      </h3>
      <p className="hint">{t("connections.issuer", { issuer: connection.issuer })}</p>
      <IdpSettings connection={connection} />
      <Domains connection={connection} onChanged={onChanged} />
      <p className="hint" data-testid="connection-roles-summary">
        {connection.roleMapping
          ? t("connections.roles.summaryRules", {
              role: roleLabel(connection.defaultRole, t),
              count: Object.keys(connection.roleMapping.values).length,
              claim: connection.roleMapping.claim,
            })
          : t("connections.roles.summary", { role: roleLabel(connection.defaultRole, t) })}
      </p>
      {saved && <Notice testId="connection-saved">{t("connections.edit.saved", { name })}</Notice>}
      {result && (
        <Notice testId={result.ok ? "connection-test-ok" : "connection-test-failed"}>
          {result.ok ? t("connections.test.ok") : t("connections.test.failed", { reason: messageFor(result.error, t) })}
        </Notice>
      )}
      <FormError error={test.error} testId="connection-test-error" />
      <div className="actions">
        <Button
          type="button"
          variant="secondary"
          pending={test.pending}
          data-testid="connection-test"
          aria-label={t("connections.test.label", { name })}
          onClick={async () => {
            setResult(null);
            const answer = await test.run({ providerId: name });
            if (answer) setResult(answer);
          }}
        >
          {t("connections.test")}
        </Button>
        <Button
          type="button"
          variant="secondary"
          aria-expanded={editing}
          data-testid="connection-edit"
          aria-label={t("connections.edit.label", { name })}
          onClick={() => {
            setSaved(false);
            setEditing(!editing);
          }}
        >
          {t("connections.edit")}
        </Button>
        <Button
          type="button"
          variant="danger"
          data-testid="connection-delete"
          aria-label={t("connections.delete.label", { name })}
          onClick={() => onDelete(connection)}
        >
          {t("common.delete")}
        </Button>
      </div>
      {editing && (
        <EditConnectionForm
          connection={connection}
          roles={roles}
          onSubmit={save}
          pending={update.pending}
          error={update.error}
        />
      )}
    </li>
  );
}

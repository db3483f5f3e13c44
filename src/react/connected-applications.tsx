import { useState } from "react";
import type { OAuthConsentEntry } from "../client/types.js";
import { useConfirm } from "./confirm.js";
import { Button, ErrorMessage, Loading, Notice, OwnWords, Panel, useFrame } from "./form-parts.js";
import type { Labels, Localization } from "./localization.js";
import { ScopeList } from "./oauth-scopes.js";
import { useFormatDate, useLoad } from "./profile-parts.js";
import { useAuthClient } from "./provider.js";
import { useCall } from "./use-call.js";

export interface ConnectedApplicationsProps {
  /** The language, when not inside UserProfile (which passes its own). */
  localization?: Localization;
  labels?: Labels;
}

function ApplicationRow({
  entry,
  onRevoke,
}: {
  entry: OAuthConsentEntry;
  onRevoke: (entry: OAuthConsentEntry) => void;
}) {
  const { t } = useFrame();
  const formatDate = useFormatDate();
  return (
    <li className="gh-list-row" data-testid="connected-app" data-client-id={entry.clientId}>
      <div>
        <strong>{entry.clientName}</strong>
        <p className="gh-hint">{t("connectedApps.since", { date: formatDate(entry.createdAt) })}</p>
        <ScopeList scopes={entry.scopes} testId="connected-app-scopes" />
      </div>
      <Button
        type="button"
        variant="danger"
        aria-label={t("connectedApps.revokeLabel", { name: entry.clientName })}
        data-testid="connected-app-revoke"
        onClick={() => onRevoke(entry)}
      >
        {t("connectedApps.revoke")}
      </Button>
    </li>
  );
}

function Applications() {
  const { t } = useFrame();
  const client = useAuthClient();
  const consents = useLoad(() => client.oauth2.getConsents());
  const revoke = useCall(client.oauth2.deleteConsent);
  const { confirm, dialog } = useConfirm();
  const [notice, setNotice] = useState<string | null>(null);

  const onRevoke = async (entry: OAuthConsentEntry) => {
    setNotice(null);
    const name = entry.clientName;
    const yes = await confirm({
      title: t("connectedApps.revoke.confirm.title", { name }),
      body: t("connectedApps.revoke.confirm.body", { name }),
      confirmLabel: t("connectedApps.revoke"),
    });
    if (!yes) return;
    if (await revoke.run({ id: entry.id })) setNotice(t("connectedApps.revoked", { name }));
    consents.reload();
  };

  const list = (consents.data ?? []) as OAuthConsentEntry[];
  return (
    <Panel title={t("connectedApps.title")} testId="connected-apps-card">
      {dialog}
      {notice && (
        <Notice key={notice} testId="connected-apps-notice" takeFocus>
          {notice}
        </Notice>
      )}
      <p>{t("connectedApps.intro")}</p>
      {consents.pending ? (
        <Loading />
      ) : consents.error ? (
        <ErrorMessage error={consents.error} />
      ) : list.length === 0 ? (
        <p className="gh-hint" data-testid="connected-apps-empty">
          {t("connectedApps.empty")}
        </p>
      ) : (
        <ul className="gh-list" data-testid="connected-apps-list">
          {list.map((entry) => (
            <ApplicationRow key={entry.id} entry={entry} onRevoke={(e) => void onRevoke(e)} />
          ))}
        </ul>
      )}
      <ErrorMessage error={revoke.error} />
    </Panel>
  );
}

/**
 * The applications the signed-in user let use their account (OAuth consents): what each may do, since
 * when, and Revoke, which also ends the tokens it holds. UserProfile shows it as its "applications"
 * section when the server's OAuth provider is on.
 *
 * @example
 * <AuthProvider client={client}>
 *   <ConnectedApplications localization="de" />
 * </AuthProvider>
 */
export function ConnectedApplications({ localization, labels }: ConnectedApplicationsProps) {
  return (
    <OwnWords localization={localization} labels={labels}>
      <Applications />
    </OwnWords>
  );
}

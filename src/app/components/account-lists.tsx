import type { LinkedAccount } from "../../contract/api-models.js";
import type { ListedSession } from "../../contract/models.js";
import type { Translate } from "../../i18n/index.js";
import { useFormatDate, useT, withElements } from "../lib/i18n.js";
import { providerLabel } from "./provider-buttons.js";
import { RelativeTime } from "./relative-time.js";
import { Button } from "./ui.js";

/* Props-only lists of the account's sessions and linked sign-in methods. */

/** "Chrome on Linux" from a user agent, good enough to recognise one's own devices. */
export function describeDevice(userAgent: string | null, t: Translate): string {
  if (!userAgent) return t("device.unknown");
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Chrome\//.test(userAgent)
      ? "Chrome"
      : /Firefox\//.test(userAgent)
        ? "Firefox"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : /node|undici/i.test(userAgent)
            ? t("device.script")
            : t("device.browser");
  const os = /Windows/.test(userAgent)
    ? "Windows"
    : /Android/.test(userAgent)
      ? "Android"
      : /iPhone|iPad/.test(userAgent)
        ? "iOS"
        : /Mac OS X/.test(userAgent)
          ? "macOS"
          : /Linux/.test(userAgent)
            ? "Linux"
            : "";
  return os ? t("device.on", { browser, os }) : browser;
}

export function SessionsList({
  sessions,
  onRevoke,
  onRevokeOthers,
  pending,
}: {
  sessions: ListedSession[];
  onRevoke: (session: ListedSession) => void;
  onRevokeOthers: () => void;
  pending?: boolean;
}) {
  const t = useT();
  // This device first, then the most recently active.
  const ordered = [...sessions].sort(
    (a, b) =>
      Number(b.current) - Number(a.current) || new Date(b.updatedAt).getTime() - new Date(a.updatedAt).getTime(),
  );
  return (
    <>
      <ul className="rows" data-testid="sessions-list">
        {ordered.map((session) => (
          <li key={session.id} className="row" data-testid="session-row" data-current={session.current}>
            <div>
              <strong>{describeDevice(session.userAgent, t)}</strong>
              {session.current && <span className="badge">{t("sessions.thisDevice")}</span>}
              <p className="hint">
                {withElements(t("sessions.details", { ip: session.ipAddress || t("common.unknown") }), {
                  active: <RelativeTime date={session.updatedAt} testId="session-last-active" />,
                  created: <RelativeTime date={session.createdAt} />,
                })}
              </p>
            </div>
            {!session.current && (
              <Button
                type="button"
                variant="secondary"
                pending={pending}
                data-testid="session-revoke"
                onClick={() => onRevoke(session)}
                aria-label={t("sessions.revokeLabel", {
                  device: describeDevice(session.userAgent, t),
                  ip: session.ipAddress || t("common.unknownIp"),
                })}
              >
                {t("userButton.signOut")}
              </Button>
            )}
          </li>
        ))}
      </ul>
      {sessions.some((s) => !s.current) && (
        <Button
          type="button"
          variant="danger"
          pending={pending}
          data-testid="sessions-revoke-others"
          onClick={onRevokeOthers}
        >
          {t("sessions.revokeOthers")}
        </Button>
      )}
    </>
  );
}

export function LinkedAccountsList({
  accounts,
  providers,
  onUnlink,
  onLink,
  pending,
}: {
  accounts: LinkedAccount[];
  providers: string[];
  onUnlink: (account: LinkedAccount) => void;
  onLink: (provider: string) => void;
  pending?: boolean;
}) {
  const t = useT();
  const formatDate = useFormatDate();
  const linked = new Set(accounts.map((a) => a.providerId));
  const label = (id: string) => providerLabel(id, t);
  return (
    <>
      <ul className="rows" data-testid="accounts-list">
        {accounts.map((account) => (
          <li key={account.id} className="row" data-testid="account-row">
            <div>
              <strong>{label(account.providerId)}</strong>
              <p className="hint">{t("linked.since", { date: formatDate(account.createdAt) })}</p>
            </div>
            <Button
              type="button"
              variant="secondary"
              pending={pending}
              disabled={accounts.length < 2}
              data-testid={`account-unlink-${account.providerId}`}
              onClick={() => onUnlink(account)}
            >
              {t("linked.unlink")}
            </Button>
          </li>
        ))}
      </ul>
      {providers
        .filter((p) => !linked.has(p))
        .map((provider) => (
          <Button
            key={provider}
            type="button"
            variant="secondary"
            pending={pending}
            data-testid={`account-link-${provider}`}
            onClick={() => onLink(provider)}
          >
            {t("linked.link", { provider: label(provider) })}
          </Button>
        ))}
    </>
  );
}

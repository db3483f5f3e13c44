import type { LinkedAccount } from "../../contract/api-models.js";
import type { ListedSession } from "../../contract/models.js";
import { RelativeTime } from "./relative-time.js";
import { Button, formatDate } from "./ui.js";

/* Props-only lists of the account's sessions and linked sign-in methods. */

/** "Chrome on Linux" from a user agent, good enough to recognise one's own devices. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /Chrome\//.test(userAgent)
      ? "Chrome"
      : /Firefox\//.test(userAgent)
        ? "Firefox"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : /node|undici/i.test(userAgent)
            ? "Script"
            : "Browser";
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
  return os ? `${browser} on ${os}` : browser;
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
              <strong>{describeDevice(session.userAgent)}</strong>
              {session.current && <span className="badge">This device</span>}
              <p className="hint">
                IP {session.ipAddress || "unknown"} · last active{" "}
                <RelativeTime date={session.updatedAt} testId="session-last-active" /> · signed in{" "}
                <RelativeTime date={session.createdAt} />
              </p>
            </div>
            {!session.current && (
              <Button
                type="button"
                variant="secondary"
                pending={pending}
                data-testid="session-revoke"
                onClick={() => onRevoke(session)}
                aria-label={`Sign out ${describeDevice(session.userAgent)} (${session.ipAddress || "unknown IP"})`}
              >
                Sign out
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
          Sign out all other sessions
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
  const linked = new Set(accounts.map((a) => a.providerId));
  const label = (id: string) => (id === "credential" ? "Email and password" : id.charAt(0).toUpperCase() + id.slice(1));
  return (
    <>
      <ul className="rows" data-testid="accounts-list">
        {accounts.map((account) => (
          <li key={account.id} className="row" data-testid="account-row">
            <div>
              <strong>{label(account.providerId)}</strong>
              <p className="hint">Linked {formatDate(account.createdAt)}</p>
            </div>
            <Button
              type="button"
              variant="secondary"
              pending={pending}
              disabled={accounts.length < 2}
              data-testid={`account-unlink-${account.providerId}`}
              onClick={() => onUnlink(account)}
            >
              Unlink
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
            Link {label(provider)}
          </Button>
        ))}
    </>
  );
}

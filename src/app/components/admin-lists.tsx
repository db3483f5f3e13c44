import { Link } from "react-router";
import type { AuditEntry, AuditPerson, UserAccountSummary, UserMembership } from "../../contract/admin-models.js";
import type { ListedSession, User } from "../../contract/models.js";
import { describeDevice } from "../../react/profile-parts.js";
import { useFormatDate, useT } from "../lib/i18n.js";
import { roleLabel } from "../lib/permissions.js";
import { providerLabel } from "./provider-buttons.js";
import { Button } from "./ui.js";

/* Props-only lists of the admin area. */

export function UserStatus({ user }: { user: Pick<User, "role" | "banned" | "banExpires" | "emailVerified"> }) {
  const t = useT();
  const formatDate = useFormatDate();
  return (
    <>
      <span className="badge" data-testid="admin-user-role">
        {roleLabel(user.role, t)}
      </span>
      {user.banned && (
        <span className="badge danger" data-testid="admin-user-banned">
          {user.banExpires
            ? t("admin.status.bannedUntil", { date: formatDate(user.banExpires) })
            : t("admin.status.banned")}
        </span>
      )}
      {!user.emailVerified && <span className="badge">{t("admin.status.unverified")}</span>}
    </>
  );
}

export function UsersList({ users }: { users: User[] }) {
  const t = useT();
  const formatDate = useFormatDate();
  if (users.length === 0) return <p className="hint">{t("admin.users.none")}</p>;
  return (
    <ul className="rows" data-testid="admin-users-list">
      {users.map((user) => (
        <li key={user.id} className="row" data-testid="admin-user-row">
          <div>
            <Link to={`/admin/users/${user.id}`} data-testid="admin-user-link">
              <strong>{user.name || user.email}</strong>
            </Link>
            <UserStatus user={user} />
            <p className="hint">{t("admin.users.details", { email: user.email, date: formatDate(user.createdAt) })}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** "21–40 of 75" with previous/next; offsets stay in whole pages. */
export function Pager({
  total,
  offset,
  limit,
  onChange,
  label,
}: {
  total: number;
  offset: number;
  limit: number;
  onChange: (offset: number) => void;
  label: string;
}) {
  const t = useT();
  const first = total === 0 ? 0 : offset + 1;
  const last = Math.min(offset + limit, total);
  return (
    <nav className="pager" aria-label={label}>
      <span data-testid="pager-status" aria-live="polite">
        {t("pager.status", { first, last, total })}
      </span>
      <span className="row-actions">
        <Button
          type="button"
          variant="secondary"
          disabled={offset === 0}
          data-testid="pager-previous"
          onClick={() => onChange(Math.max(0, offset - limit))}
        >
          {t("pager.previous")}
        </Button>
        <Button
          type="button"
          variant="secondary"
          disabled={offset + limit >= total}
          data-testid="pager-next"
          onClick={() => onChange(offset + limit)}
        >
          {t("pager.next")}
        </Button>
      </span>
    </nav>
  );
}

export function UserSessionsList({
  sessions,
  onRevoke,
  onRevokeAll,
  pending,
}: {
  sessions: ListedSession[];
  onRevoke: (session: ListedSession) => void;
  onRevokeAll: () => void;
  pending?: boolean;
}) {
  const t = useT();
  const formatDate = useFormatDate();
  if (sessions.length === 0) return <p className="hint">{t("admin.sessions.none")}</p>;
  return (
    <>
      <ul className="rows" data-testid="admin-sessions-list">
        {sessions.map((session) => (
          <li key={session.id} className="row" data-testid="admin-session-row">
            <div>
              <strong>{describeDevice(session.userAgent, t)}</strong>
              {session.impersonatedBy && <span className="badge">{t("impersonation.label")}</span>}
              <p className="hint">
                {t("admin.sessions.details", {
                  ip: session.ipAddress || t("common.unknown"),
                  created: formatDate(session.createdAt),
                  expires: formatDate(session.expiresAt),
                })}
              </p>
            </div>
            <Button
              type="button"
              variant="secondary"
              pending={pending}
              data-testid="admin-session-revoke"
              aria-label={t("admin.sessions.revokeLabel", {
                device: describeDevice(session.userAgent, t),
                ip: session.ipAddress || t("common.unknownIp"),
              })}
              onClick={() => onRevoke(session)}
            >
              {t("admin.sessions.revoke")}
            </Button>
          </li>
        ))}
      </ul>
      <Button
        type="button"
        variant="danger"
        pending={pending}
        data-testid="admin-sessions-revoke-all"
        onClick={onRevokeAll}
      >
        {t("admin.sessions.revokeAll")}
      </Button>
    </>
  );
}

export function UserAccountsList({ accounts }: { accounts: UserAccountSummary[] }) {
  const t = useT();
  const formatDate = useFormatDate();
  if (accounts.length === 0) return <p className="hint">{t("admin.accounts.none")}</p>;
  return (
    <ul className="rows" data-testid="admin-accounts-list">
      {accounts.map((account) => (
        <li key={account.id} className="row" data-testid="admin-account-row">
          <div>
            <strong>{providerLabel(account.providerId, t)}</strong>
            <p className="hint">{t("linked.since", { date: formatDate(account.createdAt) })}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}

export function MembershipsList({ memberships }: { memberships: UserMembership[] }) {
  const t = useT();
  const formatDate = useFormatDate();
  if (memberships.length === 0) return <p className="hint">{t("admin.memberships.none")}</p>;
  return (
    <ul className="rows" data-testid="admin-memberships-list">
      {memberships.map((m) => (
        <li key={m.organizationId} className="row" data-testid="admin-membership-row">
          <div>
            <strong>{m.organizationName}</strong> <span className="badge">{roleLabel(m.role, t)}</span>
            <p className="hint">
              {t("admin.memberships.details", { slug: m.organizationSlug, date: formatDate(m.createdAt) })}
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** "name <email>" linking to the user's admin page; a removed user shows their old id. */
function AuditPersonLabel({ person, id, testId }: { person: AuditPerson | null; id: string; testId: string }) {
  const t = useT();
  if (!person) return <span data-testid={testId}>{t("admin.audit.removedUser", { id })}</span>;
  return (
    <Link to={`/admin/users/${person.id}`} data-testid={testId}>
      {person.name ? `${person.name} <${person.email}>` : person.email}
    </Link>
  );
}

/** Newest first; actor and target by name, linked while they still exist. */
export function AuditList({ entries }: { entries: AuditEntry[] }) {
  const t = useT();
  const formatDate = useFormatDate();
  if (entries.length === 0) return <p className="hint">{t("admin.audit.none")}</p>;
  return (
    <ul className="rows" data-testid="admin-audit-list">
      {entries.map((entry) => (
        <li key={entry.id} className="row" data-testid="admin-audit-row">
          <div>
            <strong>{entry.action}</strong>
            {entry.targetUserId && (
              <>
                {" "}
                {t("admin.audit.on")}{" "}
                <AuditPersonLabel person={entry.target} id={entry.targetUserId} testId="admin-audit-target" />
              </>
            )}
            <p className="hint">
              {formatDate(entry.createdAt)} · {t("admin.audit.by")}{" "}
              <AuditPersonLabel person={entry.actor} id={entry.actorUserId} testId="admin-audit-actor" /> ·{" "}
              {t("admin.audit.ip", { ip: entry.ipAddress || t("common.unknown") })}
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}

import { Link } from "react-router";
import type { AuditEntry, AuditPerson, UserAccountSummary, UserMembership } from "../../contract/admin-models.js";
import type { ListedSession, User } from "../../contract/models.js";
import { roleLabel } from "../lib/permissions.js";
import { describeDevice } from "./account-lists.js";
import { providerLabel } from "./provider-buttons.js";
import { Button, formatDate } from "./ui.js";

/* Props-only lists of the admin area. */

export function UserStatus({ user }: { user: Pick<User, "role" | "banned" | "banExpires" | "emailVerified"> }) {
  return (
    <>
      <span className="badge" data-testid="admin-user-role">
        {roleLabel(user.role)}
      </span>
      {user.banned && (
        <span className="badge danger" data-testid="admin-user-banned">
          Banned{user.banExpires ? ` until ${formatDate(user.banExpires)}` : ""}
        </span>
      )}
      {!user.emailVerified && <span className="badge">Unverified</span>}
    </>
  );
}

export function UsersList({ users }: { users: User[] }) {
  if (users.length === 0) return <p className="hint">No user matches.</p>;
  return (
    <ul className="rows" data-testid="admin-users-list">
      {users.map((user) => (
        <li key={user.id} className="row" data-testid="admin-user-row">
          <div>
            <Link to={`/admin/users/${user.id}`} data-testid="admin-user-link">
              <strong>{user.name || user.email}</strong>
            </Link>
            <UserStatus user={user} />
            <p className="hint">
              {user.email} · joined {formatDate(user.createdAt)}
            </p>
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
  const first = total === 0 ? 0 : offset + 1;
  const last = Math.min(offset + limit, total);
  return (
    <nav className="pager" aria-label={label}>
      <span data-testid="pager-status" aria-live="polite">
        {first}–{last} of {total}
      </span>
      <span className="row-actions">
        <Button
          type="button"
          variant="secondary"
          disabled={offset === 0}
          data-testid="pager-previous"
          onClick={() => onChange(Math.max(0, offset - limit))}
        >
          Previous
        </Button>
        <Button
          type="button"
          variant="secondary"
          disabled={offset + limit >= total}
          data-testid="pager-next"
          onClick={() => onChange(offset + limit)}
        >
          Next
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
  if (sessions.length === 0) return <p className="hint">No active session.</p>;
  return (
    <>
      <ul className="rows" data-testid="admin-sessions-list">
        {sessions.map((session) => (
          <li key={session.id} className="row" data-testid="admin-session-row">
            <div>
              <strong>{describeDevice(session.userAgent)}</strong>
              {session.impersonatedBy && <span className="badge">Impersonation</span>}
              <p className="hint">
                IP {session.ipAddress || "unknown"} · signed in {formatDate(session.createdAt)} · expires{" "}
                {formatDate(session.expiresAt)}
              </p>
            </div>
            <Button
              type="button"
              variant="secondary"
              pending={pending}
              data-testid="admin-session-revoke"
              aria-label={`Revoke ${describeDevice(session.userAgent)} (${session.ipAddress || "unknown IP"})`}
              onClick={() => onRevoke(session)}
            >
              Revoke
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
        Revoke all sessions
      </Button>
    </>
  );
}

export function UserAccountsList({ accounts }: { accounts: UserAccountSummary[] }) {
  if (accounts.length === 0) return <p className="hint">No sign-in method linked.</p>;
  return (
    <ul className="rows" data-testid="admin-accounts-list">
      {accounts.map((account) => (
        <li key={account.id} className="row" data-testid="admin-account-row">
          <div>
            <strong>{providerLabel(account.providerId)}</strong>
            <p className="hint">Linked {formatDate(account.createdAt)}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}

export function MembershipsList({ memberships }: { memberships: UserMembership[] }) {
  if (memberships.length === 0) return <p className="hint">Not a member of any organization.</p>;
  return (
    <ul className="rows" data-testid="admin-memberships-list">
      {memberships.map((m) => (
        <li key={m.organizationId} className="row" data-testid="admin-membership-row">
          <div>
            <strong>{m.organizationName}</strong> <span className="badge">{roleLabel(m.role)}</span>
            <p className="hint">
              {m.organizationSlug} · since {formatDate(m.createdAt)}
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** "name <email>" linking to the user's admin page; a removed user shows their old id. */
function AuditPersonLabel({ person, id, testId }: { person: AuditPerson | null; id: string; testId: string }) {
  if (!person) return <span data-testid={testId}>a removed user ({id})</span>;
  return (
    <Link to={`/admin/users/${person.id}`} data-testid={testId}>
      {person.name ? `${person.name} <${person.email}>` : person.email}
    </Link>
  );
}

/** Newest first; actor and target by name, linked while they still exist. */
export function AuditList({ entries }: { entries: AuditEntry[] }) {
  if (entries.length === 0) return <p className="hint">Nothing recorded yet.</p>;
  return (
    <ul className="rows" data-testid="admin-audit-list">
      {entries.map((entry) => (
        <li key={entry.id} className="row" data-testid="admin-audit-row">
          <div>
            <strong>{entry.action}</strong>
            {entry.targetUserId && (
              <>
                {" "}
                on <AuditPersonLabel person={entry.target} id={entry.targetUserId} testId="admin-audit-target" />
              </>
            )}
            <p className="hint">
              {formatDate(entry.createdAt)} · by{" "}
              <AuditPersonLabel person={entry.actor} id={entry.actorUserId} testId="admin-audit-actor" /> · IP{" "}
              {entry.ipAddress || "unknown"}
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}

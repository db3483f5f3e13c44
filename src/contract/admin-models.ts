import type { User } from "./models.js";

/** Reply shapes of the /admin/ routes, for clients. Dates are Date after the client revives them. */

/** list-users: one page and the total matching the search and filter. */
export interface UserPage {
  users: User[];
  total: number;
  limit: number;
  offset: number;
}

/** A user an audit entry names, as they are now. */
export interface AuditPerson {
  id: string;
  name: string;
  email: string;
}

/**
 * One row of list-audit-log: who did what to whom, when, from where. actor and target are null once
 * that user is deleted; the ids stay.
 */
export interface AuditEntry {
  id: string;
  actorUserId: string;
  action: string;
  targetUserId: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  details: Record<string, unknown> | null;
  createdAt: Date;
  actor: AuditPerson | null;
  target: AuditPerson | null;
}

export interface AuditPage {
  entries: AuditEntry[];
  total: number;
  limit: number;
  offset: number;
}

/** list-user-memberships: an organization the user belongs to, and their role in it. */
export interface UserMembership {
  organizationId: string;
  organizationName: string;
  organizationSlug: string;
  role: string;
  createdAt: Date;
}

/** list-user-accounts: a sign-in method of the user, never its tokens or password. */
export interface UserAccountSummary {
  id: string;
  providerId: string;
  accountId: string;
  createdAt: Date;
}

import { z } from "zod";
import { timestamp, userModel } from "./models.js";

/** Reply shapes of the /admin/ routes, for clients. Dates are Date after the client revives them. */

const page = { total: z.number().int(), limit: z.number().int(), offset: z.number().int() };

/** list-users: one page and the total matching the search and filter. */
export const userPageModel = z.object({ users: z.array(userModel), ...page });
export type UserPage = z.output<typeof userPageModel>;

/** A user an audit entry names, as they are now. */
export const auditPersonModel = z.object({ id: z.string(), name: z.string(), email: z.string() });
export type AuditPerson = z.output<typeof auditPersonModel>;

/**
 * One row of list-audit-log: who did what to whom, when, from where. actor and target are null once
 * that user is deleted; the ids stay.
 */
export const auditEntryModel = z.object({
  id: z.string(),
  actorUserId: z.string(),
  action: z.string(),
  targetUserId: z.string().nullable(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  createdAt: timestamp,
  actor: auditPersonModel.nullable(),
  target: auditPersonModel.nullable(),
});
export type AuditEntry = z.output<typeof auditEntryModel>;

export const auditPageModel = z.object({ entries: z.array(auditEntryModel), ...page });
export type AuditPage = z.output<typeof auditPageModel>;

/** list-user-memberships: an organization the user belongs to, and their role in it. */
export const userMembershipModel = z.object({
  organizationId: z.string(),
  organizationName: z.string(),
  organizationSlug: z.string(),
  role: z.string(),
  createdAt: timestamp,
});
export type UserMembership = z.output<typeof userMembershipModel>;

/** list-user-accounts: a sign-in method of the user, never its tokens or password. */
export const userAccountSummaryModel = z.object({
  id: z.string(),
  providerId: z.string(),
  accountId: z.string(),
  createdAt: timestamp,
});
export type UserAccountSummary = z.output<typeof userAccountSummaryModel>;

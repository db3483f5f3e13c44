import { z } from "zod";

/**
 * The objects the API returns, as zod schemas (the OpenAPI document is generated from them) with
 * their types beside. Dates are Date on the server and ISO-8601 strings on the wire; `timestamp`
 * is written as `{type: "string", format: "date-time"}` in the document.
 */
export const timestamp = z.date();
const nullableText = z.string().nullable();

export const userModel = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  image: nullableText,
  isAnonymous: z.boolean(),
  /** Administration role(s), comma separated; "user" by default, "admin" grants the admin set. */
  role: z.string(),
  banned: z.boolean(),
  banReason: nullableText,
  banExpires: timestamp.nullable(),
  /** Whether sign-in asks for a second factor (TOTP, a backup code or a mailed code). */
  twoFactorEnabled: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type User = z.output<typeof userModel>;

export const sessionModel = z.object({
  id: z.string(),
  /**
   * The session token. get-session returns the caller's own; list-sessions returns a revocation
   * handle in its place (tokens are stored hashed, and a list must not hand out live credentials).
   */
  token: z.string(),
  userId: z.string(),
  expiresAt: timestamp,
  createdAt: timestamp,
  updatedAt: timestamp,
  ipAddress: nullableText,
  userAgent: nullableText,
  activeOrganizationId: nullableText,
  activeTeamId: nullableText,
  impersonatedBy: nullableText,
});
export type Session = z.output<typeof sessionModel>;

export const sessionWithUserModel = z.object({ session: sessionModel, user: userModel });
export type SessionWithUser = z.output<typeof sessionWithUserModel>;

/** A row of list-sessions: the session with its revocation handle in `token`, and whether it is the caller's. */
export const listedSessionModel = sessionModel.extend({ current: z.boolean() });
export type ListedSession = z.output<typeof listedSessionModel>;

// ---- organizations (better-auth's organization plugin) ------------------------------------------

/** `metadata` is always the parsed object (null when none was set), never the stored JSON text. */
export const organizationModel = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  logo: nullableText,
  metadata: z.record(z.string(), z.unknown()).nullable(),
  createdAt: timestamp,
});
export type Organization = z.output<typeof organizationModel>;

export const memberModel = z.object({
  id: z.string(),
  organizationId: z.string(),
  userId: z.string(),
  /** One role or several, comma separated (`"admin,member"`). */
  role: z.string(),
  createdAt: timestamp,
});
export type Member = z.output<typeof memberModel>;

export const memberUserModel = z.object({ id: z.string(), name: z.string(), email: z.string(), image: nullableText });
export type MemberUser = z.output<typeof memberUserModel>;

export const memberWithUserModel = memberModel.extend({
  user: memberUserModel,
  /** Ours (better-auth has no such field): the id of the user whose invitation they accepted, else null. */
  invitedBy: z.string().nullable(),
});
export type MemberWithUser = z.output<typeof memberWithUserModel>;

export const invitationStatus = z.enum(["pending", "accepted", "rejected", "canceled"]);
export type InvitationStatus = z.output<typeof invitationStatus>;

export const invitationModel = z.object({
  id: z.string(),
  organizationId: z.string(),
  email: z.string(),
  role: nullableText,
  /** Team ids the invitee joins on accepting, comma separated, or null. */
  teamId: nullableText,
  status: invitationStatus,
  inviterId: z.string(),
  expiresAt: timestamp,
  createdAt: timestamp,
});
export type Invitation = z.output<typeof invitationModel>;

export const teamModel = z.object({
  id: z.string(),
  name: z.string(),
  organizationId: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp.nullable(),
});
export type Team = z.output<typeof teamModel>;

export const teamMemberModel = z.object({
  id: z.string(),
  teamId: z.string(),
  userId: z.string(),
  createdAt: timestamp,
  /** The member's role within the team (team roles); left out when they hold none. */
  role: z.string().optional(),
});
export type TeamMember = z.output<typeof teamMemberModel>;

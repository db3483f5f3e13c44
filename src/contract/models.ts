/**
 * The objects the API returns, spelled out (no inference from options).
 * Dates are Date on the server and ISO-8601 strings on the wire.
 */
export interface User {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image: string | null;
  isAnonymous: boolean;
  /** Administration role(s), comma separated; "user" by default, "admin" grants the admin set. */
  role: string;
  banned: boolean;
  banReason: string | null;
  banExpires: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface Session {
  id: string;
  /**
   * The session token. get-session returns the caller's own; list-sessions returns a revocation
   * handle in its place (tokens are stored hashed, and a list must not hand out live credentials).
   */
  token: string;
  userId: string;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
  ipAddress: string | null;
  userAgent: string | null;
  activeOrganizationId: string | null;
  activeTeamId: string | null;
  impersonatedBy: string | null;
}

export interface SessionWithUser {
  session: Session;
  user: User;
}

/** A row of list-sessions: the session with its revocation handle in `token`, and whether it is the caller's. */
export interface ListedSession extends Session {
  current: boolean;
}

// ---- organizations (WIRE section 8) -------------------------------------------------------------

/** `metadata` is always the parsed object (null when none was set), never the stored JSON text. */
export interface Organization {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: Date;
}

export interface Member {
  id: string;
  organizationId: string;
  userId: string;
  /** One role or several, comma separated (`"admin,member"`). */
  role: string;
  createdAt: Date;
}

export interface MemberUser {
  id: string;
  name: string;
  email: string;
  image: string | null;
}

export interface MemberWithUser extends Member {
  user: MemberUser;
}

export type InvitationStatus = "pending" | "accepted" | "rejected" | "canceled";

export interface Invitation {
  id: string;
  organizationId: string;
  email: string;
  role: string | null;
  /** Team ids the invitee joins on accepting, comma separated, or null. */
  teamId: string | null;
  status: InvitationStatus;
  inviterId: string;
  expiresAt: Date;
  createdAt: Date;
}

export interface Team {
  id: string;
  name: string;
  organizationId: string;
  createdAt: Date;
  updatedAt: Date | null;
}

export interface TeamMember {
  id: string;
  teamId: string;
  userId: string;
  createdAt: Date;
}

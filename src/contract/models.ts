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

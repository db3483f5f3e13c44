import type { Member, SessionWithUser } from "../contract/models.js";
import { type AddMemberInput, addMemberInput } from "../contract/organization.js";
import type { AuthContext } from "./context.js";
import { type HeaderSessionOptions, type RequestHeaders, sessionFromHeaders } from "./http/header-session.js";
import { addMember } from "./services/members.js";
import { setPassword } from "./services/passwords.js";
import { parseInput } from "./validation.js";

/**
 * Calls for the embedding server only, never routed over HTTP (WIRE 1.1: server-only endpoints answer
 * 404 there). They throw AuthError like the routes do.
 */
export interface ServerApi {
  /** Gives a user without a credential password one; USER_ALREADY_HAS_PASSWORD when they have one. */
  setPassword(userId: string, newPassword: string): Promise<{ status: true }>;
  /** Adds an existing user to an organization (WIRE 8.2: server only, 404 over HTTP). */
  addMember(input: AddMemberInput): Promise<Member>;
  /**
   * The session GET /get-session would answer for these request headers (their Cookie), or null; one
   * call, no HTTP. For a server's own pages and middleware: `auth.api.getSession({ headers: request.headers })`.
   */
  getSession(input: { headers: RequestHeaders; query?: HeaderSessionOptions }): Promise<SessionWithUser | null>;
}

export function createServerApi(ctx: AuthContext): ServerApi {
  return {
    async setPassword(userId, newPassword) {
      await setPassword(ctx, userId, newPassword);
      return { status: true };
    },
    async addMember(input) {
      return addMember(ctx, parseInput(addMemberInput, input, "input"));
    },
    getSession({ headers, query }) {
      return sessionFromHeaders(ctx, headers, query);
    },
  };
}

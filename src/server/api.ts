import type { AuthContext } from "./context.js";
import { setPassword } from "./services/passwords.js";

/**
 * Calls for the embedding server only, never routed over HTTP (WIRE 1.1: server-only endpoints answer
 * 404 there). They throw AuthError like the routes do.
 */
export interface ServerApi {
  /** Gives a user without a credential password one; USER_ALREADY_HAS_PASSWORD when they have one. */
  setPassword(userId: string, newPassword: string): Promise<{ status: true }>;
}

export function createServerApi(ctx: AuthContext): ServerApi {
  return {
    async setPassword(userId, newPassword) {
      await setPassword(ctx, userId, newPassword);
      return { status: true };
    },
  };
}

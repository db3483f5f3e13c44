import { accountFlowEndpoints } from "../../contract/endpoints/index.js";
import { AuthError } from "../errors.js";
import { clearSessionCookies } from "../http/cookies.js";
import { redirectTarget } from "../http/redirect.js";
import type { Route } from "../http/route.js";
import { getRequestSession, requestLocale } from "../http/session.js";
import { deleteUser, deleteUserWithToken } from "../services/account-deletion.js";

/** Routed only while user.deleteUser is on (the endpoints' feature switch). */
export function accountDeletionRoutes(route: Route): void {
  route(accountFlowEndpoints.deleteUser, async (c, { body, caller }) => {
    const outcome = await deleteUser(c.get("auth"), caller, body, requestLocale(c));
    if (outcome === "verification-sent") return { success: true, message: "Verification email sent" };
    clearSessionCookies(c);
    return { success: true, message: "User deleted" };
  });

  route(accountFlowEndpoints.deleteUserCallback, async (c, { query }) => {
    const ctx = c.get("auth");
    // The link must be opened where the user is signed in: the token alone deletes nobody.
    const current = await getRequestSession(c);
    if (!current) throw new AuthError("FAILED_TO_GET_USER_INFO", { status: 404 });
    await deleteUserWithToken(ctx, current.user.id, query.token);
    clearSessionCookies(c);
    if (query.callbackURL) return c.redirect(redirectTarget(ctx, query.callbackURL), 302);
    return { success: true, message: "User deleted" };
  });
}

import type { Hono } from "hono";
import { deleteUserBody, deleteUserCallbackQuery } from "../../contract/account-flows.js";
import { AuthError } from "../errors.js";
import { clearSessionCookies } from "../http/cookies.js";
import type { AuthEnv } from "../http/env.js";
import { readBody, readQuery } from "../http/input.js";
import { redirectTarget } from "../http/redirect.js";
import { getRequestSession, requireSession } from "../http/session.js";
import { deleteUser, deleteUserWithToken } from "../services/account-deletion.js";

export function accountDeletionRoutes(app: Hono<AuthEnv>): void {
  app.post("/delete-user", async (c) => {
    const ctx = c.get("auth");
    // Switched off, the route does not exist: 404 with an empty body, like any unknown path.
    if (!ctx.options.user.deleteUser.enabled) return c.body(null, 404);
    const body = readBody(c, deleteUserBody);
    const current = await requireSession(c);
    const outcome = await deleteUser(ctx, current, body);
    if (outcome === "verification-sent") return c.json({ success: true, message: "Verification email sent" });
    clearSessionCookies(c);
    return c.json({ success: true, message: "User deleted" });
  });

  app.get("/delete-user/callback", async (c) => {
    const ctx = c.get("auth");
    if (!ctx.options.user.deleteUser.enabled) throw new AuthError("NOT_FOUND");
    const query = readQuery(c, deleteUserCallbackQuery);
    // The link must be opened where the user is signed in: the token alone deletes nobody.
    const current = await getRequestSession(c);
    if (!current) throw new AuthError("FAILED_TO_GET_USER_INFO", { status: 404 });
    await deleteUserWithToken(ctx, current.user.id, query.token);
    clearSessionCookies(c);
    if (query.callbackURL) return c.redirect(redirectTarget(ctx, query.callbackURL), 302);
    return c.json({ success: true, message: "User deleted" });
  });
}

import type { Context, Hono } from "hono";
import {
  changePasswordBody,
  PASSWORD_RESET_REQUESTED_MESSAGE,
  requestPasswordResetBody,
  resetPasswordBody,
  resetPasswordLinkQuery,
  verifyPasswordBody,
} from "../../contract/account-flows.js";
import { isDontRemember, writeSessionCookies } from "../http/cookies.js";
import type { AuthEnv } from "../http/env.js";
import { readBody, readQuery } from "../http/input.js";
import { redirectTarget } from "../http/redirect.js";
import { requestMeta, requireSession } from "../http/session.js";
import { isResetTokenLive, requestPasswordReset, resetPassword } from "../services/password-reset.js";
import { changePassword, verifyPassword } from "../services/passwords.js";

async function handleResetRequest(c: Context<AuthEnv>) {
  const body = readBody(c, requestPasswordResetBody);
  await requestPasswordReset(c.get("auth"), body);
  return c.json({ status: true, message: PASSWORD_RESET_REQUESTED_MESSAGE });
}

export function passwordRoutes(app: Hono<AuthEnv>): void {
  app.post("/request-password-reset", handleResetRequest);
  // SPEC lists /forget-password too (the reference 1.7 dropped it): the same handler.
  app.post("/forget-password", handleResetRequest);

  app.get("/reset-password/:token", async (c) => {
    const ctx = c.get("auth");
    const { callbackURL } = readQuery(c, resetPasswordLinkQuery);
    const token = c.req.param("token");
    const live = await isResetTokenLive(ctx, token);
    return c.redirect(redirectTarget(ctx, callbackURL, live ? { token } : { error: "INVALID_TOKEN" }), 302);
  });

  app.post("/reset-password", async (c) => {
    const body = readBody(c, resetPasswordBody);
    await resetPassword(c.get("auth"), { newPassword: body.newPassword, token: body.token ?? c.req.query("token") });
    return c.json({ status: true });
  });

  app.post("/change-password", async (c) => {
    const body = readBody(c, changePasswordBody);
    const current = await requireSession(c);
    const rememberMe = !isDontRemember(c);
    const result = await changePassword(c.get("auth"), current, body, requestMeta(c), { rememberMe });
    if (result.session) writeSessionCookies(c, { session: result.session, user: result.user }, { rememberMe });
    return c.json({ token: result.session?.token ?? null, user: result.user });
  });

  app.post("/verify-password", async (c) => {
    const { password } = readBody(c, verifyPasswordBody);
    const { user } = await requireSession(c);
    await verifyPassword(c.get("auth"), user.id, password);
    return c.json({ status: true });
  });
}

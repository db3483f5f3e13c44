import type { Hono } from "hono";
import { changeEmailBody, sendVerificationEmailBody, verifyEmailQuery } from "../../contract/account-flows.js";
import type { ErrorCode } from "../../contract/errors/index.js";
import { isAuthError } from "../errors.js";
import { isDontRemember, writeSessionCookies } from "../http/cookies.js";
import type { AuthEnv } from "../http/env.js";
import { readBody, readQuery } from "../http/input.js";
import { redirectTarget } from "../http/redirect.js";
import { getRequestSession, requestMeta, requireSession } from "../http/session.js";
import { requestEmailChange } from "../services/change-email.js";
import { sendVerificationEmail, verifyEmail } from "../services/email-verification.js";

/** Verify-email failures as the callback receives them (SPEC 8: lower case). */
const CALLBACK_ERRORS: Partial<Record<ErrorCode, string>> = {
  TOKEN_EXPIRED: "token_expired",
  INVALID_TOKEN: "invalid_token",
  USER_NOT_FOUND: "user_not_found",
  UNAUTHORIZED: "unauthorized",
  COULD_NOT_UPDATE_EMAIL: "could_not_update_email",
};

export function emailVerificationRoutes(app: Hono<AuthEnv>): void {
  app.post("/send-verification-email", async (c) => {
    const body = readBody(c, sendVerificationEmailBody);
    const current = await getRequestSession(c);
    await sendVerificationEmail(c.get("auth"), body, current);
    return c.json({ status: true });
  });

  app.get("/verify-email", async (c) => {
    const ctx = c.get("auth");
    const query = readQuery(c, verifyEmailQuery);
    const current = await getRequestSession(c);
    let outcome: Awaited<ReturnType<typeof verifyEmail>>;
    try {
      outcome = await verifyEmail(ctx, query, current, requestMeta(c));
    } catch (error) {
      const callbackError = isAuthError(error) ? CALLBACK_ERRORS[error.code] : undefined;
      if (query.callbackURL && callbackError) {
        return c.redirect(redirectTarget(ctx, query.callbackURL, { error: callbackError }), 302);
      }
      throw error;
    }

    if (outcome.kind === "verified" && outcome.session) {
      writeSessionCookies(c, { session: outcome.session, user: outcome.user }, { rememberMe: true });
    } else if (outcome.kind !== "change-confirmed" && current) {
      // The caller's own session: re-sign it so the cookie cache shows the new email or flag.
      writeSessionCookies(c, { session: current.session, user: outcome.user }, { rememberMe: !isDontRemember(c) });
    }
    if (query.callbackURL) return c.redirect(redirectTarget(ctx, query.callbackURL), 302);
    if (outcome.kind === "change-confirmed") return c.json({ status: true });
    if (outcome.kind === "email-changed") return c.json({ status: true, user: outcome.user });
    return c.json({ status: true, user: outcome.session ? outcome.user : null });
  });

  app.post("/change-email", async (c) => {
    const body = readBody(c, changeEmailBody);
    const { user } = await requireSession(c);
    await requestEmailChange(c.get("auth"), user, body);
    return c.json({ status: true });
  });
}

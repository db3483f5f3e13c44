import type { Context } from "hono";
import { accountFlowEndpoints } from "../../contract/endpoints/index.js";
import type { ErrorCode } from "../../contract/errors/index.js";
import { isAuthError } from "../errors.js";
import { isDontRemember, writeSessionCookies } from "../http/cookies.js";
import type { AuthEnv } from "../http/env.js";
import { isTrustedFetch } from "../http/origin-check.js";
import { redirectTarget } from "../http/redirect.js";
import type { Route } from "../http/route.js";
import { getRequestSession, requestLocale, requestMeta } from "../http/session.js";
import { requestEmailChange } from "../services/change-email.js";
import { sendVerificationEmail, type VerifyEmailOutcome, verifyEmail } from "../services/email-verification.js";
import { verifyEmailConfirmPage } from "../services/verification-links.js";

/** Verify-email failures as the callback receives them (SPEC 8: lower case). */
const CALLBACK_ERRORS: Partial<Record<ErrorCode, string>> = {
  TOKEN_EXPIRED: "token_expired",
  INVALID_TOKEN: "invalid_token",
  USER_NOT_FOUND: "user_not_found",
  UNAUTHORIZED: "unauthorized",
  COULD_NOT_UPDATE_EMAIL: "could_not_update_email",
};

/** The `emailChange` parameter the callback gets (ours): approved by the old address, or changed. */
const EMAIL_CHANGE_STEPS: Partial<Record<string, string>> = {
  "change-confirmed": "approved",
  "email-changed": "changed",
};

export function emailVerificationRoutes(route: Route): void {
  route(accountFlowEndpoints.sendVerificationEmail, async (c, { body }) => {
    const current = await getRequestSession(c);
    await sendVerificationEmail(c.get("auth"), body, current, requestLocale(c));
    return { status: true };
  });

  // A link or redirect can be aimed at any browser: a verification that signs in waits for the app's
  // confirmation page (its form is the POST below) unless a trusted script fetches it.
  route(accountFlowEndpoints.verifyEmail, async (c, { query }) =>
    followVerificationLink(c, query, isTrustedFetch(c.req.raw.headers, c.get("auth").isTrustedOrigin)),
  );

  // The confirmation page's form: the origin check (login) has refused other sites already.
  route(accountFlowEndpoints.confirmEmailVerification, async (c, { body }) => followVerificationLink(c, body, true));

  route(accountFlowEndpoints.changeEmail, async (c, { body, caller: { user } }) => {
    await requestEmailChange(c.get("auth"), user, body, requestLocale(c));
    return { status: true };
  });
}

async function followVerificationLink(
  c: Context<AuthEnv>,
  query: { token: string; callbackURL?: string },
  confirmed: boolean,
) {
  const ctx = c.get("auth");
  const current = await getRequestSession(c);
  let outcome: VerifyEmailOutcome;
  try {
    outcome = await verifyEmail(ctx, query, current, requestMeta(c), confirmed);
  } catch (error) {
    const callbackError = isAuthError(error) ? CALLBACK_ERRORS[error.code] : undefined;
    if (query.callbackURL && callbackError) {
      return c.redirect(redirectTarget(ctx, query.callbackURL, { error: callbackError }), 302);
    }
    throw error;
  }

  if (outcome.kind === "confirm") return c.redirect(verifyEmailConfirmPage(ctx, query.token, query.callbackURL), 302);
  if (outcome.kind === "verified" && outcome.session) {
    writeSessionCookies(c, { session: outcome.session, user: outcome.user }, { rememberMe: true });
  } else if (outcome.kind !== "change-confirmed" && current) {
    // The caller's own session: re-sign it so the cookie cache shows the new email or flag.
    writeSessionCookies(c, { session: current.session, user: outcome.user }, { rememberMe: !isDontRemember(c) });
  }
  if (query.callbackURL) {
    // Both email-change steps land on the same callback: say which one this was.
    const step = EMAIL_CHANGE_STEPS[outcome.kind];
    return c.redirect(redirectTarget(ctx, query.callbackURL, step ? { emailChange: step } : {}), 302);
  }
  if (outcome.kind === "change-confirmed") return { status: true };
  if (outcome.kind === "email-changed") return { status: true, user: outcome.user };
  return { status: true, user: outcome.session ? outcome.user : null };
}

import { PASSWORD_RESET_REQUESTED_MESSAGE } from "../../contract/account-flows.js";
import { accountEndpoints, accountFlowEndpoints } from "../../contract/endpoints/index.js";
import { isDontRemember, writeSessionCookies } from "../http/cookies.js";
import { credentialsRemovedReply } from "../http/credentials-removed.js";
import { redirectTarget } from "../http/redirect.js";
import type { Route } from "../http/route.js";
import { requestLocale, requestMeta } from "../http/session.js";
import { proveWithPassword } from "../services/credential-guard.js";
import { isResetTokenLive, requestPasswordReset, resetPassword } from "../services/password-reset.js";
import { changePassword } from "../services/passwords.js";

export function passwordRoutes(route: Route): void {
  // SPEC lists /forget-password too (the reference 1.7 dropped it): the same handler.
  for (const endpoint of [accountFlowEndpoints.requestPasswordReset, accountFlowEndpoints.forgetPassword]) {
    route(endpoint, async (c, { body }) => {
      await requestPasswordReset(c.get("auth"), body, requestLocale(c));
      return { status: true, message: PASSWORD_RESET_REQUESTED_MESSAGE };
    });
  }

  route(accountFlowEndpoints.resetPasswordLink, async (c, { query: { callbackURL } }) => {
    const ctx = c.get("auth");
    const token = c.req.param("token") ?? "";
    const live = await isResetTokenLive(ctx, token);
    return c.redirect(redirectTarget(ctx, callbackURL, live ? { token } : { error: "INVALID_TOKEN" }), 302);
  });

  route(accountFlowEndpoints.resetPassword, async (c, { body }) => {
    const reset = await resetPassword(
      c.get("auth"),
      { newPassword: body.newPassword, token: body.token ?? c.req.query("token") },
      requestLocale(c),
    );
    return { status: true, ...credentialsRemovedReply(reset) };
  });

  route(accountEndpoints.changePassword, async (c, { body, caller }) => {
    const rememberMe = !isDontRemember(c);
    const result = await changePassword(c.get("auth"), caller, body, requestMeta(c), { rememberMe });
    if (result.session) writeSessionCookies(c, { session: result.session, user: result.user }, { rememberMe });
    return { token: result.session?.token ?? null, user: result.user };
  });

  // Also the way to re-prove on an existing session before adding a passkey (the credential guard).
  route(accountEndpoints.verifyPassword, async (c, { body: { password }, caller }) => {
    await proveWithPassword(c.get("auth"), caller, password);
    return { status: true };
  });
}

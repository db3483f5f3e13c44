import type { Context } from "hono";
import { callbackParams } from "../../contract/social.js";
import type { AuthContext } from "../context.js";
import { expireCookie, readSignedCookie, writeSessionCookies } from "../http/cookies.js";
import type { AuthEnv } from "../http/env.js";
import { requestId } from "../http/request-start.js";
import { getRequestSession, requestMeta } from "../http/session.js";
import { challenge } from "../http/two-factor-gate.js";
import {
  type CallbackInput,
  type CallbackOutcome,
  defaultErrorURL,
  repeatsCallbackParam,
  withError,
} from "../services/social/callback.js";

/**
 * The GET callback of an OAuth flow, social or SSO (`complete` is the flow's own): every outcome is a
 * redirect, a bug included (SPEC 8), so a browser never lands on a JSON error.
 */
export async function answerOAuthCallback(
  c: Context<AuthEnv>,
  flow: { providerId: string; logLabel: string },
  complete: (ctx: AuthContext, input: CallbackInput) => Promise<CallbackOutcome>,
): Promise<Response> {
  const ctx = c.get("auth");
  const params = callbackParams.safeParse(c.req.query());
  const wellFormed = params.success && !repeatsCallbackParam(new URL(c.req.url).searchParams);
  return answerSignInOutcome(c, flow.logLabel, async () =>
    wellFormed
      ? complete(ctx, {
          providerId: flow.providerId,
          params: params.data,
          stateCookie: readSignedCookie(c, "state"),
          currentSession: () => getRequestSession(c),
          meta: requestMeta(c),
        })
      : { kind: "redirect", location: withError(defaultErrorURL(ctx), "invalid_callback_request") },
  );
}

/**
 * Sends where a provider's answer leads (an OAuth callback or a SAML response): the session set when
 * it signed in, a second-factor challenge when one is owed, and a redirect in every case, a bug too.
 */
export async function answerSignInOutcome(
  c: Context<AuthEnv>,
  logLabel: string,
  run: () => Promise<CallbackOutcome>,
): Promise<Response> {
  const ctx = c.get("auth");
  let outcome: CallbackOutcome;
  try {
    outcome = await run();
  } catch (error) {
    ctx.logger.error(`${logLabel} callback failed`, {
      requestId: requestId(c),
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    outcome = { kind: "redirect", location: withError(defaultErrorURL(ctx), "internal_server_error") };
  }
  expireCookie(c, "state");
  if (outcome.kind === "signed-in") writeSessionCookies(c, outcome.data, { rememberMe: true });
  if (outcome.kind === "two-factor")
    await challenge(c, outcome.userId, true, outcome.signInMethod, outcome.signInProviderId);
  // 303: a POSTed SAML response leads the browser on with a GET.
  return c.redirect(outcome.location, c.req.method === "POST" ? 303 : 302);
}

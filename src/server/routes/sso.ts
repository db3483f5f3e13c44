import { ssoEndpoints } from "../../contract/endpoints/index.js";
import { callbackParams } from "../../contract/social.js";
import { expireCookie, readSignedCookie, writeSessionCookies, writeSignedCookie } from "../http/cookies.js";
import { requestId } from "../http/request-start.js";
import type { Route } from "../http/route.js";
import { getRequestSession, requestMeta } from "../http/session.js";
import { challenge } from "../http/two-factor-gate.js";
import { type CallbackOutcome, defaultErrorURL, repeatsCallbackParam, withError } from "../services/social/callback.js";
import { STATE_COOKIE_MAX_AGE } from "../services/social/state.js";
import {
  deleteProvider,
  findManagedProvider,
  listProviders,
  providerView,
  registerProvider,
  updateProvider,
} from "../services/sso/connections.js";
import { requestDomainVerification, verifyDomains } from "../services/sso/domains.js";
import { completeSSOCallback, startSSOSignIn } from "../services/sso/sign-in.js";

export function ssoRoutes(route: Route): void {
  route(ssoEndpoints.registerSSOProvider, (c, { body, caller }) => registerProvider(c.get("auth"), caller, body));

  route(ssoEndpoints.listSSOProviders, async (c, { caller }) => ({
    providers: await listProviders(c.get("auth"), caller.user.id),
  }));

  route(ssoEndpoints.getSSOProvider, async (c, { query, caller }) => {
    const ctx = c.get("auth");
    return providerView(ctx, await findManagedProvider(ctx, caller.user.id, query.providerId));
  });

  route(ssoEndpoints.updateSSOProvider, (c, { body, caller }) => updateProvider(c.get("auth"), caller.user.id, body));

  route(ssoEndpoints.deleteSSOProvider, async (c, { body, caller }) => {
    await deleteProvider(c.get("auth"), caller.user.id, body.providerId);
    return { success: true };
  });

  route(ssoEndpoints.requestDomainVerification, (c, { body, caller }) =>
    requestDomainVerification(c.get("auth"), caller.user.id, body.providerId),
  );

  route(ssoEndpoints.verifyDomain, (c, { body, caller }) =>
    verifyDomains(c.get("auth"), caller.user.id, body.providerId),
  );

  route(ssoEndpoints.signInSSO, async (c, { body }) => {
    const { url, state } = await startSSOSignIn(c.get("auth"), body);
    writeSignedCookie(c, "state", state, STATE_COOKIE_MAX_AGE);
    c.header("Location", url);
    return { url, redirect: true };
  });

  route(ssoEndpoints.callbackSSO, async (c) => {
    const ctx = c.get("auth");
    const params = callbackParams.safeParse(c.req.query());
    const wellFormed = params.success && !repeatsCallbackParam(new URL(c.req.url).searchParams);
    let outcome: CallbackOutcome;
    try {
      outcome = wellFormed
        ? await completeSSOCallback(ctx, {
            providerId: c.req.param("providerId") ?? "",
            params: params.data,
            stateCookie: readSignedCookie(c, "state"),
            currentSession: () => getRequestSession(c),
            meta: requestMeta(c),
          })
        : { kind: "redirect", location: withError(defaultErrorURL(ctx), "invalid_callback_request") };
    } catch (error) {
      ctx.logger.error("sso callback failed", {
        requestId: requestId(c),
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      outcome = { kind: "redirect", location: withError(defaultErrorURL(ctx), "internal_server_error") };
    }
    expireCookie(c, "state");
    if (outcome.kind === "signed-in") writeSessionCookies(c, outcome.data, { rememberMe: true });
    if (outcome.kind === "two-factor") await challenge(c, outcome.userId, true);
    return c.redirect(outcome.location, 302);
  });
}

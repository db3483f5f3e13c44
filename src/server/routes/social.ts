import { socialEndpoints } from "../../contract/endpoints/index.js";
import { callbackParams } from "../../contract/social.js";
import { apiURL } from "../context.js";
import { expireCookie, readSignedCookie, writeSessionCookies, writeSignedCookie } from "../http/cookies.js";
import { requestId } from "../http/request-start.js";
import type { Route } from "../http/route.js";
import { getRequestSession, requestMeta } from "../http/session.js";
import { challenge, isTwoFactorRedirect, signInOrChallenge } from "../http/two-factor-gate.js";
import {
  type CallbackOutcome,
  completeCallback,
  defaultErrorURL,
  repeatsCallbackParam,
  withError,
} from "../services/social/callback.js";
import { linkWithIdToken, signInWithIdToken, signInWithOneTap } from "../services/social/id-token.js";
import { requireProvider, startAuthorization } from "../services/social/start.js";
import { STATE_COOKIE_MAX_AGE } from "../services/social/state.js";

export function socialRoutes(route: Route): void {
  route(socialEndpoints.signInSocial, async (c, { body }) => {
    const ctx = c.get("auth");
    const provider = requireProvider(ctx, body.provider);
    const { idToken } = body;
    if (idToken) {
      const guest = await getRequestSession(c);
      const result = await signInOrChallenge(c, true, () =>
        signInWithIdToken(ctx, provider, idToken, requestMeta(c), guest),
      );
      if (isTwoFactorRedirect(result)) return result;
      writeSessionCookies(c, { session: result.session, user: result.user }, { rememberMe: true });
      return { redirect: false as const, token: result.session.token, user: result.user };
    }
    const { url, state } = await startAuthorization(ctx, provider, body);
    writeSignedCookie(c, "state", state, STATE_COOKIE_MAX_AGE);
    if (!body.disableRedirect) c.header("Location", url);
    return { url, redirect: !body.disableRedirect };
  });

  // form_post providers (Apple) POST here; the params move to the GET, where the work happens.
  route(socialEndpoints.callbackFormPost, (c) => {
    const target = new URL(apiURL(c.get("auth"), `/callback/${encodeURIComponent(c.req.param("id") ?? "")}`));
    for (const [key, value] of new URL(c.req.url).searchParams) target.searchParams.set(key, value);
    for (const [key, value] of Object.entries(c.get("body"))) {
      if (typeof value === "string") target.searchParams.set(key, value);
    }
    return c.redirect(target.toString(), 302);
  });

  route(socialEndpoints.callback, async (c) => {
    const ctx = c.get("auth");
    const params = callbackParams.safeParse(c.req.query());
    const wellFormed = params.success && !repeatsCallbackParam(new URL(c.req.url).searchParams);
    let outcome: CallbackOutcome;
    try {
      outcome = wellFormed
        ? await completeCallback(ctx, {
            providerId: c.req.param("id") ?? "",
            params: params.data,
            stateCookie: readSignedCookie(c, "state"),
            currentSession: () => getRequestSession(c),
            meta: requestMeta(c),
          })
        : { kind: "redirect", location: withError(defaultErrorURL(ctx), "invalid_callback_request") };
    } catch (error) {
      ctx.logger.error("oauth callback failed", {
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

  route(socialEndpoints.linkSocial, async (c, { body, caller: { user } }) => {
    const ctx = c.get("auth");
    const provider = requireProvider(ctx, body.provider);
    if (body.idToken) {
      await linkWithIdToken(ctx, provider, body.idToken, user);
      return { url: "", status: true, redirect: false };
    }
    const { url, state } = await startAuthorization(ctx, provider, {
      ...body,
      link: { userId: user.id, email: user.email },
    });
    writeSignedCookie(c, "state", state, STATE_COOKIE_MAX_AGE);
    if (!body.disableRedirect) c.header("Location", url);
    return { url, redirect: !body.disableRedirect };
  });

  route(socialEndpoints.oneTapCallback, async (c, { body }) => {
    const ctx = c.get("auth");
    const guest = await getRequestSession(c);
    const result = await signInOrChallenge(c, true, () => signInWithOneTap(ctx, body.idToken, requestMeta(c), guest));
    if (isTwoFactorRedirect(result)) return result;
    writeSessionCookies(c, { session: result.session, user: result.user }, { rememberMe: true });
    return { token: result.session.token, user: result.user };
  });
}

import { socialEndpoints } from "../../contract/endpoints/index.js";
import { apiURL } from "../context.js";
import { writeSessionCookies, writeSignedCookie } from "../http/cookies.js";
import type { Route } from "../http/route.js";
import { getRequestSession, requestMeta } from "../http/session.js";
import { isTwoFactorRedirect, signInOrChallenge } from "../http/two-factor-gate.js";
import { completeCallback } from "../services/social/callback.js";
import { linkWithIdToken, signInWithIdToken, signInWithOneTap } from "../services/social/id-token.js";
import { requireProvider, startAuthorization } from "../services/social/start.js";
import { STATE_COOKIE_MAX_AGE } from "../services/social/state.js";
import { answerOAuthCallback } from "./oauth-callback.js";

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

  route(socialEndpoints.callback, (c) =>
    answerOAuthCallback(c, { providerId: c.req.param("id") ?? "", logLabel: "oauth" }, completeCallback),
  );

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

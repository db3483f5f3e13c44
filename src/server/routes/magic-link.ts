import { passwordlessEndpoints } from "../../contract/endpoints/index.js";
import type { TwoFactorRedirectReply } from "../../contract/two-factor.js";
import { isAuthError } from "../errors.js";
import { writeSessionCookies } from "../http/cookies.js";
import { credentialsRemovedReply } from "../http/credentials-removed.js";
import { redirectTarget } from "../http/redirect.js";
import type { Route } from "../http/route.js";
import { getRequestSession, requestLocale, requestMeta } from "../http/session.js";
import { isTwoFactorRedirect, signInOrChallenge } from "../http/two-factor-gate.js";
import { type MagicLinkSignIn, sendMagicLink, signInWithMagicLink } from "../services/magic-link.js";

/** Routed only while magicLink is on (the endpoints' feature switch). */
export function magicLinkRoutes(route: Route): void {
  route(passwordlessEndpoints.signInMagicLink, async (c, { body }) => {
    await sendMagicLink(c.get("auth"), body, requestLocale(c));
    return { status: true };
  });

  route(passwordlessEndpoints.verifyMagicLink, async (c, { query }) => {
    // A link checker's HEAD must not spend the link (GET routes answer HEAD too).
    if (c.req.method === "HEAD") return new Response(null, { status: 200 });
    const ctx = c.get("auth");
    const guest = await getRequestSession(c);
    let outcome: MagicLinkSignIn | TwoFactorRedirectReply;
    try {
      outcome = await signInOrChallenge(c, true, () => signInWithMagicLink(ctx, query.token, requestMeta(c), guest));
    } catch (error) {
      // Followed from a mail, the browser goes back to the app with the error, not to a JSON page.
      const back = query.errorCallbackURL ?? query.callbackURL;
      if (back && isAuthError(error)) return c.redirect(redirectTarget(ctx, back, { error: error.code }), 302);
      throw error;
    }
    if (isTwoFactorRedirect(outcome)) {
      if (!query.callbackURL) return outcome;
      return c.redirect(redirectTarget(ctx, query.callbackURL, { twoFactorRedirect: "true" }), 302);
    }
    writeSessionCookies(c, outcome.data, { rememberMe: true });
    const notice = credentialsRemovedReply(outcome);
    if (!query.callbackURL) return { token: outcome.data.session.token, ...outcome.data, ...notice };
    const target = outcome.isNewUser ? (query.newUserCallbackURL ?? query.callbackURL) : query.callbackURL;
    return c.redirect(
      redirectTarget(ctx, target, outcome.credentialsRemoved ? { credentialsRemoved: "true" } : {}),
      302,
    );
  });
}

import type { Context } from "hono";
import type { z } from "zod";
import { passwordlessEndpoints } from "../../contract/endpoints/index.js";
import type { magicLinkVerifyQuery } from "../../contract/passwordless.js";
import type { TwoFactorRedirectReply } from "../../contract/two-factor.js";
import { isAuthError } from "../errors.js";
import { readSignedCookie, writeSessionCookies, writeSignedCookie } from "../http/cookies.js";
import { credentialsRemovedReply } from "../http/credentials-removed.js";
import type { AuthEnv } from "../http/env.js";
import { isTrustedFetch } from "../http/origin-check.js";
import { redirectTarget } from "../http/redirect.js";
import type { Route } from "../http/route.js";
import { getRequestSession, requestLocale, requestMeta } from "../http/session.js";
import { isTwoFactorRedirect, signInOrChallenge } from "../http/two-factor-gate.js";
import {
  isLinkFromThisBrowser,
  type MagicLinkSignIn,
  magicLinkPage,
  newLinkRequester,
  sendMagicLink,
  signInWithMagicLink,
} from "../services/magic-link.js";

type VerifyInput = z.output<typeof magicLinkVerifyQuery>;

/** Routed only while magicLink is on (the endpoints' feature switch). */
export function magicLinkRoutes(route: Route): void {
  route(passwordlessEndpoints.signInMagicLink, async (c, { body }) => {
    const ctx = c.get("auth");
    // One value per browser, kept while its links live: each link it asks for is bound to it.
    const requester = readSignedCookie(c, "link_requester") ?? newLinkRequester();
    writeSignedCookie(c, "link_requester", requester, ctx.options.magicLink.expiresIn);
    await sendMagicLink(ctx, body, requestLocale(c), requester);
    return { status: true };
  });

  route(passwordlessEndpoints.verifyMagicLink, async (c, { query }) => {
    // A link checker's HEAD must not spend the link (GET routes answer HEAD too).
    if (c.req.method === "HEAD") return c.body(null, 200);
    const ctx = c.get("auth");
    // A link or redirect can be aimed at any browser (login CSRF): unless this browser asked for the
    // link, it goes to the app's confirmation page, whose form POSTs here; nothing is spent before.
    const fromScript = isTrustedFetch(c.req.raw.headers, ctx.isTrustedOrigin);
    if (!fromScript && !(await isLinkFromThisBrowser(ctx, query.token, readSignedCookie(c, "link_requester")))) {
      return c.redirect(magicLinkPage(ctx, query.token, query), 302);
    }
    return spendLink(c, query);
  });

  // The confirmation page's form: the origin check (login) has refused other sites already.
  route(passwordlessEndpoints.confirmMagicLink, async (c, { body }) => spendLink(c, body));
}

async function spendLink(c: Context<AuthEnv>, input: VerifyInput) {
  const ctx = c.get("auth");
  const browser = { guest: await getRequestSession(c), requester: readSignedCookie(c, "link_requester") };
  let outcome: MagicLinkSignIn | TwoFactorRedirectReply;
  try {
    outcome = await signInOrChallenge(c, true, () => signInWithMagicLink(ctx, input.token, requestMeta(c), browser));
  } catch (error) {
    // Followed from a mail, the browser goes back to the app with the error, not to a JSON page.
    const back = input.errorCallbackURL ?? input.callbackURL;
    if (back && isAuthError(error)) return c.redirect(redirectTarget(ctx, back, { error: error.code }), 302);
    throw error;
  }
  if (isTwoFactorRedirect(outcome)) {
    if (!input.callbackURL) return outcome;
    return c.redirect(redirectTarget(ctx, input.callbackURL, { twoFactorRedirect: "true" }), 302);
  }
  writeSessionCookies(c, outcome.data, { rememberMe: true });
  const notice = credentialsRemovedReply(outcome);
  if (!input.callbackURL) return { token: outcome.data.session.token, ...outcome.data, ...notice };
  const target = outcome.isNewUser ? (input.newUserCallbackURL ?? input.callbackURL) : input.callbackURL;
  return c.redirect(redirectTarget(ctx, target, outcome.credentialsRemoved ? { credentialsRemoved: "true" } : {}), 302);
}

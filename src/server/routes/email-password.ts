import { accountEndpoints } from "../../contract/endpoints/index.js";
import { AuthError } from "../errors.js";
import { writeSessionCookies } from "../http/cookies.js";
import type { Route } from "../http/route.js";
import { fieldSource } from "../http/server-call.js";
import { getRequestSession, requestMeta } from "../http/session.js";
import { isTwoFactorRedirect, signInOrChallenge } from "../http/two-factor-gate.js";
import { signInEmail, signUpEmail } from "../services/email-password.js";

export function emailPasswordRoutes(route: Route): void {
  route(accountEndpoints.signUpEmail, async (c, { body }) => {
    const rememberMe = body.rememberMe ?? true;
    const guest = await getRequestSession(c);
    const result = await signUpEmail(
      c.get("auth"),
      { ...body, rememberMe, guest, additional: { from: c.get("body"), source: fieldSource(c) } },
      requestMeta(c),
    );
    if (result.session) writeSessionCookies(c, { session: result.session, user: result.user }, { rememberMe });
    return { token: result.session?.token ?? null, user: result.user };
  });

  route(accountEndpoints.signInEmail, async (c, { body }) => {
    const rememberMe = body.rememberMe ?? true;
    const guest = await getRequestSession(c);
    const result = await signInOrChallenge(c, rememberMe, () =>
      signInEmail(c.get("auth"), { ...body, rememberMe, guest }, requestMeta(c)),
    );
    if (isTwoFactorRedirect(result)) return result;
    if (result.status === "email-not-verified") throw new AuthError("EMAIL_NOT_VERIFIED");
    writeSessionCookies(c, { session: result.session, user: result.user }, { rememberMe });
    if (body.callbackURL) c.header("Location", body.callbackURL);
    return {
      redirect: Boolean(body.callbackURL),
      token: result.session.token,
      ...(body.callbackURL ? { url: body.callbackURL } : {}),
      user: result.user,
    };
  });
}

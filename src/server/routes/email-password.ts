import { accountEndpoints } from "../../contract/endpoints/index.js";
import { AuthError } from "../errors.js";
import type { Route } from "../http/route.js";
import { requestMeta } from "../http/session.js";
import { writeSignInCookies } from "../http/sign-in-cookies.js";
import { signInEmail, signUpEmail } from "../services/email-password.js";

export function emailPasswordRoutes(route: Route): void {
  route(accountEndpoints.signUpEmail, async (c, { body }) => {
    const rememberMe = body.rememberMe ?? true;
    const result = await signUpEmail(c.get("auth"), { ...body, rememberMe }, requestMeta(c));
    if (result.session) await writeSignInCookies(c, { session: result.session, user: result.user }, { rememberMe });
    return { token: result.session?.token ?? null, user: result.user };
  });

  route(accountEndpoints.signInEmail, async (c, { body }) => {
    const rememberMe = body.rememberMe ?? true;
    const result = await signInEmail(c.get("auth"), { ...body, rememberMe }, requestMeta(c));
    if (result.status === "email-not-verified") throw new AuthError("EMAIL_NOT_VERIFIED");
    await writeSignInCookies(c, { session: result.session, user: result.user }, { rememberMe });
    if (body.callbackURL) c.header("Location", body.callbackURL);
    return {
      redirect: Boolean(body.callbackURL),
      token: result.session.token,
      ...(body.callbackURL ? { url: body.callbackURL } : {}),
      user: result.user,
    };
  });
}

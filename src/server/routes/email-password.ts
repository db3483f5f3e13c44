import type { Hono } from "hono";
import { signInEmailBody, signUpEmailBody } from "../../contract/account.js";
import { AuthError } from "../errors.js";
import type { AuthEnv } from "../http/env.js";
import { readBody } from "../http/input.js";
import { requestMeta } from "../http/session.js";
import { writeSignInCookies } from "../http/sign-in-cookies.js";
import { signInEmail, signUpEmail } from "../services/email-password.js";

export function emailPasswordRoutes(app: Hono<AuthEnv>): void {
  app.post("/sign-up/email", async (c) => {
    const body = readBody(c, signUpEmailBody);
    const rememberMe = body.rememberMe ?? true;
    const result = await signUpEmail(c.get("auth"), { ...body, rememberMe }, requestMeta(c));
    if (result.session) await writeSignInCookies(c, { session: result.session, user: result.user }, { rememberMe });
    return c.json({ token: result.session?.token ?? null, user: result.user });
  });

  app.post("/sign-in/email", async (c) => {
    const body = readBody(c, signInEmailBody);
    const rememberMe = body.rememberMe ?? true;
    const result = await signInEmail(c.get("auth"), { ...body, rememberMe }, requestMeta(c));
    if (result.status === "email-not-verified") throw new AuthError("EMAIL_NOT_VERIFIED");
    await writeSignInCookies(c, { session: result.session, user: result.user }, { rememberMe });
    if (body.callbackURL) c.header("Location", body.callbackURL);
    return c.json({
      redirect: Boolean(body.callbackURL),
      token: result.session.token,
      ...(body.callbackURL ? { url: body.callbackURL } : {}),
      user: result.user,
    });
  });
}

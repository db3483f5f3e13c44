import { passwordlessEndpoints } from "../../contract/endpoints/index.js";
import { writeSessionCookies } from "../http/cookies.js";
import { credentialsRemovedReply } from "../http/credentials-removed.js";
import type { Route } from "../http/route.js";
import { getRequestSession, requestLocale, requestMeta } from "../http/session.js";
import { isTwoFactorRedirect, signInOrChallenge } from "../http/two-factor-gate.js";
import {
  checkEmailOtp,
  resetPasswordWithEmailOtp,
  sendEmailOtp,
  signInWithEmailOtp,
  verifyEmailWithOtp,
} from "../services/email-otp.js";

/** Routed only while emailOTP is on (the endpoints' feature switch). */
export function emailOtpRoutes(route: Route): void {
  route(passwordlessEndpoints.sendVerificationOtp, async (c, { body }) => {
    await sendEmailOtp(c.get("auth"), body, requestLocale(c));
    return { success: true };
  });

  route(passwordlessEndpoints.forgetPasswordEmailOtp, async (c, { body }) => {
    await sendEmailOtp(c.get("auth"), { email: body.email, type: "forget-password" }, requestLocale(c));
    return { success: true };
  });

  route(passwordlessEndpoints.checkVerificationOtp, async (c, { body }) => {
    await checkEmailOtp(c.get("auth"), body);
    return { success: true };
  });

  route(passwordlessEndpoints.signInEmailOtp, async (c, { body }) => {
    const guest = await getRequestSession(c);
    const result = await signInOrChallenge(c, true, () =>
      signInWithEmailOtp(c.get("auth"), body, requestMeta(c), guest),
    );
    if (isTwoFactorRedirect(result)) return result;
    writeSessionCookies(c, result, { rememberMe: true });
    return { token: result.session.token, user: result.user, ...credentialsRemovedReply(result) };
  });

  route(passwordlessEndpoints.verifyEmailOtp, async (c, { body }) => {
    const result = await signInOrChallenge(c, true, () => verifyEmailWithOtp(c.get("auth"), body, requestMeta(c)));
    if (isTwoFactorRedirect(result)) return result;
    if (result.session) writeSessionCookies(c, { session: result.session, user: result.user }, { rememberMe: true });
    return { status: true, token: result.session?.token ?? null, user: result.user };
  });

  route(passwordlessEndpoints.resetPasswordEmailOtp, async (c, { body }) => {
    const reset = await resetPasswordWithEmailOtp(c.get("auth"), body, requestLocale(c));
    return { success: true, ...credentialsRemovedReply(reset) };
  });
}

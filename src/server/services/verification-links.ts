import { type AuthContext, apiURL } from "../context.js";
import { type EmailTokenClaims, signEmailToken } from "../crypto/email-token.js";

/** `<BASE_URL>/api/auth/verify-email?token=<jwt>&callbackURL=<callbackURL or />` (WIRE 5). */
export async function verifyEmailLink(ctx: AuthContext, claims: EmailTokenClaims, callbackURL?: string) {
  const token = await signEmailToken(ctx.secret, claims, {
    now: ctx.now(),
    expiresInSeconds: ctx.options.emailVerification.expiresIn,
  });
  return apiURL(ctx, `/verify-email?token=${token}&callbackURL=${encodeURIComponent(callbackURL || "/")}`);
}

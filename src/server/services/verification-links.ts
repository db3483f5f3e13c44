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

/**
 * The application's page that confirms a verification which signs in: where a link followed as a
 * navigation goes, since any site can aim a link at a browser. Its form POSTs to /verify-email.
 */
export function verifyEmailConfirmPage(ctx: AuthContext, token: string, callbackURL?: string): string {
  return ctx.pages.verifyEmail({ token, callbackURL: callbackURL || undefined });
}

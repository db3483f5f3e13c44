import { errors, jwtVerify, SignJWT } from "jose";
import { z } from "zod";

/**
 * Email-verification tokens (SPEC 9, WIRE 2.4): HS256 JWTs signed with the secret's bytes, carrying
 * the email, the user id, and for an email change the new address and which step the link is.
 */
export type EmailTokenRequest = "change-email-confirmation" | "change-email-verification";

export interface EmailTokenClaims {
  email: string;
  userId: string;
  updateTo?: string;
  requestType?: EmailTokenRequest;
  /** Issued while the account's address was unproven: void once someone proves it (pre-hijacking). */
  fromUnverified?: true;
}

const claimsSchema = z.object({
  email: z.string().min(1),
  userId: z.string().min(1),
  updateTo: z.string().min(1).optional(),
  requestType: z.enum(["change-email-confirmation", "change-email-verification"]).optional(),
  fromUnverified: z.literal(true).optional(),
});

export type EmailTokenCheck =
  | { status: "valid"; claims: EmailTokenClaims }
  | { status: "expired" }
  | { status: "invalid" };

const keyOf = (secret: string) => new TextEncoder().encode(secret);

export async function signEmailToken(
  secret: string,
  claims: EmailTokenClaims,
  options: { now: Date; expiresInSeconds: number },
): Promise<string> {
  const issuedAtSeconds = Math.floor(options.now.getTime() / 1000);
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt(issuedAtSeconds)
    .setExpirationTime(issuedAtSeconds + options.expiresInSeconds)
    .sign(keyOf(secret));
}

/** Checks the signature first: only a token we signed can be reported as expired. */
export async function checkEmailToken(secret: string, token: string, now: Date): Promise<EmailTokenCheck> {
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), { algorithms: ["HS256"], currentDate: now });
    const claims = claimsSchema.safeParse(payload);
    return claims.success ? { status: "valid", claims: claims.data } : { status: "invalid" };
  } catch (error) {
    return error instanceof errors.JWTExpired ? { status: "expired" } : { status: "invalid" };
  }
}

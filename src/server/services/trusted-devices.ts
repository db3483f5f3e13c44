import type { AuthContext } from "../context.js";
import { sha256Base64Url } from "../crypto/digest.js";
import { newId, randomString } from "../crypto/random.js";
import type { DB } from "../store/database.js";
import { deleteUserVerifications, findVerification, insertVerification } from "../store/verifications.js";

/**
 * "Trust this device": a verification value naming the user, until trustDeviceDays have passed.
 * The browser holds the token in a signed cookie; only its SHA-256 is stored.
 */
export const TRUST_DEVICE_PREFIX = "trust-device:";
const trustIdentifier = (token: string) => `${TRUST_DEVICE_PREFIX}${sha256Base64Url(token)}`;

/** Trusts the browser for the user after a second factor; answers the token for its cookie. */
export async function trustDevice(ctx: AuthContext, userId: string): Promise<string> {
  const token = randomString(32);
  const now = ctx.now();
  await insertVerification(ctx.db, {
    id: newId(),
    identifier: trustIdentifier(token),
    value: userId,
    expiresAt: new Date(now.getTime() + ctx.options.twoFactor.trustDeviceDays * 86400_000),
    now,
  });
  return token;
}

export async function isTrustedDevice(db: DB, token: string, userId: string, now: Date): Promise<boolean> {
  const found = await findVerification(db, trustIdentifier(token));
  return found?.value === userId && found.expiresAt.getTime() > now.getTime();
}

/** Every device the user trusted stops being trusted (password reset or change, two-factor off). */
export function forgetTrustedDevices(db: DB, userId: string): Promise<void> {
  return deleteUserVerifications(db, userId, TRUST_DEVICE_PREFIX);
}

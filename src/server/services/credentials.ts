import { z } from "zod";
import type { AuthContext } from "../context.js";
import { isCommonPassword } from "../crypto/common-passwords.js";
import type { PasswordHasher } from "../crypto/password.js";
import { AuthError } from "../errors.js";

const emailFormat = z.email();

/** Lowercased email, or INVALID_EMAIL. */
export function normalizeEmail(email: string): string {
  const trimmed = email.trim().toLowerCase();
  if (trimmed.length > 254 || !emailFormat.safeParse(trimmed).success) throw new AuthError("INVALID_EMAIL");
  return trimmed;
}

/**
 * A password someone is about to set (sign-up, reset, change, an admin's set-password or
 * create-user): PASSWORD_TOO_SHORT / PASSWORD_TOO_LONG against the configured bounds (UTF-16 code
 * units), PASSWORD_TOO_COMMON for one of the most common passwords.
 */
export function assertNewPasswordAcceptable(ctx: AuthContext, password: string): void {
  const { minPasswordLength, maxPasswordLength } = ctx.options.emailAndPassword;
  if (password.length < minPasswordLength) throw new AuthError("PASSWORD_TOO_SHORT");
  if (password.length > maxPasswordLength) throw new AuthError("PASSWORD_TOO_LONG");
  if (isCommonPassword(password)) throw new AuthError("PASSWORD_TOO_COMMON");
}

const dummyHashes = new WeakMap<PasswordHasher, Promise<string>>();

/**
 * Verifies a password against a stored hash, or against a throwaway hash when there is none or the
 * hasher refuses it unseen (malformed, costs above the bounds), so an unknown email or a refused
 * hash costs the same work as a wrong password and timing does not tell them apart.
 */
export async function verifyPasswordOrDummy(
  hasher: PasswordHasher,
  stored: string | null,
  password: string,
): Promise<boolean> {
  if (stored && (hasher.canVerify?.(stored) ?? true)) return hasher.verify(stored, password);
  let dummy = dummyHashes.get(hasher);
  if (!dummy) {
    dummy = hasher.hash("gatehouse-dummy-password");
    dummyHashes.set(hasher, dummy);
  }
  await hasher.verify(await dummy, password);
  return false;
}

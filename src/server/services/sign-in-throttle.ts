import type { User } from "../../contract/models.js";
import type { AuthContext } from "../context.js";
import { AuthError } from "../errors.js";
import { findCredentialPassword } from "../store/accounts.js";
import { claimAttempt, clearAttempts, findAttempts } from "../store/attempt-counters.js";

/** Failures allowed before the backoff starts. */
export const FREE_FAILURES = 4;
/** The longest wait between attempts once locked. */
export const MAX_LOCK_SECONDS = 15 * 60;
/** Failures are forgotten after a day without one (the longest lock is 15 minutes). */
const FORGET_AFTER_MS = 86_400_000;

/** After the 5th failure 1 s, then 2 s, 4 s, ... up to 15 minutes. */
export function lockSeconds(failures: number): number {
  if (failures <= FREE_FAILURES) return 0;
  return Math.min(MAX_LOCK_SECONDS, 2 ** Math.min(failures - FREE_FAILURES - 1, 20));
}

const passwordKey = (email: string) => `sign-in:${email}`;
/** Second factors have their own count: a right password must not wipe what wrong codes built. */
const secondFactorKey = (userId: string) => `second-factor:${userId}`;

/** Forgets the failures for an address (after a password reset proved the mailbox). */
export async function clearSignInFailures(ctx: AuthContext, email: string): Promise<void> {
  await clearAttempts(ctx.db, passwordKey(email));
}

/**
 * Per-account brute-force brake on passwords, whatever address the guesses come from. Keyed by the
 * normalized email whether or not an account has it, so the answers reveal nothing.
 *
 * Answers a function to call with the result of the password check.
 */
export function beginSignInAttempt(ctx: AuthContext, email: string) {
  return beginBrakedAttempt(ctx, passwordKey(email));
}

/**
 * A signed-in user's password (a re-proof, change-password, delete-user) under the sign-in brake: a
 * stolen session must not become a way to guess the password faster than sign-in allows.
 */
export async function checkPasswordUnderBrake(
  ctx: AuthContext,
  email: string,
  check: () => Promise<boolean>,
): Promise<boolean> {
  const finish = await beginSignInAttempt(ctx, email);
  const valid = await check();
  await finish(valid);
  return valid;
}

/**
 * A signed-in user's own password, checked under the sign-in brake (a stolen session must not guess
 * faster than sign-in may): CREDENTIAL_ACCOUNT_NOT_FOUND without one, INVALID_PASSWORD when wrong.
 */
export async function assertCurrentPassword(ctx: AuthContext, user: User, password: string): Promise<void> {
  const stored = await findCredentialPassword(ctx.db, user.id);
  if (!stored) throw new AuthError("CREDENTIAL_ACCOUNT_NOT_FOUND");
  const valid = await checkPasswordUnderBrake(ctx, user.email, () => ctx.hasher.verify(stored, password));
  if (!valid) throw new AuthError("INVALID_PASSWORD");
}

/** The same brake on a user's second-factor codes (TOTP, mailed OTP, backup codes) at sign-in. */
export function beginSecondFactorAttempt(ctx: AuthContext, userId: string) {
  return beginBrakedAttempt(ctx, secondFactorKey(userId));
}

/**
 * Every attempt is counted before its secret is checked (a claim; parallel guesses each need one),
 * and a success forgets the count. While locked every attempt is refused with 429, a right one
 * included; so is an attempt that lost the race for the next turn past the free ones.
 */
async function beginBrakedAttempt(ctx: AuthContext, key: string): Promise<(succeeded: boolean) => Promise<void>> {
  const now = ctx.now();
  const state = await findAttempts(ctx.db, key, now);
  if (state?.blockedUntil && state.blockedUntil.getTime() > now.getTime()) throw locked(state.blockedUntil, now);
  const seen = state?.attempts ?? 0;
  const claimed = await claimAttempt(ctx.db, key, now, {
    limit: FREE_FAILURES,
    expiresAt: new Date(now.getTime() + FORGET_AFTER_MS),
    renew: true,
    backoff: { seen, blockedUntil: new Date(now.getTime() + lockSeconds(seen + 1) * 1000) },
  });
  if (claimed === null) throw locked(new Date(now.getTime() + 1000), now);
  return async (succeeded) => {
    if (succeeded) await clearAttempts(ctx.db, key);
  };
}

function locked(until: Date, now: Date): AuthError {
  return new AuthError("TOO_MANY_REQUESTS", {
    message: "Too many failed sign-in attempts. Try again later.",
    retryAfterSeconds: Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000)),
  });
}

import type { AuthContext } from "../context.js";
import { AuthError } from "../errors.js";
import { addFailure, claimAttempt, clearThrottle, findThrottle, lockUntil } from "../store/sign-in-throttle.js";

/** Failures allowed before the backoff starts. */
export const FREE_FAILURES = 4;
/** The longest wait between attempts once locked. */
export const MAX_LOCK_SECONDS = 15 * 60;

/** After the 5th failure 1 s, then 2 s, 4 s, ... up to 15 minutes. */
export function lockSeconds(failures: number): number {
  if (failures <= FREE_FAILURES) return 0;
  return Math.min(MAX_LOCK_SECONDS, 2 ** Math.min(failures - FREE_FAILURES - 1, 20));
}

const throttleKey = (email: string) => `email:${email}`;

/** Forgets the failures for an address (after a password reset proved the mailbox). */
export async function clearSignInFailures(ctx: AuthContext, email: string): Promise<void> {
  await clearThrottle(ctx.db, throttleKey(email));
}

/**
 * Per-account brute-force brake, whatever address the guesses come from. Keyed by the normalized
 * email whether or not an account has it, so the answers reveal nothing. While locked every attempt
 * is refused with 429, a correct password included. Near the threshold an attempt must claim its
 * turn (compare and swap), so parallel guesses cannot slip through the same opening.
 *
 * Answers a function to call with the result of the password check.
 */
export async function beginSignInAttempt(
  ctx: AuthContext,
  email: string,
): Promise<(succeeded: boolean) => Promise<void>> {
  const key = throttleKey(email);
  const now = ctx.now();
  const state = await findThrottle(ctx.db, key);
  if (state?.lockedUntil && state.lockedUntil.getTime() > now.getTime()) throw locked(state.lockedUntil, now);

  let counted = false;
  if (state && state.failures >= FREE_FAILURES) {
    // This attempt may be the one that locks: count it before checking the password.
    const until = new Date(now.getTime() + lockSeconds(state.failures + 1) * 1000);
    if (!(await claimAttempt(ctx.db, key, state.failures, until, now)))
      throw locked(new Date(now.getTime() + 1000), now);
    counted = true;
  }
  return async (succeeded) => {
    if (succeeded) {
      if (state) await clearThrottle(ctx.db, key);
      return;
    }
    if (counted) return;
    const failures = await addFailure(ctx.db, key, now);
    const seconds = lockSeconds(failures);
    if (seconds > 0) await lockUntil(ctx.db, key, new Date(now.getTime() + seconds * 1000));
  };
}

function locked(until: Date, now: Date): AuthError {
  return new AuthError("TOO_MANY_REQUESTS", {
    message: "Too many failed sign-in attempts. Try again later.",
    retryAfterSeconds: Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000)),
  });
}

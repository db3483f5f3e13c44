import { setTimeout as sleep } from "node:timers/promises";

/**
 * Answers that must not reveal whether an email is known (password reset, verification resend) take
 * at least this long, whichever path ran; the real work takes a few milliseconds either way.
 */
export const ENUMERATION_SAFE_ANSWER_MS = 500;

/** Runs `work` and settles no sooner than `minimumMs` after the start, on success and on failure. */
export async function atLeast<T>(minimumMs: number, work: () => Promise<T>): Promise<T> {
  const startedAt = performance.now();
  try {
    return await work();
  } finally {
    const remainingMs = minimumMs - (performance.now() - startedAt);
    if (remainingMs > 0) await sleep(remainingMs);
  }
}

/** Delay before retry `attempt` (0-based): base, 2·base, 4·base, ... */
export function backoffDelayMs(attempt: number, baseDelayMs: number): number {
  return baseDelayMs * 2 ** attempt;
}

export interface RetryOptions {
  maxAttempts: number;
  baseDelayMs: number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `attempt` until it resolves or `maxAttempts` have failed, waiting longer after each failure. */
export async function retryWithBackoff<T>(attempt: (n: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const sleep = options.sleep ?? defaultSleep;
  let lastError: unknown;
  for (let n = 0; n < options.maxAttempts; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      lastError = error;
      if (n < options.maxAttempts - 1) await sleep(backoffDelayMs(n, options.baseDelayMs));
    }
  }
  throw lastError;
}

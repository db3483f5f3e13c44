export interface RateLimitDecision {
  allowed: boolean;
  /** Seconds until the window that refused the request ends. */
  retryAfterSeconds: number;
}

/** Counter storage behind the rate limiter: memory here, Redis for several instances. */
export interface RateLimitStore {
  hit(key: string, windowSeconds: number, max: number, nowMs: number): Promise<RateLimitDecision>;
}

/** Fixed windows per key, in process memory; expired windows are swept as the map grows. */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #windows = new Map<string, { count: number; resetAtMs: number }>();
  #nextSweepMs = 0;

  async hit(key: string, windowSeconds: number, max: number, nowMs: number): Promise<RateLimitDecision> {
    this.#sweep(nowMs);
    let window = this.#windows.get(key);
    if (!window || window.resetAtMs <= nowMs) {
      window = { count: 0, resetAtMs: nowMs + windowSeconds * 1000 };
      this.#windows.set(key, window);
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((window.resetAtMs - nowMs) / 1000));
    if (window.count >= max) return { allowed: false, retryAfterSeconds };
    window.count += 1;
    return { allowed: true, retryAfterSeconds };
  }

  /** Windows held now (tests: random paths must not add any). */
  get size(): number {
    return this.#windows.size;
  }

  #sweep(nowMs: number): void {
    if (nowMs < this.#nextSweepMs) return;
    this.#nextSweepMs = nowMs + 60_000;
    for (const [key, window] of this.#windows) if (window.resetAtMs <= nowMs) this.#windows.delete(key);
  }
}

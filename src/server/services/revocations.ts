import type { Logger } from "../logger.js";
import type { RevocationFeed } from "../store/revocation-feed.js";

export type { RevocationFeed };

export interface RevocationListOptions {
  /** How long a cookie cache lives (session.cookieCache.maxAge, seconds): how long a revocation is kept. */
  cacheMaxAgeSeconds: number;
  now(): number;
  logger: Logger;
  /** Other instances; without one, revocations stay in this process (one SQLite instance). */
  feed?: RevocationFeed;
  /**
   * Instances' clocks may differ by this much (ms): a copy stamped within it after a revocation (or
   * after this instance began listening) is refused too. Default 1000 with a feed, 0 without one
   * (one process, one clock).
   */
  clockSkewMs?: number;
  /** At most this many users are remembered; past it every older cache is refused at once. */
  maxEntries?: number;
}

const DEFAULT_FEED_CLOCK_SKEW_MS = 1000;
const DEFAULT_MAX_ENTRIES = 100_000;

/**
 * Which cookie-cache copies may still be trusted. A copy read from the database before a revocation
 * for its user, before this instance last began listening, or while the feed is down is refused
 * (fail closed: get-session reads the database). A revocation is kept for the cache's maxAge plus
 * skew, after which older copies have expired anyway: the map is bounded by the revocation rate.
 */
export class RevocationList {
  readonly #revokedBefore = new Map<string, number>();
  readonly #options: Required<Omit<RevocationListOptions, "feed">> & { feed?: RevocationFeed };
  /** Copies read before this instant are refused (start, reconnect, overflow). */
  #trustFrom: number;
  #connected: boolean;
  #waiters: (() => void)[] = [];

  constructor(options: RevocationListOptions) {
    this.#options = {
      clockSkewMs: options.feed ? DEFAULT_FEED_CLOCK_SKEW_MS : 0,
      maxEntries: DEFAULT_MAX_ENTRIES,
      ...options,
    };
    // A copy read before this process started may have been revoked while nobody here listened.
    this.#trustFrom = options.now() + this.#options.clockSkewMs;
    this.#connected = !options.feed;
    options.feed?.start({
      revoked: (userId) => this.#remember(userId),
      connected: (isConnected) => {
        if (isConnected && !this.#connected) this.#trustFrom = this.#options.now() + this.#options.clockSkewMs;
        this.#connected = isConnected;
        if (isConnected) for (const resolve of this.#waiters.splice(0)) resolve();
      },
    });
  }

  /** Whether revocations from other instances are reaching this one (readiness). */
  get connected(): boolean {
    return this.#connected;
  }

  /** Copies read before this instant are refused whatever else holds. */
  get trustsFromMs(): number {
    return this.#trustFrom;
  }

  /** Resolves once the feed is listening (at once without a feed). */
  ready(): Promise<void> {
    if (this.#connected) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Whether a cached copy of `userId`'s session, read from the database at `readAtMs`, may answer. */
  trusts(userId: string, readAtMs: number): boolean {
    if (!this.#connected || readAtMs < this.#trustFrom) return false;
    const before = this.#revokedBefore.get(userId);
    return before === undefined || readAtMs >= before;
  }

  /**
   * Records that `userId`'s sessions (some or all) were just ended in the database, here and on every
   * instance. Call it after the change has committed: a copy read between publish and commit would
   * otherwise carry a later stamp and be trusted.
   */
  async revokeUser(userId: string): Promise<void> {
    this.#remember(userId);
    const { feed, logger } = this.#options;
    if (!feed) return;
    try {
      await feed.publish(userId);
    } catch (error) {
      // The database change stands; other instances' copies expire within maxAge. Said loudly.
      logger.error("session revocation not published to other instances", { userId, error: String(error) });
    }
  }

  async close(): Promise<void> {
    await this.#options.feed?.close();
  }

  /** Entries remembered now (for tests). */
  get size(): number {
    return this.#revokedBefore.size;
  }

  #remember(userId: string): void {
    const now = this.#options.now();
    this.#prune(now);
    if (this.#revokedBefore.size >= this.#options.maxEntries) {
      // Bounded memory: forget every entry and refuse every copy read until now instead.
      this.#revokedBefore.clear();
      this.#trustFrom = now + this.#options.clockSkewMs;
      return;
    }
    // Re-inserting moves the user to the end, keeping the map in order of expiry for #prune.
    this.#revokedBefore.delete(userId);
    this.#revokedBefore.set(userId, now + this.#options.clockSkewMs);
  }

  /** Drops revocations older than every copy that could still be alive (insertion order = time order). */
  #prune(now: number): void {
    const keepMs = this.#options.cacheMaxAgeSeconds * 1000 + this.#options.clockSkewMs;
    for (const [userId, before] of this.#revokedBefore) {
      if (before + keepMs > now) break;
      this.#revokedBefore.delete(userId);
    }
  }
}

import type { RateLimitDecision, RateLimitStore } from "./rate-limit-store.js";
import type { RedisClient } from "./redis-client.js";

/** One atomic step per hit: count, start the window on the first hit, report the time left. */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;

/**
 * Fixed windows in Redis, shared by every instance behind a load balancer. Windows follow Redis's
 * clock (key expiry), so instances need not agree on time.
 */
export class RedisRateLimitStore implements RateLimitStore {
  readonly #redis: RedisClient;
  readonly #prefix: string;

  constructor(redis: RedisClient, options: { keyPrefix?: string } = {}) {
    this.#redis = redis;
    this.#prefix = options.keyPrefix ?? "gatehouse:rate:";
  }

  async hit(key: string, windowSeconds: number, max: number): Promise<RateLimitDecision> {
    const [count, ttlMs] = (await this.#redis.eval(HIT_SCRIPT, 1, `${this.#prefix}${key}`, windowSeconds * 1000)) as [
      number,
      number,
    ];
    return { allowed: count <= max, retryAfterSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) };
  }
}

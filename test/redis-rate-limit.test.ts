import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomString } from "../src/server/crypto/random.js";
import { RedisRateLimitStore } from "../src/server/store/redis-rate-limit-store.js";
import { redisUnavailable, TEST_REDIS_URL } from "./helpers/redis.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

const noRedis = await redisUnavailable();
if (noRedis) console.warn(`redis-rate-limit tests skipped: ${noRedis}`);

describe.skipIf(noRedis)("rate limits in Redis, shared by two instances", () => {
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  const keyPrefix = `gatehouse-test:${randomString(8)}:`;
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    await redis.connect();
    const options = {
      rateLimit: { enabled: true, window: 60, max: 4 },
      advanced: { ipAddress: { ipAddressHeaders: ["x-forwarded-for"] } },
    };
    first = await startTestServer({
      options,
      extra: { rateLimitStore: new RedisRateLimitStore(redis, { keyPrefix }) },
    });
    second = await startTestServer({
      options,
      extra: { rateLimitStore: new RedisRateLimitStore(redis, { keyPrefix }) },
    });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it("counts requests to either instance against one limit", async () => {
    const headers = { "x-forwarded-for": "192.0.2.7" };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const server = i % 2 === 0 ? first : second;
      statuses.push((await server.browser().get("/ok", { headers })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const refused = await first.browser().get("/ok", { headers });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect((await second.browser().get("/ok", { headers: { "x-forwarded-for": "192.0.2.8" } })).status).toBe(200);
  });

  it("starts a new window when the old one expires", async () => {
    const store = new RedisRateLimitStore(redis, { keyPrefix });
    const key = `expiry-${randomString(6)}`;
    expect((await store.hit(key, 60, 1)).allowed).toBe(true);
    expect((await store.hit(key, 60, 1)).allowed).toBe(false);
    await redis.pexpire(`${keyPrefix}${key}`, 1); // end the window now instead of waiting for it
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await store.hit(key, 60, 1)).allowed).toBe(true);
  });
});

import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisRevocationFeed } from "../src/server/store/revocation-feeds.js";
import type { TestBrowser } from "./helpers/browser.js";
import { dialectUnderTest } from "./helpers/database.js";
import { redisUnavailable, TEST_REDIS_URL } from "./helpers/redis.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

// Two instances of the service in this process, on one PostgreSQL database, each with its own
// cookie cache trust: a revocation on one must reach the other's cache within a second. Separate
// processes behind one Redis are tested in multi-instance.test.ts.

const cacheOptions = { session: { cookieCache: { enabled: true, maxAge: 300 } } };

/** Polls get-session on `browser` until it answers null; fails after `withinMs`. */
async function refusedWithin(browser: TestBrowser, withinMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    if ((await browser.get("/get-session")).body === null) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the copy was still answered after ${withinMs} ms`);
}

const noRedis = await redisUnavailable();
if (noRedis && dialectUnderTest() === "postgres") console.warn(`revocations through Redis skipped: ${noRedis}`);

const allFeeds: [string, () => Record<string, unknown>][] = [
  ["PostgreSQL LISTEN/NOTIFY", () => ({})],
  [
    "Redis pub/sub",
    () => {
      const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
      return { revocationFeed: redisRevocationFeed(redis, console), redis };
    },
  ],
];
const feeds = allFeeds.filter(([name]) => !(noRedis && name.startsWith("Redis")));

describe.skipIf(dialectUnderTest() !== "postgres").each(feeds)("revocations through %s", (_name, makeFeed) => {
  let a: TestServer;
  let b: TestServer;
  const redisClients: Redis[] = [];

  function extra() {
    const { redis, ...rest } = makeFeed();
    if (redis) redisClients.push(redis as Redis);
    return rest;
  }

  beforeAll(async () => {
    a = await startTestServer({ options: cacheOptions, extra: extra() });
    b = await startTestServer({ options: cacheOptions, extra: extra(), shareDatabaseWith: a });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    for (const redis of redisClients) redis.disconnect();
  });

  it("a cache minted on A answers on B without the database, until A revokes it", async () => {
    const victim = await signUp(a);
    const onB = victim.browser.copyTo(b.origin);
    const before = b.queryCount();
    expect((await onB.get("/get-session")).body.user.id).toBe(victim.user.id);
    expect(b.queryCount()).toBe(before);

    expect((await victim.browser.post("/revoke-sessions", {})).status).toBe(200);
    expect(await refusedWithin(onB, 1000)).toBeLessThan(1000);
  });

  it("sign-out on B reaches A's copy", async () => {
    const victim = await signUp(b);
    const onA = victim.browser.copyTo(a.origin);
    expect((await onA.get("/get-session")).body.user.id).toBe(victim.user.id);
    await victim.browser.post("/sign-out", {});
    expect(await refusedWithin(onA, 1000)).toBeLessThan(1000);
  });

  it("both instances report the feed connected", () => {
    expect(a.auth.context.revocations.connected).toBe(true);
    expect(b.auth.context.revocations.connected).toBe(true);
  });
});

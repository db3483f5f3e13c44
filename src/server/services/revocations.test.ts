import { describe, expect, it } from "vitest";
import type { RevocationFeed } from "./revocations.js";
import { RevocationList } from "./revocations.js";

const quiet = { info() {}, warn() {}, error() {} };

/** A feed the test drives by hand: what another instance would send, and the connection's state. */
function manualFeed() {
  let handlers!: Parameters<RevocationFeed["start"]>[0];
  const published: string[] = [];
  const feed: RevocationFeed = {
    publish: async (userId) => {
      published.push(userId);
    },
    start: (h) => {
      handlers = h;
    },
    close: async () => {},
  };
  return { feed, published, send: (id: string) => handlers.revoked(id), set: (up: boolean) => handlers.connected(up) };
}

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("RevocationList", () => {
  it("without a feed: trusts copies read after start, refuses a revoked user's older copies only", async () => {
    const time = clock();
    const list = new RevocationList({ cacheMaxAgeSeconds: 300, now: time.now, logger: quiet });
    expect(list.trusts("u1", time.now() - 1)).toBe(false); // read before this process started
    time.advance(10);
    const readAt = time.now();
    time.advance(10);
    expect(list.trusts("u1", readAt)).toBe(true);
    await list.revokeUser("u1");
    expect(list.trusts("u1", readAt)).toBe(false);
    expect(list.trusts("u2", readAt)).toBe(true);
    time.advance(1);
    expect(list.trusts("u1", time.now())).toBe(true); // a copy read after the revocation
  });

  it("with a feed: fails closed until connected and while down, and refuses what it may have missed", async () => {
    const time = clock();
    const manual = manualFeed();
    const list = new RevocationList({ cacheMaxAgeSeconds: 300, now: time.now, logger: quiet, feed: manual.feed });
    time.advance(5000);
    expect(list.trusts("u1", time.now())).toBe(false);
    manual.set(true);
    const connectedAt = time.now();
    time.advance(2000);
    expect(list.trusts("u1", connectedAt - 1)).toBe(false);
    expect(list.trusts("u1", time.now())).toBe(true);
    manual.set(false);
    expect(list.trusts("u1", time.now())).toBe(false);
    time.advance(100);
    const beforeReconnect = time.now();
    manual.set(true);
    time.advance(2000);
    expect(list.trusts("u1", beforeReconnect)).toBe(false);
    expect(list.trusts("u1", time.now())).toBe(true);
  });

  it("applies other instances' revocations with the clock-skew allowance, and publishes its own", async () => {
    const time = clock();
    const manual = manualFeed();
    const list = new RevocationList({ cacheMaxAgeSeconds: 300, now: time.now, logger: quiet, feed: manual.feed });
    manual.set(true);
    time.advance(5000);
    const readAt = time.now();
    manual.send("u1");
    // Another instance's clock may be up to a second ahead: a copy stamped within it is refused too.
    expect(list.trusts("u1", readAt + 999)).toBe(false);
    expect(list.trusts("u1", readAt + 1000)).toBe(true);
    await list.revokeUser("u2");
    expect(manual.published).toEqual(["u2"]);
    expect(list.trusts("u2", readAt)).toBe(false);
  });

  it("forgets revocations once every copy they could refuse has expired", async () => {
    const time = clock();
    const list = new RevocationList({ cacheMaxAgeSeconds: 10, now: time.now, logger: quiet });
    await list.revokeUser("u1");
    time.advance(5000);
    await list.revokeUser("u2");
    expect(list.size).toBe(2);
    time.advance(5001);
    await list.revokeUser("u3");
    expect(list.size).toBe(2);
  });

  it("stays bounded: past maxEntries it refuses every older copy instead of remembering more", async () => {
    const time = clock();
    const list = new RevocationList({ cacheMaxAgeSeconds: 300, now: time.now, logger: quiet, maxEntries: 3 });
    time.advance(10);
    const readAt = time.now();
    time.advance(10);
    for (const id of ["a", "b", "c"]) await list.revokeUser(id);
    expect(list.size).toBe(3);
    await list.revokeUser("d");
    expect(list.size).toBe(0);
    expect(list.trusts("z", readAt)).toBe(false);
    time.advance(1);
    expect(list.trusts("z", time.now())).toBe(true);
  });

  it("keeps the revocation local when publishing fails, and says so", async () => {
    const errors: string[] = [];
    const feed: RevocationFeed = {
      publish: () => Promise.reject(new Error("redis down")),
      start: (h) => h.connected(true),
      close: async () => {},
    };
    const time = clock();
    const list = new RevocationList({
      cacheMaxAgeSeconds: 300,
      now: time.now,
      logger: { ...quiet, error: (message) => errors.push(message) },
      feed,
    });
    time.advance(5000);
    const readAt = time.now();
    await list.revokeUser("u1");
    expect(list.trusts("u1", readAt)).toBe(false);
    expect(errors).toHaveLength(1);
  });
});

import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialectUnderTest, freshDatabaseUrl } from "./helpers/database.js";
import { type Instance, startInstances } from "./helpers/instances.js";
import { redisUnavailable, TEST_REDIS_URL } from "./helpers/redis.js";

/**
 * Issue 53 across three real service processes on one PostgreSQL and one Redis, the cookie cache on
 * (each instance answers a known key from memory): a key's first use from an address is one audit
 * entry however many instances see it at once, and a key revoked on one stops on all.
 */
const noRedis = await redisUnavailable();

describe.skipIf(dialectUnderTest() !== "postgres" || noRedis)("API keys on three instances", () => {
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let cluster: Awaited<ReturnType<typeof startInstances>>;
  let instances: Instance[];
  let db: pg.Client;

  beforeAll(async () => {
    database = await freshDatabaseUrl();
    cluster = await startInstances({
      count: 3,
      databaseUrl: database.url,
      redisUrl: TEST_REDIS_URL,
      options: {
        organization: { enabled: true },
        apiKey: { enabled: true },
        audit: { enabled: true },
        session: { cookieCache: { enabled: true, maxAge: 300 } },
        advanced: { ipAddress: { ipAddressHeaders: ["x-forwarded-for"] } },
      },
    });
    instances = cluster.instances;
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
  }, 60_000);
  afterAll(async () => {
    await db?.end();
    await cluster?.close();
    await database?.drop();
  });

  it("audits a key's first use from an address once across instances, and stops it everywhere on revocation", async () => {
    const [a, b, c] = instances as [Instance, Instance, Instance];
    const owner = a.browser();
    const email = `keys-${Math.random().toString(36).slice(2, 10)}@example.com`;
    const signedUp = await owner.post("/sign-up/email", { name: "Owner", email, password: "correct horse battery" });
    expect(signedUp.status).toBe(200);
    await db.query('update "user" set "emailVerified" = true where id = $1', [signedUp.body.user.id]);
    const org = await owner.post("/organization/create", { name: "Keys", slug: `keys-${Date.now()}` });
    expect(org.status).toBe(200);
    const made = await owner.post("/api-key/create", {
      organizationId: org.body.id,
      permissions: { member: ["update"] },
    });
    expect(made.status).toBe(200);
    const ask = (instance: Instance, address: string) =>
      instance.browser().request("/organization/has-permission", {
        body: { permissions: { member: ["update"] } },
        headers: { "x-api-key": made.body.key, "x-forwarded-for": address },
      });

    // Each instance holds the key in memory first (a use from one address, audited once).
    for (const instance of [a, b, c]) expect((await ask(instance, "192.0.2.10")).status).toBe(200);
    // Then a new address at once on all three.
    const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => ask(instances[i % 3]!, "192.0.2.11")));
    expect(burst.map((r) => r.status)).toEqual(burst.map(() => 200));
    const { rows } = await db.query(
      `select "actorType", "actorId", details from "auditTrail" where action = 'api_key.used_from_new_address' and "organizationId" = $1 order by seq`,
      [org.body.id],
    );
    expect(rows.map((r) => [r.actorType, r.actorId])).toEqual([
      ["key", made.body.id],
      ["key", made.body.id],
    ]);
    const addresses = rows.map((r) => (typeof r.details === "string" ? JSON.parse(r.details) : r.details).ipAddress);
    expect(addresses).toEqual(["192.0.2.10", "192.0.2.11"]);

    // Revoked through B: A and C, which hold it in memory, refuse it within moments.
    const deleted = await b.browser().request("/api-key/delete", {
      body: { keyId: made.body.id },
      headers: { cookie: cookieOf(signedUp) },
    });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    for (const instance of [a, c]) {
      const started = Date.now();
      for (;;) {
        const res = await ask(instance, "192.0.2.10");
        if (res.status === 401) {
          expect(res.body.code).toBe("INVALID_API_KEY");
          break;
        }
        expect(res.status).toBe(200);
        if (Date.now() - started > 1000) throw new Error(`${instance.name} still accepts the key after 1 s`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  });
});

/** The session cookie a sign-up set, to send from another instance's browser. */
function cookieOf(res: { setCookies: string[] }): string {
  return res.setCookies.map((cookie) => cookie.split(";")[0]).join("; ");
}

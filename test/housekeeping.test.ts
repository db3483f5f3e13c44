import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepExpired } from "../src/server/services/housekeeping.js";
import type { DB } from "../src/server/store/database.js";
import { deleteDoneRows, HOUSEKEEPING_LOCK_KEY } from "../src/server/store/housekeeping.js";
import { dialectUnderTest, freshDatabaseUrl } from "./helpers/database.js";
import { type Instance, startInstances } from "./helpers/instances.js";
import { redisUnavailable, TEST_REDIS_URL } from "./helpers/redis.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

const BATCH = 10;

describe("housekeeping", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ options: { housekeeping: { batchSize: BATCH } } });
  });
  afterAll(() => server.close());

  /**
   * Each kind of prunable row: how to write an expired (or long finished) one and a live one, the
   * statement that prunes it, and how many of the test's rows are left.
   */
  function kinds(db: DB, userId: string, now: Date) {
    const dialect = server.auth.context.dialect;
    const past = (ms: number) => new Date(now.getTime() - ms);
    const future = new Date(now.getTime() + 60_000);
    const week = 8 * 86400 * 1000;
    const month = 31 * 86400 * 1000;
    const year = 365 * 86400 * 1000;
    const tag = Math.random().toString(36).slice(2, 8);
    const id = (i: number, live: boolean) => `${tag}-${live ? "live" : "old"}-${i}`;
    return [
      {
        name: "sessions",
        insert: (i: number, live: boolean) =>
          db
            .insertInto("session")
            .values({
              id: id(i, live),
              tokenHash: id(i, live),
              userId,
              expiresAt: live ? future : past(1000),
              createdAt: now,
              updatedAt: now,
            })
            .execute(),
        prune: (limit: number) => deleteDoneRows(db, dialect, "sessions", now, limit),
        left: () => db.selectFrom("session").select("id").where("id", "like", `${tag}-%`).execute(),
      },
      {
        name: "verifications",
        insert: (i: number, live: boolean) =>
          db
            .insertInto("verification")
            .values({
              id: id(i, live),
              identifier: `x:${id(i, live)}`,
              value: "v",
              expiresAt: live ? future : past(1000),
              createdAt: now,
              updatedAt: now,
            })
            .execute(),
        prune: (limit: number) => deleteDoneRows(db, dialect, "verifications", now, limit),
        left: () => db.selectFrom("verification").select("id").where("id", "like", `${tag}-%`).execute(),
      },
      {
        name: "attempt counters",
        insert: (i: number, live: boolean) =>
          db
            .insertInto("attemptCounter")
            .values({ key: id(i, live), attempts: 1, blockedUntil: null, expiresAt: live ? future : past(1000) })
            .execute(),
        prune: (limit: number) => deleteDoneRows(db, dialect, "attempts", now, limit),
        left: () => db.selectFrom("attemptCounter").select("key").where("key", "like", `${tag}-%`).execute(),
      },
      {
        name: "two-factor challenges",
        insert: (i: number, live: boolean) =>
          db
            .insertInto("twoFactorChallenge")
            .values({
              tokenHash: id(i, live),
              userId,
              rememberMe: false,
              otpHash: null,
              otpExpiresAt: null,
              expiresAt: live ? future : past(1000),
              createdAt: now,
            })
            .execute(),
        prune: (limit: number) => deleteDoneRows(db, dialect, "twoFactorChallenges", now, limit),
        left: () =>
          db.selectFrom("twoFactorChallenge").select("tokenHash").where("tokenHash", "like", `${tag}-%`).execute(),
      },
      {
        name: "sent mail",
        insert: (i: number, live: boolean) =>
          db
            .insertInto("outbox")
            .values({
              id: id(i, live),
              to: "someone@example.com",
              subject: "s",
              text: "t",
              html: "h",
              kind: "test",
              nextAttemptAt: past(week),
              // A live row: sent yesterday (kept for a week), or not sent yet.
              sentAt: live ? (i % 2 ? past(86400 * 1000) : null) : past(week),
              createdAt: past(week),
            })
            .execute(),
        prune: (limit: number) => deleteDoneRows(db, dialect, "sentMail", past(7 * 86400 * 1000), limit),
        left: () => db.selectFrom("outbox").select("id").where("id", "like", `${tag}-%`).execute(),
      },
      {
        name: "delivered webhooks",
        insert: (i: number, live: boolean) =>
          db
            .insertInto("webhookDelivery")
            .values({
              id: `d-${id(i, live)}`,
              url: "http://127.0.0.1:1/hook",
              eventType: "user.created",
              payload: "{}",
              nextAttemptAt: past(week),
              deliveredAt: live ? (i % 2 ? past(86400 * 1000) : null) : past(week),
              createdAt: past(week),
            })
            .execute(),
        prune: (limit: number) => deleteDoneRows(db, dialect, "deliveredWebhooks", past(7 * 86400 * 1000), limit),
        left: () => db.selectFrom("webhookDelivery").select("id").where("id", "like", `d-${tag}-%`).execute(),
      },
      {
        name: "given-up webhooks",
        insert: (i: number, live: boolean) =>
          db
            .insertInto("webhookDelivery")
            .values({
              id: `f-${id(i, live)}`,
              url: "http://127.0.0.1:1/hook",
              eventType: "user.created",
              payload: "{}",
              nextAttemptAt: past(month),
              failedAt: live ? past(week) : past(month),
              createdAt: past(month),
            })
            .execute(),
        prune: (limit: number) => deleteDoneRows(db, dialect, "failedWebhooks", past(30 * 86400 * 1000), limit),
        left: () => db.selectFrom("webhookDelivery").select("id").where("id", "like", `f-${tag}-%`).execute(),
      },
      {
        name: "known devices",
        insert: (i: number, live: boolean) =>
          db
            .insertInto("knownDevice")
            .values({
              id: id(i, live),
              userId,
              deviceHash: id(i, live),
              userAgent: null,
              ipAddress: null,
              createdAt: past(2 * year),
              // A live row: seen a day short of the device cookie's 400 days.
              lastSeenAt: live ? past(399 * 86400 * 1000) : past(401 * 86400 * 1000),
            })
            .execute(),
        prune: (limit: number) => deleteDoneRows(db, dialect, "knownDevices", past(400 * 86400 * 1000), limit),
        left: () => db.selectFrom("knownDevice").select("id").where("id", "like", `${tag}-%`).execute(),
      },
      {
        name: "expiredApiKeys",
        insert: async (i: number, live: boolean) => {
          await db
            .insertInto("apiKey")
            .values({
              id: id(i, live),
              keyHash: id(i, live),
              previousKeyHash: null,
              previousKeyExpiresAt: null,
              name: null,
              start: null,
              prefix: null,
              organizationId: null,
              userId,
              createdBy: userId,
              enabled: true,
              rateLimitEnabled: false,
              rateLimitTimeWindow: null,
              rateLimitMax: null,
              permissions: null,
              metadata: null,
              // A live row: expired 29 days ago, still listed for its owner.
              expiresAt: live ? past(29 * 86400 * 1000) : past(month),
              lastRequest: null,
              knownAddresses: null,
              createdAt: past(year),
              updatedAt: past(year),
            })
            .execute();
          // The addresses it was used from go with it (the table's foreign key cascades).
          await db
            .insertInto("apiKeyAddress")
            .values({ apiKeyId: id(i, live), address: "192.0.2.1", firstSeenAt: past(year) })
            .execute();
        },
        prune: (limit: number) => deleteDoneRows(db, dialect, "expiredApiKeys", past(30 * 86400 * 1000), limit),
        left: async () => {
          const keys = await db.selectFrom("apiKey").select("id").where("id", "like", `${tag}-%`).execute();
          const addresses = await db
            .selectFrom("apiKeyAddress")
            .select("apiKeyId")
            .where("apiKeyId", "like", `${tag}-%`)
            .execute();
          expect(addresses.length).toBe(keys.length);
          return keys;
        },
      },
      {
        name: "expiredSetupLinks",
        insert: async (i: number, live: boolean) => {
          const organizationId = `${tag}-org`;
          await db
            .insertInto("organization")
            .values({ id: organizationId, name: tag, slug: tag, createdAt: past(year) })
            .onConflict((oc) => oc.column("id").doNothing())
            .execute();
          await db
            .insertInto("setupLink")
            .values({
              id: id(i, live),
              organizationId,
              secretHash: id(i, live),
              scopes: "[]",
              label: null,
              createdBy: userId,
              createdAt: past(year),
              // A live row: ended 29 days ago, still listed for the owners.
              expiresAt: live ? past(29 * 86400 * 1000) : past(month),
              revokedAt: null,
              revokedBy: null,
              lastUsedAt: null,
            })
            .execute();
        },
        prune: (limit: number) => deleteDoneRows(db, dialect, "expiredSetupLinks", past(30 * 86400 * 1000), limit),
        left: () => db.selectFrom("setupLink").select("id").where("id", "like", `${tag}-%`).execute(),
      },
    ];
  }

  it("each pruning statement deletes at most its batch of expired rows, and never a live one", async () => {
    const owner = await signUp(server);
    const { db } = server.auth.database;
    for (const kind of kinds(db, owner.user.id, server.clock.now())) {
      for (let i = 0; i < 25; i++) await kind.insert(i, false);
      for (let i = 0; i < 2; i++) await kind.insert(i, true);
      const batches = [
        await kind.prune(BATCH),
        await kind.prune(BATCH),
        await kind.prune(BATCH),
        await kind.prune(BATCH),
      ];
      expect([kind.name, batches]).toEqual([kind.name, [10, 10, 5, 0]]);
      expect([kind.name, (await kind.left()).length]).toEqual([kind.name, 2]);
    }
  });

  it("an expired session takes its proof with it", async () => {
    const stale = await signUp(server);
    const { db } = server.auth.database;
    const [session] = await db.selectFrom("session").select("id").where("userId", "=", stale.user.id).execute();
    await db
      .insertInto("sessionProof")
      .values({ sessionId: session!.id, method: "password", provedAt: server.clock.now() })
      .onConflict((oc) => oc.column("sessionId").doNothing())
      .execute();
    await db
      .updateTable("session")
      .set({ expiresAt: new Date(server.clock.now().getTime() - 1000) })
      .where("userId", "=", stale.user.id)
      .execute();
    await sweepExpired(server.auth.context);
    expect(
      await db.selectFrom("sessionProof").select("sessionId").where("sessionId", "=", session!.id).execute(),
    ).toEqual([]);
  });

  it("a sweep drains every kind in batches, and keeps live sessions and one-time values", async () => {
    const live = await signUp(server);
    const owner = await signUp(server);
    const { db } = server.auth.database;
    expect(await sweepExpired(server.auth.context)).not.toBeNull();
    const seeded = kinds(db, owner.user.id, server.clock.now());
    for (const kind of seeded) {
      for (let i = 0; i < 23; i++) await kind.insert(i, false);
      await kind.insert(0, true);
    }
    const swept = await sweepExpired(server.auth.context);
    expect(swept).toMatchObject({
      sessions: 23,
      verifications: 23,
      attempts: 23,
      twoFactorChallenges: 23,
      mail: 23,
      webhooks: 46,
      knownDevices: 23,
    });
    for (const kind of seeded) expect([kind.name, (await kind.left()).length]).toEqual([kind.name, 1]);
    expect(await sweepExpired(server.auth.context)).toMatchObject({ sessions: 0, verifications: 0, webhooks: 0 });
    expect((await live.browser.get("/get-session")).body).not.toBeNull();
  });

  it("keeps delivered mail and webhooks housekeeping.deliveredRetention, then prunes them; pending and given-up stay", async () => {
    const hour = await startTestServer({ options: { housekeeping: { deliveredRetention: 3600 } } });
    try {
      const { db } = hour.auth.database;
      const now = hour.clock.now();
      const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
      const tag = Math.random().toString(36).slice(2, 8);
      // Delivered 61 minutes ago (past the hour), 59 minutes ago, and not yet.
      const delivered = [ago(61), ago(59), null];
      await db
        .insertInto("outbox")
        .values(
          delivered.map((sentAt, i) => ({
            id: `${tag}-${i}`,
            to: "someone@example.com",
            subject: "s",
            text: "t",
            html: "h",
            kind: "test",
            nextAttemptAt: ago(120),
            sentAt,
            createdAt: ago(120),
          })),
        )
        .execute();
      await db
        .insertInto("webhookDelivery")
        .values([
          ...delivered.map((deliveredAt, i) => ({
            id: `${tag}-${i}`,
            url: "http://127.0.0.1:1/hook",
            eventType: "user.created",
            payload: "{}",
            nextAttemptAt: ago(120),
            deliveredAt,
            createdAt: ago(120),
          })),
          // Given up 61 minutes ago: kept its 30 days whatever deliveredRetention says.
          {
            id: `${tag}-failed`,
            url: "http://127.0.0.1:1/hook",
            eventType: "user.created",
            payload: "{}",
            nextAttemptAt: ago(120),
            failedAt: ago(61),
            createdAt: ago(120),
          },
        ])
        .execute();
      expect(await sweepExpired(hour.auth.context)).toMatchObject({ mail: 1, webhooks: 1 });
      const mail = await db.selectFrom("outbox").select("id").where("id", "like", `${tag}-%`).orderBy("id").execute();
      expect(mail.map((r) => r.id)).toEqual([`${tag}-1`, `${tag}-2`]);
      const hooks = await db
        .selectFrom("webhookDelivery")
        .select("id")
        .where("id", "like", `${tag}-%`)
        .orderBy("id")
        .execute();
      expect(hooks.map((r) => r.id)).toEqual([`${tag}-1`, `${tag}-2`, `${tag}-failed`]);
    } finally {
      await hour.close();
    }
  });

  it.skipIf(dialectUnderTest() !== "postgres")(
    "one instance at a time: while another holds the lease, a sweep deletes nothing",
    async () => {
      const other = await startTestServer({ shareDatabaseWith: server });
      const holder = new pg.Client({ connectionString: server.databaseUrl });
      await holder.connect();
      try {
        const { db } = server.auth.database;
        const now = server.clock.now();
        const expired = Array.from({ length: 40 }, (_, i) => ({
          id: `race-${i}`,
          identifier: `x:race-${i}`,
          value: "v",
          expiresAt: new Date(now.getTime() - 1000),
          createdAt: now,
          updatedAt: now,
        }));
        await db.insertInto("verification").values(expired).execute();
        await holder.query("select pg_advisory_lock($1)", [HOUSEKEEPING_LOCK_KEY]);
        expect(await sweepExpired(other.auth.context)).toBeNull();
        expect(await db.selectFrom("verification").select("id").where("id", "like", "race-%").execute()).toHaveLength(
          40,
        );
        await holder.query("select pg_advisory_unlock($1)", [HOUSEKEEPING_LOCK_KEY]);

        const results = await Promise.all([
          sweepExpired(server.auth.context),
          sweepExpired(other.auth.context),
          sweepExpired(server.auth.context),
        ]);
        expect(results.reduce((sum, r) => sum + (r?.verifications ?? 0), 0)).toBe(40);
        expect(await db.selectFrom("verification").select("id").where("id", "like", "race-%").execute()).toEqual([]);
        expect(server.loggedErrors).toEqual([]);
      } finally {
        await holder.end();
        await other.close();
      }
    },
  );
});

// Three real service processes on one PostgreSQL database, each sweeping every second: the expired
// rows go, in batches, by one instance at a time, and nothing fails.
const noRedis = await redisUnavailable();
if (noRedis && dialectUnderTest() === "postgres") console.warn(`housekeeping on three instances skipped: ${noRedis}`);

describe.skipIf(dialectUnderTest() !== "postgres" || noRedis)("housekeeping on three instances", () => {
  const SESSIONS = 20_000;
  const VERIFICATIONS = 5_000;
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let cluster: Awaited<ReturnType<typeof startInstances>>;

  beforeAll(async () => {
    database = await freshDatabaseUrl({ migrated: true });
    cluster = await startInstances({
      count: 3,
      databaseUrl: database.url,
      redisUrl: TEST_REDIS_URL,
      options: { housekeeping: { interval: 1, batchSize: 500 } },
    });
  }, 90_000);
  afterAll(async () => {
    await cluster?.close();
    await database?.drop();
  });

  interface Sweep {
    instance: string;
    startedAt: number;
    finishedAt: number;
    sessions: number;
    verifications: number;
  }

  function sweeps(): Sweep[] {
    return cluster.instances.flatMap((instance: Instance) =>
      instance
        .output()
        .split("\n")
        .filter((line) => line.includes('"message":"housekeeping sweep"'))
        .map((line) => ({ instance: instance.name, ...JSON.parse(line) })),
    );
  }

  it("prunes seeded expired rows without overlapping sweeps or errors, and keeps live rows", async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query(`insert into "user" (id, name, email, "createdAt", "updatedAt")
        values ('churn-user', 'Churn', 'churn@example.com', now(), now())`);
      const seeded = Date.now();
      await client.query(
        `insert into session (id, "tokenHash", "userId", "expiresAt", "createdAt", "updatedAt")
         select 's-' || g, 'h-' || g, 'churn-user',
                case when g <= $1 then now() - interval '1 hour' else now() + interval '1 day' end, now(), now()
         from generate_series(1, $1 + 10) g`,
        [SESSIONS],
      );
      await client.query(
        `insert into verification (id, identifier, value, "expiresAt", "createdAt", "updatedAt")
         select 'v-' || g, 'x:' || g, 'v',
                case when g <= $1 then now() - interval '1 hour' else now() + interval '1 day' end, now(), now()
         from generate_series(1, $1 + 10) g`,
        [VERIFICATIONS],
      );
      const count = async () => {
        const { rows } = await client.query(
          `select (select count(*) from session)::int as sessions, (select count(*) from verification)::int as verifications`,
        );
        return rows[0] as { sessions: number; verifications: number };
      };
      while ((await count()).sessions > 10 || (await count()).verifications > 10) {
        if (Date.now() - seeded > 20_000) throw new Error(`not pruned within 20 s: ${JSON.stringify(await count())}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await count()).toEqual({ sessions: 10, verifications: 10 });
      // Each row deleted by one sweep (whose line is written once it has swept every kind), and no
      // two sweeps ran at the same time.
      const logged = () => sweeps().reduce((sum, s) => sum + s.sessions, 0);
      while (logged() < SESSIONS && Date.now() - seeded < 25_000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const done = sweeps();
      expect(done.reduce((sum, s) => sum + s.sessions, 0)).toBe(SESSIONS);
      expect(done.reduce((sum, s) => sum + s.verifications, 0)).toBe(VERIFICATIONS);
      const ordered = [...done].sort((x, y) => x.startedAt - y.startedAt);
      for (let i = 1; i < ordered.length; i++) {
        expect(ordered[i]!.startedAt).toBeGreaterThanOrEqual(ordered[i - 1]!.finishedAt);
      }
      for (const instance of cluster.instances) expect(instance.output()).not.toMatch(/"level":"(error|warn)"/);
    } finally {
      await client.end();
    }
  }, 30_000);
});

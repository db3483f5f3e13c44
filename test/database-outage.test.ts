import { createServer } from "node:net";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { type Auth, createAuth } from "../src/server/auth.js";
import type { Logger } from "../src/server/logger.js";
import { dialectUnderTest, freshDatabaseUrl } from "./helpers/database.js";
import { TEST_SECRET, testHasher } from "./helpers/server.js";

/**
 * A database that does not answer is an outage the client should wait out, not a bug: every route
 * answers 503 SERVICE_UNAVAILABLE with Retry-After, as /ready already says false, and nothing is
 * logged as an unhandled error.
 */
const BASE = "http://localhost:3000";
let auth: Auth | null = null;
const loggedErrors: string[] = [];
const logger: Logger = { info: () => {}, warn: () => {}, error: (message) => loggedErrors.push(message) };

afterEach(async () => {
  await auth?.close().catch(() => {});
  auth = null;
  loggedErrors.length = 0;
});

function post(path: string, body: unknown): Promise<Response> {
  return (auth as Auth).handler(
    new Request(`${BASE}/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: BASE },
      body: JSON.stringify(body),
    }),
  );
}

async function expectUnavailable(res: Response) {
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
  expect(await res.json()).toEqual({ code: "SERVICE_UNAVAILABLE", message: expect.any(String) });
}

/** A loopback port where nothing listens: bound for a moment to learn a free one, then closed. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

describe.runIf(dialectUnderTest() === "postgres")("PostgreSQL unreachable", () => {
  it("answers 503 with Retry-After and {code, message} on reads and writes", async () => {
    const url = new URL(process.env.TEST_DATABASE_URL as string);
    url.port = String(await deadPort());
    auth = await createAuth({
      baseURL: BASE,
      secret: TEST_SECRET,
      database: url.toString(),
      migrate: false,
      hasher: testHasher,
      logger,
      options: { rateLimit: { enabled: false } },
    });
    await expectUnavailable(
      await post("/sign-up/email", { name: "A", email: "a@example.com", password: "sturdy-123" }),
    );
    await expectUnavailable(await post("/sign-in/email", { email: "a@example.com", password: "sturdy-123" }));
    const ready = await auth.handler(new Request(`${BASE}/api/auth/ready`));
    expect(ready.status).toBe(503);
    expect(loggedErrors).not.toContain("unhandled error");
  });

  it("answers 503 for a request whose backend is terminated, and serves again after", async () => {
    const database = await freshDatabaseUrl();
    const locker = new pg.Client({ connectionString: database.url });
    try {
      auth = await createAuth({
        baseURL: BASE,
        secret: TEST_SECRET,
        database: database.url,
        hasher: testHasher,
        logger,
        options: { rateLimit: { enabled: false } },
      });
      expect((await post("/sign-up/email", { name: "B", email: "b@example.com", password: "sturdy-123" })).status).toBe(
        200,
      );
      // The user table locked from another connection holds the next sign-in inside its query, on a
      // backend the test then terminates (as a failover or an operator would).
      await locker.connect();
      await locker.query('begin; lock table "user" in access exclusive mode');
      const held = post("/sign-in/email", { email: "b@example.com", password: "sturdy-123" });
      const lockerPid = (await locker.query("select pg_backend_pid() as pid")).rows[0].pid;
      for (let waited = 0; waited < 5000; waited += 50) {
        const { rows } = await locker.query("select count(*)::int as n from pg_locks where not granted and pid <> $1", [
          lockerPid,
        ]);
        if (rows[0].n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await locker.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> $1",
        [lockerPid],
      );
      await expectUnavailable(await held);
      await locker.query("rollback");
      // Pooled connections the server killed are found dead one by one: a retry soon succeeds.
      let again = 503;
      for (let tries = 0; again === 503 && tries < 20; tries++) {
        again = (await post("/sign-in/email", { email: "b@example.com", password: "sturdy-123" })).status;
      }
      expect(again).toBe(200);
      expect(loggedErrors).not.toContain("unhandled error");
    } finally {
      await locker.end().catch(() => {});
      await auth?.close().catch(() => {});
      auth = null;
      await database.drop();
    }
  });
});

describe.runIf(dialectUnderTest() === "sqlite")("SQLite closed", () => {
  it("answers 503 with Retry-After and {code, message} once the database is closed", async () => {
    auth = await createAuth({
      baseURL: BASE,
      secret: TEST_SECRET,
      database: "sqlite::memory:",
      hasher: testHasher,
      logger,
      options: { rateLimit: { enabled: false } },
    });
    expect((await post("/sign-up/email", { name: "A", email: "a@example.com", password: "sturdy-123" })).status).toBe(
      200,
    );
    await auth.database.close();
    await expectUnavailable(await post("/sign-in/email", { email: "a@example.com", password: "sturdy-123" }));
    await expectUnavailable(
      await post("/sign-up/email", { name: "B", email: "b@example.com", password: "sturdy-123" }),
    );
    expect(loggedErrors).not.toContain("unhandled error");
  });
});

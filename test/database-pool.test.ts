import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_POOL_SIZE, type OpenedDatabase, openDatabase } from "../src/server/store/database.js";
import { dialectUnderTest, freshDatabaseUrl } from "./helpers/database.js";

/**
 * DATABASE_URL's `connection_limit` sizes each instance's PostgreSQL pool (N instances open N times
 * it): checked on the server, by the backends that answer six statements sent at once.
 */
describe.runIf(dialectUnderTest() === "postgres")("the PostgreSQL pool", () => {
  let database: { url: string; drop(): Promise<void> };
  const opened: OpenedDatabase[] = [];

  beforeAll(async () => {
    database = await freshDatabaseUrl();
  });

  afterAll(async () => {
    for (const each of opened) await each.close();
    await database?.drop();
  });

  /** How many server processes answered `count` statements that each hold their connection 100 ms. */
  async function backendsAnswering(url: string, count: number): Promise<number> {
    const each = openDatabase(url);
    opened.push(each);
    const pids = await Promise.all(
      Array.from({ length: count }, () =>
        sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.1)`
          .execute(each.db)
          .then((r) => r.rows[0]?.pid),
      ),
    );
    return new Set(pids).size;
  }

  it("opens at most connection_limit connections, and the default's worth without it", async () => {
    const limited = new URL(database.url);
    limited.searchParams.set("connection_limit", "2");
    expect(await backendsAnswering(limited.toString(), 6)).toBe(2);
    expect(DEFAULT_POOL_SIZE).toBeGreaterThanOrEqual(6);
    expect(await backendsAnswering(database.url, 6)).toBe(6);
  });
});

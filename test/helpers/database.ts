import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { LOWER_ALPHANUMERIC, randomString } from "../../src/server/crypto/random.js";
import type { DB } from "../../src/server/store/database.js";
import type { Database } from "../../src/server/store/schema.js";

/**
 * A fresh, empty database for one test file, on the dialect this project run is for
 * (TEST_DIALECT): an in-memory SQLite database, or a new PostgreSQL database on TEST_DATABASE_URL
 * that is dropped afterwards (in the postgres project, once the run is over). `shared`: a SQLite
 * database in a file, which a second instance can open too (removed afterwards). `migrated`: on PostgreSQL, a copy of the run's migrated template
 * (test/helpers/postgres-template.ts), for servers that would migrate it at once anyway.
 */
export async function freshDatabaseUrl({ shared = false, migrated = false } = {}): Promise<{
  url: string;
  drop(): Promise<void>;
}> {
  if (process.env.TEST_DIALECT !== "postgres" && shared) {
    const dir = mkdtempSync(join(tmpdir(), "gatehouse-test-db-"));
    return {
      url: `sqlite:${join(dir, "shared.sqlite")}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (process.env.TEST_DIALECT !== "postgres") return { url: "sqlite::memory:", drop: async () => {} };
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DIALECT=postgres needs TEST_DATABASE_URL");
  // In the postgres project the run drops its test databases once it is over.
  const runPrefix = inject("postgresTestPrefix");
  const name =
    migrated && runPrefix !== undefined
      ? await takeSpareCopy(adminUrl, runPrefix)
      : await createDatabase(adminUrl, runPrefix ?? "gatehouse_test_", migrated);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      if (runPrefix !== undefined) return;
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      // pg-pool's end() resolves before its connections have closed; forcing the drop while they
      // close makes the server kill them, which surfaces as an uncaught FATAL in the test process.
      for (let waited = 0; waited < 3000; waited += 25) {
        const { rows } = await client.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1", [
          name,
        ]);
        if (rows[0]?.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

async function createDatabase(adminUrl: string, prefix: string, migrated: boolean): Promise<string> {
  const name = `${prefix}${randomString(12, LOWER_ALPHANUMERIC)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(
      migrated ? `CREATE DATABASE ${name} TEMPLATE ${inject("postgresTemplate")}` : `CREATE DATABASE ${name}`,
    );
    // A test database need not survive a crash: its commits skip waiting for the WAL to reach the disk.
    await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  } finally {
    await admin.end();
  }
  return name;
}

/**
 * A copy of the template made ahead, while this worker's tests run: the next test server (in this
 * file or the worker's next one) takes it instead of waiting for CREATE DATABASE. Only in the
 * postgres project, whose run drops every database with its prefix, a spare nobody took included.
 */
let spareCopy: Promise<string> | null = null;

function takeSpareCopy(adminUrl: string, runPrefix: string): Promise<string> {
  const taken = spareCopy ?? createDatabase(adminUrl, runPrefix, true);
  spareCopy = createDatabase(adminUrl, runPrefix, true);
  // A spare that failed fails the test server that takes it; until then it is nobody's rejection.
  spareCopy.catch(() => {});
  return taken;
}

export const dialectUnderTest = () => (process.env.TEST_DIALECT === "postgres" ? "postgres" : "sqlite");

/** How many rows each of `tables` holds: compared before and after a request that must change nothing. */
export async function rowCounts<T extends keyof Database>(db: DB, tables: readonly T[]): Promise<Record<T, number>> {
  const counts = {} as Record<T, number>;
  for (const table of tables) {
    const row = await db
      .selectFrom(table as keyof Database)
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

/** How many users, accounts, members and sessions `db` holds: what a sign-in would add to. */
export const signInRowCounts = (db: DB) => rowCounts(db, ["user", "account", "member", "session"]);

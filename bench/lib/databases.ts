import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import pg from "pg";
import { hasTaskset, SERVER_CORE } from "./cpu.js";

/** Which databases the bench runs each service scenario on: BENCH_DATABASES=sqlite,postgres. */
export type DatabaseKind = "sqlite" | "postgres";

/** Where PostgreSQL mode makes (and drops) its scratch databases. */
const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** One scenario's fresh database. */
export interface BenchDatabase {
  kind: DatabaseKind;
  /** DATABASE_URL for the service. */
  url: string;
  /** The SQLite file (the floor reads it); null on PostgreSQL. */
  sqlitePath: string | null;
  /**
   * PostgreSQL: pins the server processes serving this database to the service's core, as SQLite
   * runs inside the service on that core. Answers how many it pinned.
   */
  pin(): Promise<number>;
  drop(): Promise<void>;
}

export async function createDatabase(kind: DatabaseKind, workDir: string, name: string): Promise<BenchDatabase> {
  if (kind === "sqlite") {
    const path = join(workDir, `${name}.sqlite`);
    return { kind, url: `sqlite:${path}`, sqlitePath: path, pin: async () => 0, drop: async () => {} };
  }
  const database = `bench_${name.replace(/\W/g, "_")}_${randomBytes(4).toString("hex")}`;
  await admin(`CREATE DATABASE ${database}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${database}`;
  // One connection for the pinning, which runs every 250 ms under load.
  let watcher: pg.Client | null = null;
  return {
    kind,
    url: url.toString(),
    sqlitePath: null,
    async pin() {
      if (!watcher) {
        watcher = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
        await watcher.connect();
      }
      return pinBackends(watcher, database);
    },
    async drop() {
      await watcher?.end();
      await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    },
  };
}

async function admin(statement: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * PostgreSQL forks one server process per connection. Those serving `database` (the service's pool)
 * are moved to the service's core with `taskset -p`, which needs the right to change another user's
 * processes (root, or CAP_SYS_NICE). The postmaster and its background writers are left alone: they
 * serve every other database on the machine too. Called after warm-up and before every round, since
 * the pool may open new connections in between. BENCH_PIN_POSTGRES=0 leaves them unpinned: on a busy
 * machine every query is a hand-off between processes waiting their turn on the one core.
 */
async function pinBackends(client: pg.Client, database: string): Promise<number> {
  if (!hasTaskset() || process.env.BENCH_PIN_POSTGRES === "0") return 0;
  const { rows } = await client.query("SELECT pid FROM pg_stat_activity WHERE datname = $1", [database]);
  let pinned = 0;
  for (const { pid } of rows as { pid: number }[]) {
    const result = spawnSync("taskset", ["-p", "-c", SERVER_CORE, String(pid)], { stdio: "ignore" });
    if (result.status === 0) pinned += 1;
  }
  return pinned;
}

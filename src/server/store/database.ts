import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import type SqliteDatabaseType from "better-sqlite3";
import {
  type CompiledQuery,
  type DatabaseConnection,
  Kysely,
  type LogEvent,
  Migrator,
  PostgresDialect,
  type QueryResult,
  SqliteDialect,
  sql,
} from "kysely";
import type pgType from "pg";
import { entryCarriedBy, mergeEntry } from "../audit/entry.store.js";
import type { Logger } from "../logger.js";
import type { DB } from "./db.js";
import type { DialectName } from "./dialect.js";
import { registerDirectWriter } from "./direct-writes.js";
import { migrations } from "./migrations/index.js";
import { postgresRevocationFeed } from "./postgres-revocation-feed.js";
import { postgresReader, registerDirectReader } from "./reads/index.js";
import type { RevocationFeed } from "./revocation-feed.js";
import { runningDialect } from "./running-dialect.js";
import type { Database } from "./schema.js";
import { SqliteValuesPlugin, toSqliteValue } from "./sqlite-values-plugin.js";

export { readRowsDirect } from "./reads/index.js";
export type { DB };

/**
 * Each driver is loaded only when its dialect is used: a SQLite service never loads pg and the other
 * way round, which keeps the other driver out of the resident set (bench/README.md, lazy loads).
 */
const requireDriver = createRequire(import.meta.url);

/** The driver package, or an error that says which package to install (both are optional peers). */
function loadDriver(name: "pg" | "better-sqlite3", dialect: DialectName): unknown {
  try {
    return requireDriver(name);
  } catch (error) {
    if ((error as { code?: string }).code !== "MODULE_NOT_FOUND") throw error;
    throw new Error(`A ${dialect} DATABASE_URL needs the "${name}" package: npm install ${name}`, { cause: error });
  }
}

/** What the metrics read at scrape time (docs/operations.md): plain counts, kept whether or not anyone reads them. */
export interface DatabaseStats {
  /** PostgreSQL's pool: connections open, idle, and queries waiting for one; null on SQLite (one connection). */
  pool: { total: number; idle: number; waiting: number; max: number } | null;
  /** Hot reads (store/reads) sent to PostgreSQL: statements, those carrying several reads, and the reads they carried. */
  hotReads: { statements: number; coalescedStatements: number; coalescedReads: number };
}

export interface OpenedDatabase {
  db: DB;
  dialect: DialectName;
  /** Round trips made so far; hot paths are counted, not guessed. */
  readonly queryCount: () => number;
  /** The pool and hot-read counts, for the metrics. */
  readonly stats: () => DatabaseStats;
  /** PostgreSQL only: LISTEN/NOTIFY, so instances without Redis still hear each other's revocations. */
  revocationFeed?(logger: Logger): RevocationFeed;
  close(): Promise<void>;
}

export const DEFAULT_DATABASE_URL = "sqlite:./data/gatehouse.sqlite";

/** Connections each instance's PostgreSQL pool opens at most, unless DATABASE_URL says `connection_limit`. */
export const DEFAULT_POOL_SIZE = 10;

/**
 * Which dialect and location a DATABASE_URL names; throws for anything else. A PostgreSQL URL may end
 * in `?connection_limit=N` (Prisma's name for it): the pool size of each instance, taken out of the
 * location handed to the driver.
 */
export function parseDatabaseUrl(url: string): { dialect: DialectName; location: string; poolSize: number } {
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    return { dialect: "postgres", ...withoutPoolSize(url) };
  }
  if (url.startsWith("sqlite:")) {
    const location = url.slice("sqlite:".length);
    if (location.length === 0) throw new Error(`DATABASE_URL "${url}" names no SQLite file`);
    return { dialect: "sqlite", location, poolSize: 1 }; // its one connection
  }
  throw new Error(`DATABASE_URL must start with sqlite: or postgres:// (got "${url.split(":")[0]}:...")`);
}

/** A PostgreSQL URL's `connection_limit` (1-1000) as the pool size, and the URL without it. */
function withoutPoolSize(url: string): { location: string; poolSize: number } {
  // Only a URL that names it is parsed and written again: any other is handed over exactly as given.
  if (!/[?&]connection_limit=/.test(url)) return { location: url, poolSize: DEFAULT_POOL_SIZE };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error("DATABASE_URL is not a URL the connection_limit could be read from");
  }
  const given = parsed.searchParams.get("connection_limit") ?? "";
  const poolSize = /^\d{1,4}$/.test(given) ? Number(given) : Number.NaN;
  if (!(poolSize >= 1 && poolSize <= 1000)) {
    throw new Error(`DATABASE_URL's connection_limit must be a whole number from 1 to 1000 (got "${given}")`);
  }
  parsed.searchParams.delete("connection_limit");
  return { location: parsed.toString(), poolSize };
}

/**
 * The database a DATABASE_URL names (`sqlite:<path>`, `sqlite::memory:`, `postgres://...`), opened
 * for createAuth's `database` when the application wants the handle itself.
 *
 * @example
 * const database = openDatabase("postgres://app@db/app?connection_limit=20");
 * const auth = await createAuth({ baseURL, secret, database });
 * console.log(database.dialect, database.queryCount()); // "postgres", round trips so far
 */
export function openDatabase(url: string): OpenedDatabase {
  const { dialect, location, poolSize } = parseDatabaseUrl(url);
  let queries = 0;
  const log = (event: LogEvent) => {
    queries += 1;
    if (event.level === "error" && process.env.GATEHOUSE_LOG_SQL) console.error(event.error);
  };

  if (dialect === "postgres") {
    // int8 (count(*)) as a JS number: counts here stay far below 2^53.
    const pg = loadDriver("pg", dialect) as typeof pgType;
    pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));
    const pool = new pg.Pool({ connectionString: location, max: poolSize });
    let closing = false;
    // An idle connection the server drops (restart, failover, admin kill) must not crash the process:
    // the pool discards it and the next query opens a new one.
    pool.on("error", (error) => {
      if (!closing)
        console.warn(JSON.stringify({ level: "warn", message: "idle database connection lost", error: error.message }));
    });
    // A connection the server ends while it is checked out (a query running, or a transaction between
    // statements) also emits "error", which pg-pool listens for only on idle ones: unheard, it would
    // crash the process. The query in flight fails on its own, and the pool drops the connection.
    pool.on("connect", (client) => client.on("error", () => {}));
    // Audited one-statement changes carry their entry in the same statement (audit/entry.store.ts).
    const db = new Kysely<Database>({
      dialect: runningDialect(new PostgresDialect({ pool }), (connection, query) =>
        connection.executeQuery(mergeEntry(query)),
      ),
      log,
    });
    const hotReads = { statements: 0, coalescedStatements: 0, coalescedReads: 0 };
    registerDirectReader(
      db,
      postgresReader(pool, (reads) => {
        queries += 1;
        hotReads.statements += 1;
        if (reads > 1) {
          hotReads.coalescedStatements += 1;
          hotReads.coalescedReads += reads;
        }
      }),
    );
    const notify = async (channel: string, payload: string) => {
      await sql`select pg_notify(${channel}, ${payload})`.execute(db);
    };
    return {
      db,
      dialect,
      queryCount: () => queries,
      stats: () => ({
        pool: { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: poolSize },
        hotReads: { ...hotReads },
      }),
      revocationFeed: (logger) => postgresRevocationFeed(location, pg, notify, logger),
      close: async () => {
        closing = true;
        await db.destroy();
        // Kysely ends only a pool it has used itself; the direct reads use it without Kysely.
        if (!pool.ended) await pool.end();
      },
    };
  }

  if (location !== ":memory:") mkdirSync(dirname(resolve(location)), { recursive: true });
  const SqliteDatabase = loadDriver("better-sqlite3", dialect) as typeof SqliteDatabaseType;
  const sqlite = new SqliteDatabase(location);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  const cached = withStatementCache(sqlite);
  // An audited change of one statement and its entry (audit/entry.store.ts, entryCarriedBy): Kysely
  // holds the one connection for the statement, so nothing runs between the two. Not a Kysely
  // transaction: that one stays open across awaits, and while it is open every other request's hot
  // read leaves the direct path to queue for the connection.
  const changeWithEntry = sqlite.transaction((change: CompiledQuery, entry: CompiledQuery) => {
    queries += 1; // the entry's insert: Kysely's log counts the change
    const rows = cached.prepare(change.sql).all(change.parameters) as unknown[];
    if (rows.length > 0) cached.prepare(entry.sql).run(entry.parameters.map(toSqliteValue));
    return { rows };
  });
  const db = new Kysely<Database>({
    dialect: runningDialect(
      new SqliteDialect({ database: cached }),
      <R>(connection: DatabaseConnection, query: CompiledQuery) => {
        const entry = entryCarriedBy(query);
        return entry
          ? Promise.resolve(changeWithEntry(query, entry) as QueryResult<R>)
          : connection.executeQuery<R>(query);
      },
    ),
    plugins: [new SqliteValuesPlugin()],
    log,
  });
  registerDirectReader(db, (sqlText, parameters) => {
    // Inside another request's open transaction the read would see its uncommitted rows: wait for
    // Kysely's connection lock instead.
    if (sqlite.inTransaction) return undefined;
    queries += 1;
    return cached.prepare(sqlText).all(...parameters.map(toSqliteValue));
  });
  registerDirectWriter(db, {
    inTransaction: () => sqlite.inTransaction,
    get: (sqlText, parameters) => {
      queries += 1;
      return cached.prepare(sqlText).get(...parameters.map(toSqliteValue));
    },
    run: (sqlText, parameters) => {
      queries += 1;
      return cached.prepare(sqlText).run(...parameters.map(toSqliteValue)).changes;
    },
  });
  const close = async () => {
    await db.destroy();
    // Kysely closes only a connection it has used itself; the direct reads use it without Kysely.
    if (sqlite.open) sqlite.close();
  };
  // SQLite's hot reads run straight on its one connection: nothing to pool or coalesce.
  const stats = () => ({ pool: null, hotReads: { statements: 0, coalescedStatements: 0, coalescedReads: 0 } });
  return { db, dialect, queryCount: () => queries, stats, close };
}

/** Prepared statements kept per SQL text; bounded so queries with varying IN-lists cannot grow it forever. */
const STATEMENT_CACHE_SIZE = 256;

/**
 * Kysely's SQLite driver prepares every statement it runs, and preparing (parsing and planning the
 * SQL) costs more than running a point lookup. Handing it a database whose prepare() reuses the
 * statement for the same SQL text keeps the plan. Safe because Kysely runs one statement at a time
 * on its single SQLite connection, and SQLite re-prepares a statement by itself after a schema change.
 */
function withStatementCache(sqlite: SqliteDatabaseType.Database): {
  close(): void;
  prepare(sql: string): SqliteDatabaseType.Statement;
} {
  const statements = new Map<string, SqliteDatabaseType.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sqlText: string) {
      let statement = statements.get(sqlText);
      if (statement) {
        // Most recently used last, so the eviction below drops the least recently used.
        statements.delete(sqlText);
      } else {
        statement = sqlite.prepare(sqlText);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      }
      statements.set(sqlText, statement);
      return statement;
    },
  };
}

/** Runs every pending migration; throws with the failing migration's name. */
function migrator(db: DB, dialect: DialectName): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations(dialect) },
    migrationTableName: "gatehouse_migration",
    migrationLockTableName: "gatehouse_migration_lock",
    // Areas number their migrations independently; a later-numbered one may have landed first.
    allowUnorderedMigrations: true,
  });
}

/** The names of the migrations this build has that the database has not run (`gatehouse doctor`). */
export async function pendingMigrations(db: DB, dialect: DialectName): Promise<string[]> {
  const all = await migrator(db, dialect).getMigrations();
  return all.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

export async function migrateToLatest(db: DB, dialect: DialectName): Promise<void> {
  const { error, results } = await migrator(db, dialect).migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error) {
    const name = failed ? ` (${failed.migrationName})` : "";
    throw new Error(`database migration failed${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Whether the database answers a trivial query (readiness). */
export function databaseAnswers(db: DB): Promise<boolean> {
  return sql`select 1`.execute(db).then(
    () => true,
    () => false,
  );
}

/**
 * Driver and server errors that mean the database cannot answer now (down, unreachable, restarting,
 * the connection killed or closed, SQLite busy), not that the query was wrong: worth a retry later.
 */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "57P01", // admin_shutdown (pg_terminate_backend)
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up, shutting down)
  "53300", // too_many_connections
]);
/** SQLite's primary codes (extended codes add a suffix, e.g. SQLITE_IOERR_WRITE). */
const UNAVAILABLE_SQLITE = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR)(_|$)/;
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/, // pg: the server went away mid-query
  /timeout exceeded when trying to connect/, // pg pool
  /^The database connection is not open$/, // better-sqlite3 after close()
  /^driver has already been destroyed$/, // Kysely after destroy()
  /^Client has encountered a connection error and is not queryable$/,
];

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (
    typeof code === "string" &&
    (UNAVAILABLE_CODES.has(code) || code.startsWith("08") || UNAVAILABLE_SQLITE.test(code))
  )
    return true;
  if (typeof message === "string" && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
  // pg wraps a refused connection of every address it tried (AggregateError).
  const inner = (error as { errors?: unknown[] }).errors;
  return Array.isArray(inner) && inner.length > 0 && inner.every(isDatabaseUnavailable);
}

/** True for a unique-constraint violation in either dialect: races are decided by constraints. */
export function isUniqueViolation(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const code = (error as { code?: unknown }).code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

import { type Expression, type Kysely, type SqlBool, sql } from "kysely";
import type { DB } from "./db.js";
import type { DialectName } from "./dialect.js";
import type { Database } from "./schema.js";

// Each pruning statement deletes at most `limit` rows, the longest done first, found through an
// index on the column that says they are done: it holds row locks for one small batch and never
// reads a whole table, however many rows are waiting (test/index-plans.test.ts checks the plans).

/**
 * The rows whose `key` the `batch` query selects. PostgreSQL: `key = any(array(batch))`, so the
 * batch is taken first and its keys looked up in the primary key; written `key in (batch)`, it is a
 * join, which on a table of moderate size the planner answers by reading the whole table.
 */
function keyInBatch(dialect: DialectName, key: string, batch: Expression<unknown>): Expression<SqlBool> {
  return dialect === "postgres"
    ? sql<SqlBool>`${sql.ref(key)} = any(array(${batch}))`
    : sql<SqlBool>`${sql.ref(key)} in (${batch})`;
}

/** A kind of row housekeeping prunes: its table, its key, and the column that says when it was done. */
interface DoneRows<T extends keyof Database = keyof Database> {
  table: T;
  key: keyof Database[T] & string;
  doneAt: keyof Database[T] & string;
}

function doneRows<T extends keyof Database>(table: T, key: DoneRows<T>["key"], doneAt: DoneRows<T>["doneAt"]) {
  return { table, key, doneAt } satisfies DoneRows<T>;
}

/**
 * Every kind of row housekeeping prunes. A row is done once its `doneAt` is at or before the cut-off
 * the caller gives (now, for an expiry; now less a retention, for a time something finished); a
 * null `doneAt` (mail not sent yet, a delivery still pending) is never done.
 */
export const DONE_ROWS = {
  /** Sessions past their expiry (their sessionProof rows go with them). */
  sessions: doneRows("session", "id", "expiresAt"),
  /** One-time values (links, codes, OAuth states) past their expiry. */
  verifications: doneRows("verification", "id", "expiresAt"),
  /** Sign-ins that waited for a second factor past their expiry. */
  twoFactorChallenges: doneRows("twoFactorChallenge", "tokenHash", "expiresAt"),
  /** Attempt counts past their expiry: the table keeps only live limits. */
  attempts: doneRows("attemptCounter", "key", "expiresAt"),
  /** Delivered mail (unsent mail stays for its retries). */
  sentMail: doneRows("outbox", "id", "sentAt"),
  /** Webhook deliveries delivered (pending ones stay). */
  deliveredWebhooks: doneRows("webhookDelivery", "id", "deliveredAt"),
  /** Webhook deliveries given up. */
  failedWebhooks: doneRows("webhookDelivery", "id", "failedAt"),
  /** Devices users signed in from, by when they were last seen (indexed by migration 0026). */
  knownDevices: doneRows("knownDevice", "id", "lastSeenAt"),
  /** OAuth codes past their minute (a used one is kept until then, to catch a replay). */
  oauthCodes: doneRows("oauthCode", "codeHash", "expiresAt"),
  /** Refresh tokens past their expiry (spent ones are kept until then, to catch a replay). */
  oauthRefreshTokens: doneRows("oauthRefreshToken", "tokenHash", "expiresAt"),
  /** Device authorizations past their expiry. */
  oauthDeviceCodes: doneRows("oauthDeviceCode", "id", "expiresAt"),
  /** OAuth grants nothing they issued can outlive (their refresh tokens go with them). */
  oauthGrants: doneRows("oauthGrant", "id", "expiresAt"),
  /** Opaque access tokens past their expiry. */
  oauthAccessTokens: doneRows("oauthAccessToken", "tokenHash", "expiresAt"),
  /** Back-channel logout tokens delivered, and those given up. */
  deliveredLogouts: doneRows("oauthLogoutDelivery", "id", "deliveredAt"),
  failedLogouts: doneRows("oauthLogoutDelivery", "id", "failedAt"),
  /** API keys by their expiry (their seen addresses go with them; indexed by migration 0044). */
  expiredApiKeys: doneRows("apiKey", "id", "expiresAt"),
  /** Setup links by their expiry (indexed by migration 0045). */
  expiredSetupLinks: doneRows("setupLink", "id", "expiresAt"),
} as const;

export type DoneRowKind = keyof typeof DONE_ROWS;

/** Each table seen as columns of any type: the kinds above are checked against Database instead. */
type AnyTables = Record<string, Record<string, unknown>>;

/** Deletes at most `limit` rows of `kind` done at or before `before`, the longest done first; answers how many went. */
export async function deleteDoneRows(
  db: DB,
  dialect: DialectName,
  kind: DoneRowKind,
  before: Date,
  limit: number,
): Promise<number> {
  const { table, key, doneAt }: { table: string; key: string; doneAt: string } = DONE_ROWS[kind];
  const tables = db as unknown as Kysely<AnyTables>;
  const batch = tables.selectFrom(table).select(key).where(doneAt, "<=", before).orderBy(doneAt).limit(limit);
  const result = await tables
    .deleteFrom(table)
    .where(keyInBatch(dialect, key, batch))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The PostgreSQL advisory lock a sweep holds, so that one instance at a time prunes a database. */
export const HOUSEKEEPING_LOCK_KEY = 4_716_401_938_276_511;

/**
 * Runs `sweep` while holding the housekeeping lease, or answers null at once when another instance
 * holds it. PostgreSQL: a session advisory lock on one pooled connection, released when the sweep
 * ends or, if the process dies, with its connection. SQLite has one process: nothing to share.
 */
export async function withHousekeepingLease<T>(
  db: DB,
  dialect: DialectName,
  sweep: () => Promise<T>,
): Promise<T | null> {
  if (dialect === "sqlite") return sweep();
  return db.connection().execute(async (connection) => {
    const { rows } = await sql<{
      leased: boolean;
    }>`select pg_try_advisory_lock(${HOUSEKEEPING_LOCK_KEY}::bigint) as leased`.execute(connection);
    if (!rows[0]?.leased) return null;
    try {
      return await sweep();
    } finally {
      await sql`select pg_advisory_unlock(${HOUSEKEEPING_LOCK_KEY}::bigint)`.execute(connection);
    }
  });
}

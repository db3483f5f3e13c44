import { type Expression, type SqlBool, sql } from "kysely";
import type { DB } from "./database.js";
import type { DialectName } from "./dialect.js";

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

/** Sessions past their expiry (their sessionProof rows go with them); answers how many went. */
export async function deleteExpiredSessions(db: DB, dialect: DialectName, now: Date, limit: number): Promise<number> {
  const batch = db.selectFrom("session").select("id").where("expiresAt", "<=", now).orderBy("expiresAt").limit(limit);
  const result = await db
    .deleteFrom("session")
    .where(keyInBatch(dialect, "id", batch))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** One-time values (links, codes, OAuth states) past their expiry. */
export async function deleteExpiredVerifications(
  db: DB,
  dialect: DialectName,
  now: Date,
  limit: number,
): Promise<number> {
  const batch = db
    .selectFrom("verification")
    .select("id")
    .where("expiresAt", "<=", now)
    .orderBy("expiresAt")
    .limit(limit);
  const result = await db
    .deleteFrom("verification")
    .where(keyInBatch(dialect, "id", batch))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Sign-ins that waited for a second factor past their expiry. */
export async function deleteExpiredTwoFactorChallenges(
  db: DB,
  dialect: DialectName,
  now: Date,
  limit: number,
): Promise<number> {
  const batch = db
    .selectFrom("twoFactorChallenge")
    .select("tokenHash")
    .where("expiresAt", "<=", now)
    .orderBy("expiresAt")
    .limit(limit);
  const result = await db
    .deleteFrom("twoFactorChallenge")
    .where(keyInBatch(dialect, "tokenHash", batch))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Attempt counts past their expiry: the table keeps only live limits. */
export async function deleteExpiredAttempts(db: DB, dialect: DialectName, now: Date, limit: number): Promise<number> {
  const batch = db
    .selectFrom("attemptCounter")
    .select("key")
    .where("expiresAt", "<=", now)
    .orderBy("expiresAt")
    .limit(limit);
  const result = await db
    .deleteFrom("attemptCounter")
    .where(keyInBatch(dialect, "key", batch))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Delivered mail sent before `before` (unsent mail stays for its retries). */
export async function deleteSentMailBefore(db: DB, dialect: DialectName, before: Date, limit: number): Promise<number> {
  const batch = db.selectFrom("outbox").select("id").where("sentAt", "<=", before).orderBy("sentAt").limit(limit);
  const result = await db
    .deleteFrom("outbox")
    .where(keyInBatch(dialect, "id", batch))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Webhook deliveries delivered before `before` (pending ones stay). */
export async function deleteDeliveredWebhooksBefore(
  db: DB,
  dialect: DialectName,
  before: Date,
  limit: number,
): Promise<number> {
  const batch = db
    .selectFrom("webhookDelivery")
    .select("id")
    .where("deliveredAt", "<=", before)
    .orderBy("deliveredAt")
    .limit(limit);
  const result = await db
    .deleteFrom("webhookDelivery")
    .where(keyInBatch(dialect, "id", batch))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Webhook deliveries given up before `before`. */
export async function deleteFailedWebhooksBefore(
  db: DB,
  dialect: DialectName,
  before: Date,
  limit: number,
): Promise<number> {
  const batch = db
    .selectFrom("webhookDelivery")
    .select("id")
    .where("failedAt", "<=", before)
    .orderBy("failedAt")
    .limit(limit);
  const result = await db
    .deleteFrom("webhookDelivery")
    .where(keyInBatch(dialect, "id", batch))
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

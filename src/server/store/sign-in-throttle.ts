import type { DB } from "./database.js";
import { toDateOrNull } from "./values.js";

export interface ThrottleState {
  failures: number;
  lockedUntil: Date | null;
}

export async function findThrottle(db: DB, key: string): Promise<ThrottleState | null> {
  const row = await db
    .selectFrom("signInThrottle")
    .select(["failures", "lockedUntil"])
    .where("key", "=", key)
    .executeTakeFirst();
  return row ? { failures: Number(row.failures), lockedUntil: toDateOrNull(row.lockedUntil) } : null;
}

/** Counts one more failure, atomically; answers the new count. */
export async function addFailure(db: DB, key: string, now: Date): Promise<number> {
  const row = await db
    .insertInto("signInThrottle")
    .values({ key, failures: 1, lockedUntil: null, updatedAt: now })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet((eb) => ({ failures: eb("signInThrottle.failures", "+", 1), updatedAt: now })),
    )
    .returning("failures")
    .executeTakeFirstOrThrow();
  return Number(row.failures);
}

/**
 * Counts a failure only if nobody else did since `seen` was read (compare and swap), and locks until
 * `lockedUntil`. False when another attempt got there first.
 */
export async function claimAttempt(db: DB, key: string, seen: number, lockedUntil: Date, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("signInThrottle")
    .set({ failures: seen + 1, lockedUntil, updatedAt: now })
    .where("key", "=", key)
    .where("failures", "=", seen)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function lockUntil(db: DB, key: string, lockedUntil: Date): Promise<void> {
  await db.updateTable("signInThrottle").set({ lockedUntil }).where("key", "=", key).execute();
}

export async function clearThrottle(db: DB, key: string): Promise<void> {
  await db.deleteFrom("signInThrottle").where("key", "=", key).execute();
}

/** Rows nobody has failed on for `before`: housekeeping keeps the table to recent attackers. */
export async function deleteStaleThrottles(db: DB, before: Date): Promise<number> {
  const result = await db.deleteFrom("signInThrottle").where("updatedAt", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

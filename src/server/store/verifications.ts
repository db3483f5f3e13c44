import type { DB } from "./db.js";
import { toDate } from "./values.js";

/**
 * One-time values (reset-password, delete-account). The identifier carries the purpose prefix and
 * the SHA-256 of the token, never the token itself; `value` is the user id the token acts for.
 */
export interface VerificationValue {
  value: string;
  expiresAt: Date;
}

export async function insertVerification(
  db: DB,
  row: { id: string; identifier: string; value: string; expiresAt: Date; now: Date },
): Promise<void> {
  await db
    .insertInto("verification")
    .values({
      id: row.id,
      identifier: row.identifier,
      value: row.value,
      expiresAt: row.expiresAt,
      createdAt: row.now,
      updatedAt: row.now,
    })
    .execute();
}

export async function findVerification(db: DB, identifier: string): Promise<VerificationValue | null> {
  const row = await db
    .selectFrom("verification")
    .select(["value", "expiresAt"])
    .where("identifier", "=", identifier)
    .executeTakeFirst();
  return row ? { value: row.value, expiresAt: toDate(row.expiresAt) } : null;
}

/**
 * Deletes the value and returns what it held: one statement, so of two racing uses only one gets
 * the row. With `value`, only a row acting for that user is taken (someone else's stays intact).
 */
export async function consumeVerification(
  db: DB,
  identifier: string,
  options: { value?: string } = {},
): Promise<VerificationValue | null> {
  let query = db.deleteFrom("verification").where("identifier", "=", identifier);
  if (options.value !== undefined) query = query.where("value", "=", options.value);
  const row = await query.returning(["value", "expiresAt"]).executeTakeFirst();
  return row ? { value: row.value, expiresAt: toDate(row.expiresAt) } : null;
}

/** Every pending value acting for the user, or only those whose identifier starts with `prefix`. */
export async function deleteUserVerifications(db: DB, userId: string, prefix?: string): Promise<void> {
  let query = db.deleteFrom("verification").where("value", "=", userId);
  if (prefix) query = query.where("identifier", "like", `${prefix}%`);
  await query.execute();
}

/** Replaces whatever one-time value an identifier held with a fresh one. */
export async function replaceVerification(
  db: DB,
  row: { id: string; identifier: string; value: string; expiresAt: Date; now: Date },
): Promise<void> {
  await db.deleteFrom("verification").where("identifier", "=", row.identifier).execute();
  await insertVerification(db, row);
}

import type { DB } from "./db.js";
import { toDate } from "./values.js";

/** OAuth states live in the verification table under `auth-state:<sha256(state)>`. */
export async function insertOAuthState(
  db: DB,
  state: { id: string; identifier: string; value: string; expiresAt: Date; now: Date },
): Promise<void> {
  await db
    .insertInto("verification")
    .values({
      id: state.id,
      identifier: state.identifier,
      value: state.value,
      expiresAt: state.expiresAt,
      createdAt: state.now,
      updatedAt: state.now,
    })
    .execute();
}

/** Deletes and returns a state: the delete decides single use, so a replayed or racing callback gets null. */
export async function takeOAuthState(db: DB, identifier: string): Promise<{ value: string; expiresAt: Date } | null> {
  const row = await db
    .deleteFrom("verification")
    .where("identifier", "=", identifier)
    .returning(["value", "expiresAt"])
    .executeTakeFirst();
  return row ? { value: row.value, expiresAt: toDate(row.expiresAt) } : null;
}

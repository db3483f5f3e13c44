import type { DB } from "./database.js";

/**
 * Removes the user and everything that acts for them: pending one-time values, sessions, linked
 * accounts, team and organization memberships. Pass the transaction that owns the deletion.
 */
export async function deleteUserAndOwnedRows(db: DB, userId: string): Promise<number> {
  await db.deleteFrom("verification").where("value", "=", userId).execute();
  await db.deleteFrom("session").where("userId", "=", userId).execute();
  await db.deleteFrom("account").where("userId", "=", userId).execute();
  await db.deleteFrom("teamMember").where("userId", "=", userId).execute();
  await db.deleteFrom("member").where("userId", "=", userId).execute();
  const result = await db.deleteFrom("user").where("id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

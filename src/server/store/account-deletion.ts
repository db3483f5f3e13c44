import type { User } from "../../contract/models.js";
import type { DB } from "./db.js";
import { mapUser } from "./users.js";

/**
 * Removes the user and everything that acts for them: pending one-time values, sessions, linked
 * accounts, team and organization memberships. Pass the transaction that owns the deletion.
 * Answers the user as they were (for user.deleted), or null when there was none.
 */
export async function deleteUserAndOwnedRows(db: DB, userId: string): Promise<User | null> {
  await db.deleteFrom("verification").where("value", "=", userId).execute();
  await db.deleteFrom("session").where("userId", "=", userId).execute();
  await db.deleteFrom("account").where("userId", "=", userId).execute();
  await db.deleteFrom("teamMember").where("userId", "=", userId).execute();
  await db.deleteFrom("member").where("userId", "=", userId).execute();
  await db.deleteFrom("scimGroupMember").where("userId", "=", userId).execute();
  await db.deleteFrom("scimUser").where("userId", "=", userId).execute();
  const row = await db.deleteFrom("user").where("id", "=", userId).returningAll().executeTakeFirst();
  return row ? mapUser(row) : null;
}

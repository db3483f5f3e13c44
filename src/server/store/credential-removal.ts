import type { DB } from "./database.js";

/**
 * Removes every way into the account but its sessions (which the caller revokes, for their webhooks):
 * password and linked provider accounts, passkeys, two-factor secret and pending challenges, and the
 * user's one-time values (trusted devices, reset and other mailed tokens). Two-factor is switched off.
 * Pass the transaction of the takeover that needs it.
 */
export async function deleteEveryCredential(db: DB, userId: string, now: Date): Promise<void> {
  await db.deleteFrom("account").where("userId", "=", userId).execute();
  await db.deleteFrom("passkey").where("userId", "=", userId).execute();
  await db.deleteFrom("twoFactor").where("userId", "=", userId).execute();
  await db.deleteFrom("twoFactorChallenge").where("userId", "=", userId).execute();
  await db.deleteFrom("verification").where("value", "=", userId).execute();
  await db.updateTable("user").set({ twoFactorEnabled: false, updatedAt: now }).where("id", "=", userId).execute();
}

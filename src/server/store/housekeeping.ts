import type { DB } from "./database.js";

/** Sessions past their expiry; answers how many went. */
export async function deleteExpiredSessions(db: DB, now: Date): Promise<number> {
  const result = await db.deleteFrom("session").where("expiresAt", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** One-time values (links, codes) past their expiry. */
export async function deleteExpiredVerifications(db: DB, now: Date): Promise<number> {
  const result = await db.deleteFrom("verification").where("expiresAt", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Delivered mail sent before `before` (unsent mail stays for its retries). */
export async function deleteSentMailBefore(db: DB, before: Date): Promise<number> {
  const result = await db.deleteFrom("outbox").where("sentAt", "<=", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

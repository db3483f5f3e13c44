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

/** Webhook deliveries delivered before `delivered`, or given up before `failed` (pending ones stay). */
export async function deleteFinishedWebhookDeliveries(
  db: DB,
  before: { delivered: Date; failed: Date },
): Promise<number> {
  const result = await db
    .deleteFrom("webhookDelivery")
    .where((eb) => eb.or([eb("deliveredAt", "<=", before.delivered), eb("failedAt", "<=", before.failed)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

import type { DB } from "./db.js";
import { toDateOrNull } from "./values.js";

/** What an outbox still has to deliver: rows waiting, and when the oldest of them was queued. */
export interface OutboxBacklog {
  pending: number;
  oldestCreatedAt: Date | null;
}

function backlogOf(row: { pending: number | string | bigint; oldest: unknown } | undefined): OutboxBacklog {
  return {
    pending: Number(row?.pending ?? 0),
    oldestCreatedAt: toDateOrNull(row?.oldest as Date | string | number | null | undefined),
  };
}

/** Mail not yet sent (retries included); the pending index (sentAt, nextAttemptAt) finds the rows. */
export async function mailBacklog(db: DB): Promise<OutboxBacklog> {
  const row = await db
    .selectFrom("outbox")
    .select((eb) => [eb.fn.countAll<number>().as("pending"), eb.fn.min("createdAt").as("oldest")])
    .where("sentAt", "is", null)
    .executeTakeFirst();
  return backlogOf(row);
}

/** Webhook deliveries neither delivered nor given up; found through webhookDelivery_pending_idx. */
export async function webhookBacklog(db: DB): Promise<OutboxBacklog> {
  const row = await db
    .selectFrom("webhookDelivery")
    .select((eb) => [eb.fn.countAll<number>().as("pending"), eb.fn.min("createdAt").as("oldest")])
    .where("deliveredAt", "is", null)
    .where("failedAt", "is", null)
    .executeTakeFirst();
  return backlogOf(row);
}

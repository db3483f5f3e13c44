import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/** Webhook deliveries waiting, delivered or given up (webhooks/outbox.ts); one row per event and endpoint. */
export function webhooksMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("webhookDelivery")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("url", "text", (c) => c.notNull())
        .addColumn("eventType", "text", (c) => c.notNull())
        .addColumn("payload", "text", (c) => c.notNull())
        .addColumn("attempts", t.integer, (c) => c.notNull().defaultTo(0))
        .addColumn("lastError", "text")
        .addColumn("nextAttemptAt", t.timestamp, (c) => c.notNull())
        .addColumn("deliveredAt", t.timestamp)
        .addColumn("failedAt", t.timestamp)
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .execute();
      // The worker's "what is due" and housekeeping's "delivered before" both start from deliveredAt.
      await db.schema
        .createIndex("webhookDelivery_pending_idx")
        .on("webhookDelivery")
        .columns(["deliveredAt", "failedAt", "nextAttemptAt"])
        .execute();
    },
  };
}

import type { Kysely, Migration } from "kysely";

/** The per-recipient mail cap counts an address's recent mail: one index range instead of a scan. */
export function outboxRecipientIndexMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex("outbox_to_createdAt_idx").on("outbox").columns(["to", "createdAt"]).execute();
    },
  };
}

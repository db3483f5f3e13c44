import { type Kysely, type Migration, sql } from "kysely";

/**
 * Housekeeping prunes in small batches, the longest expired first (store/housekeeping.ts): each
 * batch is a range of an index on the column that says a row is done. Sessions had none on their
 * expiry, and given-up webhook deliveries none on failedAt (the pending index leads with deliveredAt).
 * On PostgreSQL, creating these on a large session table blocks session writes while it builds
 * (docs/deployment.md, Migrations).
 */
export function pruningIndexesMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // ifNotExists: an operator may have built it beforehand, CONCURRENTLY (docs/deployment.md).
      await db.schema.createIndex("session_expiresAt_idx").ifNotExists().on("session").column("expiresAt").execute();
      await db.schema
        .createIndex("webhookDelivery_failedAt_idx")
        .ifNotExists()
        .on("webhookDelivery")
        .column("failedAt")
        .where(sql.ref("failedAt"), "is not", null)
        .execute();
    },
  };
}

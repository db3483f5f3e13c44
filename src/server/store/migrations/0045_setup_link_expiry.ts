import type { Kysely, Migration } from "kysely";

/**
 * Housekeeping prunes setup links a month after they expired (issue 54; docs/sso.md): an index on
 * expiresAt lets each batch find them without reading the table. A revoked link expires too (a
 * week at most after it was made), so it goes the same way.
 */
export function setupLinkExpiryMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex("setupLink_expiresAt_idx").on("setupLink").column("expiresAt").execute();
    },
  };
}

import type { Kysely, Migration } from "kysely";

/**
 * Housekeeping prunes API keys a month after they expired (issue 53; docs/api-keys.md): an index on
 * expiresAt lets each batch find them without reading the table. Their seen addresses go with them.
 */
export function apiKeyExpiryMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex("apiKey_expiresAt_idx").on("apiKey").column("expiresAt").execute();
    },
  };
}

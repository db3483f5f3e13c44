import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/**
 * A directory connection's recent refusals (issue 54, sync health): what the directory sent that
 * was refused, with the SCIM message it got. Kept per connection (organization and provider id, so a
 * token rotation keeps them), at most the newest few: services/scim-health.ts prunes on each insert.
 * A successful call writes nothing here.
 */
export function scimErrorsMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("scimError")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("organizationId", "text", (c) => c.notNull().references("organization.id").onDelete("cascade"))
        .addColumn("providerId", "text", (c) => c.notNull())
        .addColumn("method", "text", (c) => c.notNull())
        .addColumn("path", "text", (c) => c.notNull())
        .addColumn("status", t.integer, (c) => c.notNull())
        .addColumn("scimType", "text")
        .addColumn("detail", "text", (c) => c.notNull())
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("scimError_connection_idx")
        .on("scimError")
        .columns(["organizationId", "providerId", "createdAt"])
        .execute();
    },
  };
}

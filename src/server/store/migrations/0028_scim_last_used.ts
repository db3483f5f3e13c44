import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/**
 * When a SCIM connection's token last authenticated a directory call: owners read it as the last
 * sync. Written at most once a minute per connection (services/scim-connections.ts).
 */
export function scimLastUsedMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("scimProvider").addColumn("lastUsedAt", t.timestamp).execute();
    },
  };
}

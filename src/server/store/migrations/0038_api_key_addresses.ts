import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/**
 * The addresses each API key has been used from (docs/api-keys.md, "Audit"): a key's first use from
 * an address is audited once, on whichever instance claims the row first (its primary key decides);
 * the row goes with its key.
 */
export function apiKeyAddressesMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("apiKeyAddress")
        .addColumn("apiKeyId", "text", (c) => c.notNull().references("apiKey.id").onDelete("cascade"))
        .addColumn("address", "text", (c) => c.notNull())
        .addColumn("firstSeenAt", t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint("apiKeyAddress_pk", ["apiKeyId", "address"])
        .execute();
    },
  };
}

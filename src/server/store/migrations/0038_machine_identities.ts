import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/**
 * Machine identities (issue 53; docs/api-keys.md). The addresses each API key has been used from: a
 * key's first use from an address is audited once, on whichever instance claims the row first (its
 * primary key decides); the row goes with its key. And an OAuth client's last token (lastUsedAt,
 * written at most once a minute), shown beside keys' last use.
 */
export function machineIdentitiesMigration(dialect: DialectName): Migration {
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
      await db.schema.alterTable("oauthClient").addColumn("lastUsedAt", t.timestamp).execute();
    },
  };
}

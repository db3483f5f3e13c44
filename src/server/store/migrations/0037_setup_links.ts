import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/**
 * Setup links (issue 54; docs/sso.md, "Let the customer set it up"): an owner hands a customer's IT
 * admin a link that may configure some of one organization's enterprise objects until it expires.
 * Only the digest of its secret is kept; `scopes` is a JSON array of what it may configure.
 */
export function setupLinksMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("setupLink")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("organizationId", "text", (c) => c.notNull().references("organization.id").onDelete("cascade"))
        .addColumn("secretHash", "text", (c) => c.notNull())
        .addColumn("scopes", "text", (c) => c.notNull())
        .addColumn("label", "text")
        // Who made it (null: auth.api without a session); a record, like organizationWebhook's.
        .addColumn("createdBy", "text")
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addColumn("expiresAt", t.timestamp, (c) => c.notNull())
        .addColumn("revokedAt", t.timestamp)
        .addColumn("revokedBy", "text")
        .addColumn("lastUsedAt", t.timestamp)
        .execute();
      await db.schema.createIndex("setupLink_organizationId_idx").on("setupLink").column("organizationId").execute();
    },
  };
}

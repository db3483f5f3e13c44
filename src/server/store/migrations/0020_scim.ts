import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/**
 * SCIM connections and the people each provisioned (docs/scim.md). A connection's token is kept as
 * its SHA-256 digest only. `scimUser` is the directory's claim on a user inside one organization:
 * a token sees and changes only the users it holds a row for.
 */
export function scimMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("scimProvider")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("providerId", "text", (c) => c.notNull().unique())
        .addColumn("organizationId", "text", (c) => c.notNull().references("organization.id").onDelete("cascade"))
        .addColumn("tokenHash", "text", (c) => c.notNull().unique())
        .addColumn("linkExistingMembers", t.boolean, (c) => c.notNull().defaultTo(false))
        .addColumn("createdBy", "text")
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("scimProvider_organizationId_idx")
        .on("scimProvider")
        .column("organizationId")
        .execute();
      await db.schema
        .createTable("scimUser")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("organizationId", "text", (c) => c.notNull().references("organization.id").onDelete("cascade"))
        .addColumn("providerId", "text", (c) => c.notNull())
        .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
        .addColumn("userName", "text", (c) => c.notNull())
        .addColumn("externalId", "text")
        // Whether this link created the account: only then may the directory change its email.
        .addColumn("createdUser", t.boolean, (c) => c.notNull().defaultTo(false))
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
        .addUniqueConstraint("scimUser_connection_user_key", ["organizationId", "providerId", "userId"])
        .execute();
      await db.schema
        .createIndex("scimUser_externalId_idx")
        .on("scimUser")
        .columns(["organizationId", "providerId", "externalId"])
        .execute();
      await db.schema.createIndex("scimUser_userId_idx").on("scimUser").column("userId").execute();
    },
  };
}

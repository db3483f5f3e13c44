import { type Kysely, type Migration, sql } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/**
 * API keys (docs/api-keys.md): owned by an organization or by a user, kept as the SHA-256 digest of
 * the key (the key is random and long, so a slow hash adds nothing), found by that digest. An
 * organization's keys go with it; a user's keys go with the user. `createdBy` outlives its user: an
 * organization's key keeps working when the person who made it leaves.
 */
export function apiKeysMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("apiKey")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("keyHash", "text", (c) => c.notNull().unique())
        // After a rotation: the replaced key's digest, valid until previousKeyExpiresAt (the grace period).
        .addColumn("previousKeyHash", "text", (c) => c.unique())
        .addColumn("previousKeyExpiresAt", t.timestamp)
        .addColumn("name", "text")
        .addColumn("start", "text")
        .addColumn("prefix", "text")
        // The owner: an organization's id or a user's id (better-auth's referenceId).
        .addColumn("organizationId", "text", (c) => c.references("organization.id").onDelete("cascade"))
        .addColumn("userId", "text", (c) => c.references("user.id").onDelete("cascade"))
        .addColumn("createdBy", "text", (c) => c.references("user.id").onDelete("set null"))
        .addColumn("enabled", t.boolean, (c) => c.notNull().defaultTo(true))
        .addColumn("rateLimitEnabled", t.boolean, (c) => c.notNull().defaultTo(true))
        .addColumn("rateLimitTimeWindow", t.integer)
        .addColumn("rateLimitMax", t.integer)
        // A JSON object of resource -> actions, or null (the key asserts no permission).
        .addColumn("permissions", "text")
        .addColumn("metadata", "text")
        .addColumn("expiresAt", t.timestamp)
        .addColumn("lastRequest", t.timestamp)
        // A JSON array of the latest addresses the key was used from (a new one is audited).
        .addColumn("knownAddresses", "text")
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
        .addCheckConstraint("apiKey_one_owner", sql`("organizationId" is null) <> ("userId" is null)`)
        .execute();
      await db.schema.createIndex("apiKey_organizationId_idx").on("apiKey").column("organizationId").execute();
      await db.schema.createIndex("apiKey_userId_idx").on("apiKey").column("userId").execute();
    },
  };
}

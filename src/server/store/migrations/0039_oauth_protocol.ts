import { type Kysely, type Migration, sql } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/**
 * OAuth provider protocol parts (docs/oauth-provider.md): opaque access tokens on request (a
 * client's format; their digests), clients known by a Client ID Metadata
 * Document (the row is the cache every instance shares, fresh until `metadataDocumentExpiresAt`),
 * back-channel logout (the client's URI; the session a code and its grant came from, whose end is
 * told to the client; the deliveries waiting or retried).
 */
export function oauthProtocolMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("oauthClient").addColumn("metadataDocumentExpiresAt", t.timestamp).execute();
      await db.schema.alterTable("oauthClient").addColumn("backchannelLogoutUri", "text").execute();
      // "jwt" (RFC 9068) or "opaque": a random string whose digest is kept in oauthAccessToken.
      await db.schema
        .alterTable("oauthClient")
        .addColumn("accessTokenFormat", "text", (c) => c.notNull().defaultTo("jwt"))
        .execute();
      await db.schema
        .createTable("oauthAccessToken")
        .addColumn("tokenHash", "text", (c) => c.primaryKey())
        .addColumn("grantId", "text", (c) => c.notNull().references("oauthGrant.id").onDelete("cascade"))
        .addColumn("scopes", "text", (c) => c.notNull())
        // JSON array: what a JWT's aud would say.
        .addColumn("audience", "text", (c) => c.notNull())
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addColumn("expiresAt", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("oauthAccessToken_grantId_idx").on("oauthAccessToken").column("grantId").execute();
      await db.schema
        .createIndex("oauthAccessToken_expiresAt_idx")
        .on("oauthAccessToken")
        .column("expiresAt")
        .execute();
      await db.schema.alterTable("oauthCode").addColumn("sessionId", "text").execute();
      await db.schema.alterTable("oauthGrant").addColumn("sessionId", "text").execute();
      await db.schema.createIndex("oauthGrant_sessionId_idx").on("oauthGrant").column("sessionId").execute();
      await db.schema
        .createTable("oauthLogoutDelivery")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("clientId", "text", (c) => c.notNull().references("oauthClient.clientId").onDelete("cascade"))
        .addColumn("userId", "text", (c) => c.notNull())
        .addColumn("sessionId", "text", (c) => c.notNull())
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("nextAttemptAt", t.timestamp, (c) => c.notNull())
        .addColumn("deliveredAt", t.timestamp)
        .addColumn("failedAt", t.timestamp)
        .addColumn("lastError", "text")
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .execute();
      // As the webhook outbox's: the worker's "what is due" and housekeeping's "delivered before"
      // start from deliveredAt; given-up rows are pruned through failedAt.
      await db.schema
        .createIndex("oauthLogoutDelivery_pending_idx")
        .on("oauthLogoutDelivery")
        .columns(["deliveredAt", "failedAt", "nextAttemptAt"])
        .execute();
      await db.schema
        .createIndex("oauthLogoutDelivery_failedAt_idx")
        .on("oauthLogoutDelivery")
        .column("failedAt")
        .where(sql.ref("failedAt"), "is not", null)
        .execute();
    },
  };
}

import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/**
 * The OAuth provider (docs/oauth-provider.md): clients, authorization codes, grants, refresh tokens
 * and consents. Client secrets, codes and refresh tokens are kept as SHA-256 digests only. A grant
 * is what one authorization (or client-credentials issue) gave: its refresh tokens rotate within it,
 * and revoking it ends every token it issued.
 */
export function oauthProviderMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("oauthClient")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("clientId", "text", (c) => c.notNull().unique())
        .addColumn("clientSecretHash", "text")
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("tokenEndpointAuthMethod", "text", (c) => c.notNull())
        // JSON arrays.
        .addColumn("redirectUris", "text", (c) => c.notNull())
        .addColumn("postLogoutRedirectUris", "text", (c) => c.notNull())
        .addColumn("grantTypes", "text", (c) => c.notNull())
        .addColumn("scopes", "text", (c) => c.notNull())
        .addColumn("clientUri", "text")
        .addColumn("logoUri", "text")
        .addColumn("skipConsent", t.boolean, (c) => c.notNull().defaultTo(false))
        .addColumn("disabled", t.boolean, (c) => c.notNull().defaultTo(false))
        .addColumn("organizationId", "text", (c) => c.references("organization.id").onDelete("cascade"))
        // A personal client's owner: it goes with their account. An organization's client has none.
        .addColumn("userId", "text", (c) => c.references("user.id").onDelete("cascade"))
        // Who registered it: an organization's client outlives its creator's account.
        .addColumn("createdBy", "text", (c) => c.references("user.id").onDelete("set null"))
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("oauthClient_organizationId_idx")
        .on("oauthClient")
        .column("organizationId")
        .execute();
      await db.schema.createIndex("oauthClient_userId_idx").on("oauthClient").column("userId").execute();

      await db.schema
        .createTable("oauthGrant")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("clientId", "text", (c) => c.notNull().references("oauthClient.clientId").onDelete("cascade"))
        // Null for client credentials: the client acts for itself.
        .addColumn("userId", "text", (c) => c.references("user.id").onDelete("cascade"))
        .addColumn("scopes", "text", (c) => c.notNull())
        .addColumn("resource", "text")
        .addColumn("authTime", t.timestamp)
        .addColumn("nonce", "text")
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addColumn("expiresAt", t.timestamp, (c) => c.notNull())
        .addColumn("revokedAt", t.timestamp)
        .execute();
      await db.schema
        .createIndex("oauthGrant_client_user_idx")
        .on("oauthGrant")
        .columns(["clientId", "userId"])
        .execute();
      await db.schema.createIndex("oauthGrant_userId_idx").on("oauthGrant").column("userId").execute();
      // Housekeeping prunes by expiry through these (store/housekeeping.ts).
      await db.schema.createIndex("oauthGrant_expiresAt_idx").on("oauthGrant").column("expiresAt").execute();

      await db.schema
        .createTable("oauthCode")
        .addColumn("codeHash", "text", (c) => c.primaryKey())
        .addColumn("clientId", "text", (c) => c.notNull().references("oauthClient.clientId").onDelete("cascade"))
        .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
        .addColumn("redirectUri", "text", (c) => c.notNull())
        .addColumn("scopes", "text", (c) => c.notNull())
        .addColumn("resource", "text")
        .addColumn("codeChallenge", "text")
        .addColumn("nonce", "text")
        .addColumn("authTime", t.timestamp, (c) => c.notNull())
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addColumn("expiresAt", t.timestamp, (c) => c.notNull())
        // Set by the one exchange that wins; a replay then revokes the grant it made.
        .addColumn("usedAt", t.timestamp)
        .addColumn("grantId", "text")
        .execute();
      await db.schema.createIndex("oauthCode_expiresAt_idx").on("oauthCode").column("expiresAt").execute();

      await db.schema
        .createTable("oauthRefreshToken")
        .addColumn("tokenHash", "text", (c) => c.primaryKey())
        .addColumn("grantId", "text", (c) => c.notNull().references("oauthGrant.id").onDelete("cascade"))
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addColumn("expiresAt", t.timestamp, (c) => c.notNull())
        // Set by the one refresh that rotates it; a later use is a replay.
        .addColumn("usedAt", t.timestamp)
        .execute();
      await db.schema.createIndex("oauthRefreshToken_grantId_idx").on("oauthRefreshToken").column("grantId").execute();
      await db.schema
        .createIndex("oauthRefreshToken_expiresAt_idx")
        .on("oauthRefreshToken")
        .column("expiresAt")
        .execute();

      await db.schema
        .createTable("oauthDeviceCode")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("deviceCodeHash", "text", (c) => c.notNull().unique())
        // The user code's digest: few characters, so never kept as typed.
        .addColumn("userCodeHash", "text", (c) => c.notNull().unique())
        .addColumn("clientId", "text", (c) => c.notNull().references("oauthClient.clientId").onDelete("cascade"))
        .addColumn("scopes", "text", (c) => c.notNull())
        .addColumn("resource", "text")
        // pending | approved | denied
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("userId", "text", (c) => c.references("user.id").onDelete("cascade"))
        .addColumn("authTime", t.timestamp)
        .addColumn("intervalSeconds", "integer", (c) => c.notNull())
        .addColumn("lastPolledAt", t.timestamp)
        .addColumn("usedAt", t.timestamp)
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addColumn("expiresAt", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("oauthDeviceCode_expiresAt_idx").on("oauthDeviceCode").column("expiresAt").execute();

      await db.schema
        .createTable("oauthConsent")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
        .addColumn("clientId", "text", (c) => c.notNull().references("oauthClient.clientId").onDelete("cascade"))
        .addColumn("scopes", "text", (c) => c.notNull())
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
        .addUniqueConstraint("oauthConsent_user_client_key", ["userId", "clientId"])
        .execute();
    },
  };
}

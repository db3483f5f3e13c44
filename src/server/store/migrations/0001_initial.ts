import { type Kysely, type Migration, sql } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/** Every table of SPEC section 3, with the keys and indexes the queries need. */
export function initialMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  const falseDefault = dialect === "postgres" ? sql`false` : sql`0`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("user")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("email", "text", (c) => c.notNull())
        .addColumn("emailVerified", t.boolean, (c) => c.notNull().defaultTo(falseDefault))
        .addColumn("image", "text")
        .addColumn("isAnonymous", t.boolean, (c) => c.notNull().defaultTo(falseDefault))
        .addColumn("role", "text")
        .addColumn("banned", t.boolean, (c) => c.notNull().defaultTo(falseDefault))
        .addColumn("banReason", "text")
        .addColumn("banExpires", t.timestamp)
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
        .execute();
      // Emails are stored lowercased; the expression index makes the rule hold even if a writer forgets.
      await db.schema.createIndex("user_email_lower_key").on("user").unique().expression(sql`lower(email)`).execute();

      await db.schema
        .createTable("session")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("tokenHash", "text", (c) => c.notNull().unique())
        .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
        .addColumn("expiresAt", t.timestamp, (c) => c.notNull())
        .addColumn("ipAddress", "text")
        .addColumn("userAgent", "text")
        .addColumn("activeOrganizationId", "text")
        .addColumn("activeTeamId", "text")
        .addColumn("impersonatedBy", "text")
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("session_userId_idx").on("session").column("userId").execute();

      await db.schema
        .createTable("account")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("accountId", "text", (c) => c.notNull())
        .addColumn("providerId", "text", (c) => c.notNull())
        .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
        .addColumn("accessToken", "text")
        .addColumn("refreshToken", "text")
        .addColumn("idToken", "text")
        .addColumn("accessTokenExpiresAt", t.timestamp)
        .addColumn("refreshTokenExpiresAt", t.timestamp)
        .addColumn("scope", "text")
        .addColumn("password", "text")
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
        .addUniqueConstraint("account_provider_account_key", ["providerId", "accountId"])
        .execute();
      await db.schema.createIndex("account_userId_idx").on("account").column("userId").execute();

      await db.schema
        .createTable("verification")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("identifier", "text", (c) => c.notNull().unique())
        .addColumn("value", "text", (c) => c.notNull())
        .addColumn("expiresAt", t.timestamp, (c) => c.notNull())
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("verification_expiresAt_idx").on("verification").column("expiresAt").execute();

      await db.schema
        .createTable("organization")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("slug", "text", (c) => c.notNull().unique())
        .addColumn("logo", "text")
        .addColumn("metadata", "text")
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("team")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("organizationId", "text", (c) => c.notNull().references("organization.id").onDelete("cascade"))
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addColumn("updatedAt", t.timestamp)
        .execute();
      await db.schema.createIndex("team_organizationId_idx").on("team").column("organizationId").execute();

      await db.schema
        .createTable("member")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("organizationId", "text", (c) => c.notNull().references("organization.id").onDelete("cascade"))
        .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
        .addColumn("role", "text", (c) => c.notNull().defaultTo("member"))
        .addColumn("teamId", "text")
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addUniqueConstraint("member_organization_user_key", ["organizationId", "userId"])
        .execute();
      await db.schema.createIndex("member_userId_idx").on("member").column("userId").execute();

      await db.schema
        .createTable("invitation")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("organizationId", "text", (c) => c.notNull().references("organization.id").onDelete("cascade"))
        .addColumn("email", "text", (c) => c.notNull())
        .addColumn("role", "text")
        .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
        .addColumn("teamId", "text")
        .addColumn("inviterId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
        .addColumn("expiresAt", t.timestamp, (c) => c.notNull())
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("invitation_organizationId_status_idx")
        .on("invitation")
        .columns(["organizationId", "status"])
        .execute();
      await db.schema.createIndex("invitation_email_idx").on("invitation").column("email").execute();

      await db.schema
        .createTable("teamMember")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("teamId", "text", (c) => c.notNull().references("team.id").onDelete("cascade"))
        .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addUniqueConstraint("teamMember_team_user_key", ["teamId", "userId"])
        .execute();
      await db.schema.createIndex("teamMember_userId_idx").on("teamMember").column("userId").execute();

      await db.schema
        .createTable("jwks")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("publicKey", "text", (c) => c.notNull())
        .addColumn("privateKey", "text", (c) => c.notNull())
        .addColumn("alg", "text")
        .addColumn("crv", "text")
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addColumn("expiresAt", t.timestamp)
        .execute();

      await db.schema
        .createTable("outbox")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("to", "text", (c) => c.notNull())
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("text", "text", (c) => c.notNull())
        .addColumn("html", "text", (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("attempts", t.integer, (c) => c.notNull().defaultTo(0))
        .addColumn("lastError", "text")
        .addColumn("nextAttemptAt", t.timestamp, (c) => c.notNull())
        .addColumn("sentAt", t.timestamp)
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("outbox_pending_idx").on("outbox").columns(["sentAt", "nextAttemptAt"]).execute();
    },
  };
}

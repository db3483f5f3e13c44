import { type Kysely, type Migration, sql } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/**
 * Enterprise single sign-on (docs/sso.md): an organization's OpenID Connect connections, and the
 * email domains each claims. A domain routes sign-ins only once a DNS TXT record proved it; at most
 * one connection holds a domain verified (the partial unique index decides a race), while any number
 * may claim it unverified, so a claim alone blocks nobody.
 */
export function ssoMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  const falseDefault = dialect === "postgres" ? sql`false` : sql`0`;
  const trueValue = dialect === "postgres" ? sql`true` : sql`1`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("ssoProvider")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("providerId", "text", (c) => c.notNull().unique())
        .addColumn("organizationId", "text", (c) => c.notNull().references("organization.id").onDelete("cascade"))
        .addColumn("userId", "text", (c) => c.references("user.id").onDelete("set null"))
        .addColumn("issuer", "text", (c) => c.notNull())
        .addColumn("clientId", "text", (c) => c.notNull())
        .addColumn("clientSecret", "text", (c) => c.notNull())
        .addColumn("scopes", "text", (c) => c.notNull())
        .addColumn("mapping", "text", (c) => c.notNull())
        .addColumn("defaultRole", "text", (c) => c.notNull())
        .addColumn("roleMapping", "text")
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("ssoProvider_organizationId_idx")
        .on("ssoProvider")
        .column("organizationId")
        .execute();
      await db.schema
        .createTable("ssoDomain")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("providerId", "text", (c) => c.notNull().references("ssoProvider.id").onDelete("cascade"))
        .addColumn("domain", "text", (c) => c.notNull())
        .addColumn("verified", t.boolean, (c) => c.notNull().defaultTo(falseDefault))
        .addColumn("verificationToken", "text")
        .addColumn("tokenExpiresAt", t.timestamp)
        .addColumn("verifiedAt", t.timestamp)
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("ssoDomain_providerId_domain_idx")
        .on("ssoDomain")
        .columns(["providerId", "domain"])
        .unique()
        .execute();
      await db.schema
        .createIndex("ssoDomain_verified_domain_idx")
        .on("ssoDomain")
        .column("domain")
        .unique()
        .where(sql.ref("verified"), "=", trueValue)
        .execute();
    },
  };
}

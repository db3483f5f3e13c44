import { type Kysely, type Migration, sql } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/**
 * Tenant boundaries (issue 48; docs/security.md, "Enterprise objects"): the SSO connection that signed
 * a session (or a pending second-factor challenge) in; a connection's staged change of who asserts
 * identity; the issuer each domain was proven for (domains verified before keep their connection's).
 */
export function tenantBoundariesMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("session").addColumn("signInProviderId", "text").execute();
      await db.schema.alterTable("twoFactorChallenge").addColumn("signInProviderId", "text").execute();
      await db.schema.alterTable("ssoProvider").addColumn("pendingChange", "text").execute();
      await db.schema.alterTable("ssoProvider").addColumn("pendingChangeBy", "text").execute();
      await db.schema.alterTable("ssoProvider").addColumn("pendingChangeAt", t.timestamp).execute();
      await db.schema.alterTable("ssoDomain").addColumn("provenIssuer", "text").execute();
      await sql`UPDATE "ssoDomain" SET "provenIssuer" = (SELECT "issuer" FROM "ssoProvider" WHERE "ssoProvider"."id" = "ssoDomain"."providerId") WHERE "verified" = ${sql.lit(dialect === "sqlite" ? 1 : true)}`.execute(
        db,
      );
    },
  };
}

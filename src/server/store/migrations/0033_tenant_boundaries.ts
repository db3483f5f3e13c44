import { type Kysely, type Migration, sql } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/**
 * Tenant boundaries (issue 48, docs/security.md "Enterprise objects"):
 * - which SSO connection signed a session in: an organization that requires SSO accepts only sessions
 *   from its own connections (a pending second-factor challenge carries it to the session it makes);
 * - a connection's change of who asserts identity waits, staged, until an owner confirms it;
 * - the issuer (or SAML entity id) a domain was proven for: a new one signs in nobody who already
 *   exists until the domain is proven again. Domains verified before keep their connection's issuer.
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

import type { Kysely, Migration } from "kysely";

/**
 * Which SSO connection signed a session in (docs/organization-policy.md, "Enforced single sign-on"):
 * an organization that requires SSO accepts only sessions from its own connections. A pending
 * second-factor challenge carries it to the session it makes.
 */
export function signInProviderMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("session").addColumn("signInProviderId", "text").execute();
      await db.schema.alterTable("twoFactorChallenge").addColumn("signInProviderId", "text").execute();
    },
  };
}

import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/**
 * Organization policy (docs/organization-policy.md): the rules an organization's owners set for its
 * members, one row per organization holding the rules as JSON text (read whole, never queried by
 * part). A session records how it was signed in and when it last acted in an organization with an
 * idle timeout; a pending second-factor challenge carries the sign-in method to the session it makes.
 */
export function organizationPolicyMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("organizationPolicy")
        .addColumn("organizationId", "text", (c) => c.primaryKey().references("organization.id").onDelete("cascade"))
        .addColumn("rules", "text", (c) => c.notNull())
        .addColumn("updatedBy", "text", (c) => c.references("user.id").onDelete("set null"))
        .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.alterTable("session").addColumn("signInMethod", "text").execute();
      await db.schema.alterTable("session").addColumn("lastActiveAt", t.timestamp).execute();
      await db.schema.alterTable("twoFactorChallenge").addColumn("signInMethod", "text").execute();
    },
  };
}

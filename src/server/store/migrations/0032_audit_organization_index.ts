import { type Kysely, type Migration, sql } from "kysely";

/**
 * An organization's trail is read by organization, and account events (sign-ins, sessions, profile
 * changes: most of the trail) name none. The organization index now leaves them out: an entry
 * without an organization writes one index page fewer at its commit (what a page costs a SQLite
 * commit: bench/README.md, "Audited writes in one statement"), and the index holds only what its
 * read can find. `organizationId = ?` implies the index's condition, so
 * that read keeps it (test/index-plans.test.ts).
 */
export function auditOrganizationIndexMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // ifNotExists: an operator may have built it beforehand, CONCURRENTLY (docs/deployment.md).
      await db.schema
        .createIndex("auditTrail_organizationId_partial_idx")
        .ifNotExists()
        .on("auditTrail")
        .columns(["organizationId", "seq"])
        .where(sql.ref("organizationId"), "is not", null)
        .execute();
      await db.schema.dropIndex("auditTrail_organizationId_seq_idx").ifExists().execute();
    },
  };
}

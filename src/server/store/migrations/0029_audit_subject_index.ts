import type { Kysely, Migration } from "kysely";

/**
 * The security activity reads an account's sign-ins by the account they name (`subjectId`): a
 * refused one has no actor, since whoever typed the wrong password is unknown. Without this index
 * that read would walk the whole trail from its newest entry.
 */
export function auditSubjectIndexMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // ifNotExists: an operator may have built it beforehand, CONCURRENTLY (docs/deployment.md).
      await db.schema
        .createIndex("auditTrail_subjectId_seq_idx")
        .ifNotExists()
        .on("auditTrail")
        .columns(["subjectId", "seq"])
        .execute();
    },
  };
}

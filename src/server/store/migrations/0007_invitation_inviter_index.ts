import type { Kysely, Migration } from "kysely";

/** The per-inviter daily cap counts a user's recent invitations: one index range instead of a scan. */
export function invitationInviterIndexMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex("invitation_inviterId_createdAt_idx")
        .on("invitation")
        .columns(["inviterId", "createdAt"])
        .execute();
    },
  };
}

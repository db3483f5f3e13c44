import type { Kysely, Migration } from "kysely";

/**
 * Who invited a member (accept-invitation records the invitation's inviter); null for founders, members
 * added directly, and when the inviter's account is deleted. The index keeps that deletion's
 * "set null" from scanning every membership.
 */
export function memberInvitedByMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("member")
        .addColumn("invitedBy", "text", (c) => c.references("user.id").onDelete("set null"))
        .execute();
      await db.schema.createIndex("member_invitedBy_idx").on("member").column("invitedBy").execute();
    },
  };
}

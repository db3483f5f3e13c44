import { type Kysely, type Migration, sql } from "kysely";

/**
 * Indexes the organization routes need: list-members and list-invitations page in createdAt order
 * within one organization; one pending invitation per address and organization (so two parallel
 * invites cannot both create one); sessions found by the organization or team they point at (when
 * an organization or team is deleted). Partial indexes work on both SQLite and PostgreSQL.
 */
export function organizationIndexesMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex("member_organizationId_createdAt_idx")
        .on("member")
        .columns(["organizationId", "createdAt", "id"])
        .execute();
      await db.schema
        .createIndex("invitation_organizationId_createdAt_idx")
        .on("invitation")
        .columns(["organizationId", "createdAt"])
        .execute();
      await db.schema
        .createIndex("invitation_pending_email_key")
        .on("invitation")
        .columns(["organizationId", "email"])
        .unique()
        .where(sql.ref("status"), "=", "pending")
        .execute();
      await db.schema
        .createIndex("session_activeOrganizationId_idx")
        .on("session")
        .column("activeOrganizationId")
        .where(sql.ref("activeOrganizationId"), "is not", null)
        .execute();
      await db.schema
        .createIndex("session_activeTeamId_idx")
        .on("session")
        .column("activeTeamId")
        .where(sql.ref("activeTeamId"), "is not", null)
        .execute();
    },
  };
}

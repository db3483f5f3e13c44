import type { Member } from "../../contract/models.js";
import type { DB } from "./db.js";
import { mapMember } from "./members.js";

/** The organizations a user belongs to, with their member row and role. */
export function listUserMemberRows(db: DB, userId: string) {
  return db.selectFrom("member").select(["id", "organizationId", "role"]).where("userId", "=", userId).execute();
}

/** Hands a member row to another user (who is not yet a member of that organization). */
export async function reassignMemberRow(db: DB, memberId: string, userId: string): Promise<Member | null> {
  const row = await db
    .updateTable("member")
    .set({ userId })
    .where("id", "=", memberId)
    .returningAll()
    .executeTakeFirst();
  return row ? mapMember(row) : null;
}

/**
 * Moves a user's team memberships to another user, except in teams the other user is already in
 * (those rows go with the first user's deletion).
 */
export async function reassignTeamMemberships(db: DB, fromUserId: string, toUserId: string): Promise<void> {
  await db
    .updateTable("teamMember")
    .set({ userId: toUserId })
    .where("userId", "=", fromUserId)
    .where("teamId", "not in", db.selectFrom("teamMember").select("teamId").where("userId", "=", toUserId))
    .execute();
}

/** Invitations a user sent now name another user as their inviter. */
export async function reassignSentInvitations(db: DB, fromUserId: string, toUserId: string): Promise<void> {
  await db.updateTable("invitation").set({ inviterId: toUserId }).where("inviterId", "=", fromUserId).execute();
  // Those who accepted them were invited by the same person, now under the new account.
  await db.updateTable("member").set({ invitedBy: toUserId }).where("invitedBy", "=", fromUserId).execute();
}

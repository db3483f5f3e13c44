import type { Selectable } from "kysely";
import type { Invitation, InvitationStatus } from "../../contract/models.js";
import type { DB } from "./db.js";
import { countAll } from "./organizations.js";
import type { InvitationTable } from "./schema.js";
import { toDate } from "./values.js";

export type InvitationRow = Selectable<InvitationTable>;

export function mapInvitation(row: Omit<InvitationRow, "sendCount" | "lastSentAt">): Invitation {
  return {
    id: row.id,
    organizationId: row.organizationId,
    email: row.email,
    role: row.role,
    teamId: row.teamId,
    status: row.status as InvitationStatus,
    inviterId: row.inviterId,
    expiresAt: toDate(row.expiresAt),
    createdAt: toDate(row.createdAt),
  };
}

export async function insertInvitation(
  db: DB,
  inv: {
    id: string;
    organizationId: string;
    email: string;
    role: string;
    teamId: string | null;
    inviterId: string;
    expiresAt: Date;
    now: Date;
  },
): Promise<Invitation> {
  const row = await db
    .insertInto("invitation")
    .values({
      id: inv.id,
      organizationId: inv.organizationId,
      email: inv.email,
      role: inv.role,
      status: "pending",
      teamId: inv.teamId,
      inviterId: inv.inviterId,
      expiresAt: inv.expiresAt,
      createdAt: inv.now,
      lastSentAt: inv.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return mapInvitation(row);
}

export async function findInvitation(db: DB, id: string): Promise<Invitation | null> {
  const row = await db.selectFrom("invitation").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? mapInvitation(row) : null;
}

/** The pending invitation of an address to an organization (at most one: a partial unique index). */
export async function findPendingInvitation(db: DB, organizationId: string, email: string): Promise<Invitation | null> {
  const row = await db
    .selectFrom("invitation")
    .selectAll()
    .where("organizationId", "=", organizationId)
    .where("email", "=", email)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return row ? mapInvitation(row) : null;
}

export async function countPendingInvitations(db: DB, organizationId: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom("invitation")
    .select(countAll.as("n"))
    .where("organizationId", "=", organizationId)
    .where("status", "=", "pending")
    .where("expiresAt", ">", now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Moves a pending invitation to another status. Conditional on `status = 'pending'`, so of many
 * concurrent accepts exactly one sees a row come back.
 */
export async function transitionPendingInvitation(
  db: DB,
  id: string,
  status: Exclude<InvitationStatus, "pending">,
): Promise<Invitation | null> {
  const row = await db
    .updateTable("invitation")
    .set({ status })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .returningAll()
    .executeTakeFirst();
  return row ? mapInvitation(row) : null;
}

/**
 * Claims a resend of a pending invitation: renews it and counts one more mail, only if its last mail
 * went out at or before `lastSentBy` (the cooldown). Of parallel resends exactly one gets the row.
 */
export async function claimInvitationResend(
  db: DB,
  id: string,
  lastSentBy: Date,
  now: Date,
  patch: { expiresAt: Date; role?: string; teamId?: string | null; inviterId?: string },
): Promise<Invitation | null> {
  const row = await db
    .updateTable("invitation")
    .set((eb) => ({ ...patch, lastSentAt: now, sendCount: eb("sendCount", "+", 1) }))
    .where("id", "=", id)
    .where("status", "=", "pending")
    .where((eb) => eb.or([eb("lastSentAt", "is", null), eb("lastSentAt", "<=", lastSentBy)]))
    .returningAll()
    .executeTakeFirst();
  return row ? mapInvitation(row) : null;
}

/**
 * list-invitations in one round trip: the caller's membership row LEFT JOINed to every invitation
 * of the organization, newest first. Not a member -> no row.
 */
export async function listInvitationsForMember(
  db: DB,
  organizationId: string,
  userId: string,
): Promise<{ callerRole: string; invitations: Invitation[] } | null> {
  const rows = await db
    .selectFrom("member as caller")
    .leftJoin("invitation", "invitation.organizationId", "caller.organizationId")
    .select([
      "caller.role as callerRole",
      "invitation.id",
      "invitation.organizationId",
      "invitation.email",
      "invitation.role",
      "invitation.status",
      "invitation.teamId",
      "invitation.inviterId",
      "invitation.expiresAt",
      "invitation.createdAt",
    ])
    .where("caller.organizationId", "=", organizationId)
    .where("caller.userId", "=", userId)
    .orderBy("invitation.createdAt", "desc")
    .orderBy("invitation.id", "desc")
    .execute();
  const first = rows[0];
  if (!first) return null;
  const invitations = rows.flatMap((row) =>
    row.id === null
      ? []
      : [
          mapInvitation({
            id: row.id,
            organizationId: row.organizationId!,
            email: row.email!,
            role: row.role,
            status: row.status!,
            teamId: row.teamId,
            inviterId: row.inviterId!,
            expiresAt: row.expiresAt!,
            createdAt: row.createdAt!,
          }),
        ],
  );
  return { callerRole: first.callerRole, invitations };
}

/** Invitations of an organization, newest first (get-full-organization). */
export async function listOrganizationInvitations(db: DB, organizationId: string): Promise<Invitation[]> {
  const rows = await db
    .selectFrom("invitation")
    .selectAll()
    .where("organizationId", "=", organizationId)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map(mapInvitation);
}

/** One invitation with its organization and inviter (get-invitation), in one join. */
export async function findInvitationDetails(db: DB, id: string) {
  const row = await db
    .selectFrom("invitation")
    .innerJoin("organization", "organization.id", "invitation.organizationId")
    .innerJoin("user as inviter", "inviter.id", "invitation.inviterId")
    .leftJoin("member as inviterMember", (join) =>
      join
        .onRef("inviterMember.organizationId", "=", "invitation.organizationId")
        .onRef("inviterMember.userId", "=", "invitation.inviterId"),
    )
    .selectAll("invitation")
    .select([
      "organization.name as organizationName",
      "organization.slug as organizationSlug",
      "inviter.email as inviterEmail",
      "inviter.name as inviterName",
      "inviterMember.id as inviterMemberId",
    ])
    .where("invitation.id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  const { organizationName, organizationSlug, inviterEmail, inviterName, inviterMemberId, ...invitation } = row;
  return {
    invitation: mapInvitation(invitation),
    organizationName,
    organizationSlug,
    inviterEmail,
    inviterName,
    inviterIsMember: inviterMemberId !== null,
  };
}

/** The user's pending, unexpired invitations with their organization's name (one join). */
export async function listPendingInvitationsForEmail(db: DB, email: string, now: Date) {
  const rows = await db
    .selectFrom("invitation")
    .innerJoin("organization", "organization.id", "invitation.organizationId")
    .selectAll("invitation")
    .select(["organization.name as organizationName", "organization.slug as organizationSlug"])
    .where("invitation.email", "=", email)
    .where("invitation.status", "=", "pending")
    .where("invitation.expiresAt", ">", now)
    .orderBy("invitation.createdAt", "desc")
    .execute();
  return rows.map(({ organizationName, organizationSlug, ...inv }) => ({
    ...mapInvitation(inv),
    organizationName,
    organizationSlug,
  }));
}

/** Takes a removed team out of the pending invitations that name it (teamId is a comma list). */
export async function removeTeamFromPendingInvitations(db: DB, organizationId: string, teamId: string): Promise<void> {
  const rows = await db
    .selectFrom("invitation")
    .select(["id", "teamId"])
    .where("organizationId", "=", organizationId)
    .where("status", "=", "pending")
    .where("teamId", "like", `%${teamId}%`)
    .execute();
  for (const row of rows) {
    const rest = (row.teamId ?? "").split(",").filter((t) => t !== "" && t !== teamId);
    await db
      .updateTable("invitation")
      .set({ teamId: rest.length > 0 ? rest.join(",") : null })
      .where("id", "=", row.id)
      .execute();
  }
}

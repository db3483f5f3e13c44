import type { Selectable } from "kysely";
import type { Team, TeamMember } from "../../contract/models.js";
import type { DB } from "./db.js";
import { countAll } from "./organizations.js";
import type { TeamMemberTable, TeamTable } from "./schema.js";
import { toDate, toDateOrNull } from "./values.js";

export type TeamRow = Selectable<TeamTable>;

export function mapTeam(row: TeamRow): Team {
  return {
    id: row.id,
    name: row.name,
    organizationId: row.organizationId,
    createdAt: toDate(row.createdAt),
    updatedAt: toDateOrNull(row.updatedAt),
  };
}

export function mapTeamMember(row: Selectable<TeamMemberTable>): TeamMember {
  return {
    id: row.id,
    teamId: row.teamId,
    userId: row.userId,
    createdAt: toDate(row.createdAt),
    ...(row.role ? { role: row.role } : {}),
  };
}

export async function insertTeam(
  db: DB,
  team: { id: string; name: string; organizationId: string; now: Date },
): Promise<Team> {
  const row = await db
    .insertInto("team")
    .values({
      id: team.id,
      name: team.name,
      organizationId: team.organizationId,
      createdAt: team.now,
      updatedAt: team.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return mapTeam(row);
}

export async function findTeam(db: DB, id: string): Promise<Team | null> {
  const row = await db.selectFrom("team").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? mapTeam(row) : null;
}

/** Which of `ids` are teams of the organization. */
export async function findOrganizationTeams(db: DB, organizationId: string, ids: string[]): Promise<Team[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("team")
    .selectAll()
    .where("organizationId", "=", organizationId)
    .where("id", "in", ids)
    .execute();
  return rows.map(mapTeam);
}

export async function listTeams(db: DB, organizationId: string): Promise<Team[]> {
  const rows = await db
    .selectFrom("team")
    .selectAll()
    .where("organizationId", "=", organizationId)
    .orderBy("createdAt", "asc")
    .orderBy("id", "asc")
    .execute();
  return rows.map(mapTeam);
}

export async function countTeams(db: DB, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom("team")
    .select(countAll.as("n"))
    .where("organizationId", "=", organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateTeamRow(db: DB, id: string, patch: { name?: string }, now: Date): Promise<Team | null> {
  const row = await db
    .updateTable("team")
    .set({ ...patch, updatedAt: now })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
  return row ? mapTeam(row) : null;
}

export async function deleteTeamRow(db: DB, id: string): Promise<void> {
  await db.deleteFrom("teamMember").where("teamId", "=", id).execute();
  await db.deleteFrom("team").where("id", "=", id).execute();
}

export async function findTeamMember(db: DB, teamId: string, userId: string): Promise<TeamMember | null> {
  const row = await db
    .selectFrom("teamMember")
    .selectAll()
    .where("teamId", "=", teamId)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return row ? mapTeamMember(row) : null;
}

export async function insertTeamMember(
  db: DB,
  tm: { id: string; teamId: string; userId: string; now: Date; role?: string | null },
): Promise<TeamMember> {
  const row = await db
    .insertInto("teamMember")
    .values({ id: tm.id, teamId: tm.teamId, userId: tm.userId, createdAt: tm.now, role: tm.role ?? null })
    .returningAll()
    .executeTakeFirstOrThrow();
  return mapTeamMember(row);
}

/** Sets a member's role within the team (null: none); the row as it is now, or null when there is none. */
export async function setTeamMemberRole(
  db: DB,
  teamId: string,
  userId: string,
  role: string | null,
): Promise<TeamMember | null> {
  const row = await db
    .updateTable("teamMember")
    .set({ role })
    .where("teamId", "=", teamId)
    .where("userId", "=", userId)
    .returningAll()
    .executeTakeFirst();
  return row ? mapTeamMember(row) : null;
}

export async function countTeamMembers(db: DB, teamId: string): Promise<number> {
  const row = await db
    .selectFrom("teamMember")
    .select(countAll.as("n"))
    .where("teamId", "=", teamId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteTeamMember(db: DB, teamId: string, userId: string): Promise<number> {
  const result = await db
    .deleteFrom("teamMember")
    .where("teamId", "=", teamId)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function listTeamMembers(db: DB, teamId: string): Promise<TeamMember[]> {
  const rows = await db
    .selectFrom("teamMember")
    .selectAll()
    .where("teamId", "=", teamId)
    .orderBy("createdAt", "asc")
    .orderBy("id", "asc")
    .execute();
  return rows.map(mapTeamMember);
}

/** Teams the user is in, only in organizations they are still a member of; optionally one organization. */
export async function listUserTeams(db: DB, userId: string, organizationId?: string): Promise<Team[]> {
  let query = db
    .selectFrom("teamMember")
    .innerJoin("team", "team.id", "teamMember.teamId")
    .innerJoin("member", (join) =>
      join.onRef("member.organizationId", "=", "team.organizationId").onRef("member.userId", "=", "teamMember.userId"),
    )
    .selectAll("team")
    .where("teamMember.userId", "=", userId);
  if (organizationId !== undefined) query = query.where("team.organizationId", "=", organizationId);
  const rows = await query.orderBy("team.createdAt", "asc").orderBy("team.id", "asc").execute();
  return rows.map(mapTeam);
}

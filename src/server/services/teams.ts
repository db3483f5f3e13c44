import type { Member, Session, Team, TeamMember } from "../../contract/models.js";
import { auditChange, auditedChange } from "../audit/trail.service.js";
import type { AuthContext } from "../context.js";
import { newId } from "../crypto/random.js";
import { AuthError } from "../errors.js";
import { isUniqueViolation } from "../store/database.js";
import { removeTeamFromPendingInvitations } from "../store/invitations.js";
import { findMember } from "../store/members.js";
import { clearActiveTeam, lockOrganization, setSessionActive } from "../store/organizations.js";
import {
  countTeamMembers,
  countTeams,
  deleteTeamMember,
  deleteTeamRow,
  findTeam,
  findTeamMember,
  insertTeam,
  insertTeamMember,
  listTeamMembers as listTeamMemberRows,
  listTeams as listTeamRows,
  listUserTeams as listUserTeamRows,
  setTeamMemberRole,
  updateTeamRow,
} from "../store/teams.js";
import { memberAllowsInTeam, normalizeTeamRoles } from "./access-control.js";
import {
  type ActiveChange,
  callerAllows,
  keyPermits,
  requireCaller,
  requireMember,
  requireOrgPermission,
  requirePermission,
  resolveOrganizationId,
} from "./organization-access.js";

/**
 * Whether the member's organization role, or their role in this team, grants the request (team
 * roles, docs/configuration.md, "Team roles"). Without team roles configured it is the role check alone.
 */
async function allowsInTeam(
  ctx: AuthContext,
  member: Member,
  teamId: string,
  request: Record<string, readonly string[]>,
): Promise<boolean> {
  if (callerAllows(ctx, member, request)) return true;
  // A key's own permissions bound it; an organization's key is in no team.
  const key = ctx.apiKeyCaller;
  if (key && (key.organizationId !== null || !keyPermits(ctx, request))) return false;
  if (Object.keys(ctx.options.organization.teams.roles).length === 0) return false;
  const place = await findTeamMember(ctx.db, teamId, member.userId);
  return memberAllowsInTeam(ctx, { role: member.role, teamRole: place?.role ?? null }, request);
}

/** The team if it belongs to the organization; TEAM_NOT_FOUND otherwise (another organization's team is not found). */
async function teamOf(ctx: AuthContext, organizationId: string, teamId: string): Promise<Team> {
  const team = await findTeam(ctx.db, teamId);
  if (!team || team.organizationId !== organizationId) throw new AuthError("TEAM_NOT_FOUND");
  return team;
}

export async function createTeam(
  ctx: AuthContext,
  session: Session,
  input: { name: string; organizationId?: string },
): Promise<Team> {
  const organizationId = resolveOrganizationId(session, input.organizationId, "NO_ACTIVE_ORGANIZATION");
  await requireOrgPermission(ctx, {
    organizationId,
    userId: session.userId,
    notMember: "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION",
    permissions: { team: ["create"] },
    denied: "YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION",
  });
  const max = ctx.options.organization.teams.maximumTeams;
  return ctx.db.transaction().execute(async (trx) => {
    if (!(await lockOrganization(trx, ctx.dialect, organizationId))) throw new AuthError("ORGANIZATION_NOT_FOUND");
    if (max !== undefined && (await countTeams(trx, organizationId)) >= max) {
      throw new AuthError("YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS");
    }
    const team = await insertTeam(trx, { id: newId(), name: input.name, organizationId, now: ctx.now() });
    await auditChange(ctx, trx, { organizationId });
    return team;
  });
}

export async function updateTeam(
  ctx: AuthContext,
  session: Session,
  input: { teamId: string; data: { name?: string; organizationId?: string } },
): Promise<Team> {
  const organizationId =
    input.data.organizationId ?? session.activeOrganizationId ?? (await findTeam(ctx.db, input.teamId))?.organizationId;
  if (!organizationId) throw new AuthError("TEAM_NOT_FOUND");
  const member = await requireCaller(
    ctx,
    ctx.db,
    organizationId,
    session.userId,
    "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM",
  );
  // A team role granting team:update lets its holder rename their own team.
  if (!(await allowsInTeam(ctx, member, input.teamId, { team: ["update"] }))) {
    throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM");
  }
  await teamOf(ctx, organizationId, input.teamId);
  const patch = input.data.name !== undefined ? { name: input.data.name } : {};
  return auditedChange(
    ctx,
    async (db) => {
      const team = await updateTeamRow(db, input.teamId, patch, ctx.now());
      if (!team) throw new AuthError("TEAM_NOT_FOUND");
      return team;
    },
    { organizationId },
  );
}

/**
 * Removes a team: not the caller's own active team, not the last one (unless allowRemovingAllTeams).
 * Its members go with it, pending invitations stop naming it, and sessions stop pointing at it.
 */
export async function removeTeam(
  ctx: AuthContext,
  session: Session,
  input: { teamId: string; organizationId?: string },
): Promise<void> {
  const organizationId = resolveOrganizationId(session, input.organizationId, "NO_ACTIVE_ORGANIZATION");
  if (session.activeTeamId === input.teamId) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM");
  const member = await requireCaller(
    ctx,
    ctx.db,
    organizationId,
    session.userId,
    "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM",
  );
  requirePermission(ctx, member, { team: ["delete"] }, "YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION");
  await teamOf(ctx, organizationId, input.teamId);
  await ctx.db.transaction().execute(async (trx) => {
    await lockOrganization(trx, ctx.dialect, organizationId);
    if (!ctx.options.organization.teams.allowRemovingAllTeams && (await countTeams(trx, organizationId)) <= 1) {
      throw new AuthError("UNABLE_TO_REMOVE_LAST_TEAM");
    }
    if (!(await findTeam(trx, input.teamId))) throw new AuthError("TEAM_NOT_FOUND");
    await deleteTeamRow(trx, input.teamId);
    await removeTeamFromPendingInvitations(trx, organizationId, input.teamId);
    await clearActiveTeam(trx, input.teamId);
    await auditChange(ctx, trx, { organizationId });
  });
}

export async function listTeams(
  ctx: AuthContext,
  session: Session,
  organizationId: string | undefined,
): Promise<Team[]> {
  const id = resolveOrganizationId(session, organizationId, "NO_ACTIVE_ORGANIZATION");
  await requireCaller(ctx, ctx.db, id, session.userId, "YOU_ARE_NOT_ALLOWED_TO_ACCESS_THIS_ORGANIZATION");
  return listTeamRows(ctx.db, id);
}

/** `teamId: null` clears the active team; no teamId answers the current one. */
export async function setActiveTeam(
  ctx: AuthContext,
  session: Session,
  teamId: string | null | undefined,
): Promise<{ team: Team | null; active: ActiveChange | null }> {
  if (teamId === null) {
    const active = { activeTeamId: null };
    await setSessionActive(ctx.db, session.id, active, ctx.now());
    return { team: null, active };
  }
  const id = teamId ?? session.activeTeamId;
  if (!id) return { team: null, active: null };
  const organizationId = resolveOrganizationId(session, undefined, "NO_ACTIVE_ORGANIZATION");
  const team = await teamOf(ctx, organizationId, id);
  if (
    !(await findMember(ctx.db, organizationId, session.userId)) ||
    !(await findTeamMember(ctx.db, id, session.userId))
  ) {
    throw new AuthError("USER_IS_NOT_A_MEMBER_OF_THE_TEAM", { status: 403 });
  }
  const active = { activeTeamId: id };
  await setSessionActive(ctx.db, session.id, active, ctx.now());
  return { team, active };
}

/** The caller's teams (all organizations, or one); another user's teams need member:update in the organization. */
export async function listUserTeams(
  ctx: AuthContext,
  session: Session,
  query: { userId?: string; organizationId?: string },
): Promise<Team[]> {
  if (!query.userId || query.userId === session.userId) {
    if (query.organizationId) {
      await requireMember(ctx.db, query.organizationId, session.userId, "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
    }
    return listUserTeamRows(ctx.db, session.userId, query.organizationId);
  }
  const organizationId = resolveOrganizationId(session, query.organizationId, "NO_ACTIVE_ORGANIZATION");
  await requireOrgPermission(ctx, {
    organizationId,
    userId: session.userId,
    notMember: "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION",
    permissions: { member: ["update"] },
    denied: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER",
  });
  await requireMember(ctx.db, organizationId, query.userId, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
  return listUserTeamRows(ctx.db, query.userId, organizationId);
}

/** Members of a team: for its own members, and for those who manage teams (owners and admins). */
export async function listTeamMembers(
  ctx: AuthContext,
  session: Session,
  teamIdInput: string | undefined,
): Promise<TeamMember[]> {
  const teamId = teamIdInput ?? session.activeTeamId;
  if (!teamId) throw new AuthError("YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM");
  const team = await findTeam(ctx.db, teamId);
  if (!team) throw new AuthError("TEAM_NOT_FOUND");
  const member = await requireCaller(
    ctx,
    ctx.db,
    team.organizationId,
    session.userId,
    "USER_IS_NOT_A_MEMBER_OF_THE_TEAM",
  );
  if (!callerAllows(ctx, member, { team: ["update"] }) && !(await findTeamMember(ctx.db, teamId, session.userId))) {
    throw new AuthError("USER_IS_NOT_A_MEMBER_OF_THE_TEAM");
  }
  return listTeamMemberRows(ctx.db, teamId);
}

/**
 * Adding or removing a team member: the caller needs member:<action> in the organization, the user
 * must be a member of it, and the team must belong to it.
 */
async function authorizeTeamMemberChange(
  ctx: AuthContext,
  session: Session,
  input: { teamId: string; userId: string; organizationId?: string },
  action: "update" | "delete",
  refusal: "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER" | "YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER",
): Promise<void> {
  const organizationId = resolveOrganizationId(session, input.organizationId, "NO_ACTIVE_ORGANIZATION");
  const notMember = "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION";
  const caller = await requireCaller(ctx, ctx.db, organizationId, session.userId, notMember);
  // A team role granting member:<action> lets its holder manage their own team's members.
  if (!(await allowsInTeam(ctx, caller, input.teamId, { member: [action] }))) throw new AuthError(refusal);
  await requireMember(ctx.db, organizationId, input.userId, notMember);
  await teamOf(ctx, organizationId, input.teamId);
}

export async function addTeamMember(
  ctx: AuthContext,
  session: Session,
  input: { teamId: string; userId: string; organizationId?: string; role?: string | string[] },
): Promise<TeamMember> {
  const role = input.role === undefined ? null : normalizeTeamRoles(ctx, input.role);
  await authorizeTeamMemberChange(ctx, session, input, "update", "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER");
  if (role !== null) await requireOrgRoleToAssignTeamRoles(ctx, session, input);
  const existing = await findTeamMember(ctx.db, input.teamId, input.userId);
  if (existing) return existing;
  const max = ctx.options.organization.teams.maximumMembersPerTeam;
  if (max !== undefined && (await countTeamMembers(ctx.db, input.teamId)) >= max) {
    throw new AuthError("TEAM_MEMBER_LIMIT_REACHED");
  }
  try {
    const row = { id: newId(), teamId: input.teamId, userId: input.userId, now: ctx.now(), role };
    return await auditedChange(ctx, (db) => insertTeamMember(db, row), { subjectId: input.userId });
  } catch (error) {
    // A parallel add won the (teamId, userId) key: the call stays idempotent.
    if (!isUniqueViolation(error)) throw error;
    const row = await findTeamMember(ctx.db, input.teamId, input.userId);
    if (!row) throw error;
    return row;
  }
}

export async function removeTeamMember(
  ctx: AuthContext,
  session: Session,
  input: { teamId: string; userId: string; organizationId?: string },
): Promise<void> {
  await authorizeTeamMemberChange(ctx, session, input, "delete", "YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER");
  await ctx.db.transaction().execute(async (trx) => {
    if ((await deleteTeamMember(trx, input.teamId, input.userId)) === 0) {
      throw new AuthError("USER_IS_NOT_A_MEMBER_OF_THE_TEAM");
    }
    await clearActiveTeam(trx, input.teamId, input.userId);
    await auditChange(ctx, trx, { subjectId: input.userId });
  });
}

/**
 * Team roles are given by those whose organization role grants member:update: a team role alone
 * never lets its holder hand out team roles (their own included).
 */
async function requireOrgRoleToAssignTeamRoles(
  ctx: AuthContext,
  session: Session,
  input: { organizationId?: string },
): Promise<void> {
  const organizationId = resolveOrganizationId(session, input.organizationId, "NO_ACTIVE_ORGANIZATION");
  await requireOrgPermission(ctx, {
    organizationId,
    userId: session.userId,
    notMember: "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION",
    permissions: { member: ["update"] },
    denied: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER",
  });
}

/** Sets (or, with null, clears) a team member's role within the team. */
export async function updateTeamMemberRole(
  ctx: AuthContext,
  session: Session,
  input: { teamId: string; userId: string; role: string | string[] | null; organizationId?: string },
): Promise<TeamMember> {
  const role = input.role === null ? null : normalizeTeamRoles(ctx, input.role);
  const organizationId = resolveOrganizationId(session, input.organizationId, "NO_ACTIVE_ORGANIZATION");
  await requireOrgRoleToAssignTeamRoles(ctx, session, input);
  await requireMember(ctx.db, organizationId, input.userId, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
  await teamOf(ctx, organizationId, input.teamId);
  return auditedChange(
    ctx,
    async (db) => {
      const updated = await setTeamMemberRole(db, input.teamId, input.userId, role);
      if (!updated) throw new AuthError("USER_IS_NOT_A_MEMBER_OF_THE_TEAM");
      return updated;
    },
    { organizationId, subjectId: input.userId, details: { teamId: input.teamId, role } },
  );
}

import type { Member, MemberWithUser, Session } from "../../contract/models.js";
import type { ListMembersQuery } from "../../contract/organization.js";
import type { AuthContext } from "../context.js";
import { newId } from "../crypto/random.js";
import { AuthError } from "../errors.js";
import type { CallerRead, MemberWithUserText } from "../store/caller-reads.js";
import type { DB } from "../store/database.js";
import {
  countMembers,
  countMembersWithRole,
  findMember,
  findMemberWithUser,
  listMembersPage,
  type MemberFilter,
  type MemberPage,
  type MembersReply,
} from "../store/members.js";
import { clearUserActiveOrganization, findOrganization, lockOrganization } from "../store/organizations.js";
import { findOrganizationTeams, findTeam, findTeamMember, insertTeamMember } from "../store/teams.js";
import { findUserById } from "../store/users.js";
import { invalidInput } from "../validation.js";
import { isOwnerRole, memberAllowsInTeam, normalizeRoles, roleAllows } from "./access-control.js";
import { createMemberRow, deleteMemberRow, updateMemberRoleData } from "./hooked-writes.js";
import {
  type ActiveChange,
  type OrganizationRef,
  organizationRef,
  requireCaller,
  requireMember,
  requirePermission,
  resolveOrganizationId,
} from "./organization-access.js";
import { dropBreakGlassHolder } from "./organization-policy.js";
import { callerMembership } from "./organizations.js";
import { revokeSessionsSignedInBy } from "./sessions.js";

/**
 * Adds a user to an organization inside `trx` (which must hold the organization lock): the
 * membership limit is counted under the lock and the (organizationId, userId) key refuses a second row.
 */
export async function insertMemberUnderLimit(
  ctx: AuthContext,
  trx: DB,
  input: { organizationId: string; userId: string; role: string; teamIds: string[]; invitedBy?: string },
): Promise<Member> {
  if (await findMember(trx, input.organizationId, input.userId)) {
    throw new AuthError("USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION");
  }
  if ((await countMembers(trx, input.organizationId)) >= ctx.options.organization.membershipLimit) {
    throw new AuthError("ORGANIZATION_MEMBERSHIP_LIMIT_REACHED");
  }
  const now = ctx.now();
  const member = await createMemberRow(ctx, trx, { id: newId(), ...input, now });
  await ctx.webhooks.enqueue(trx, "member.added", member);
  const teams = await findOrganizationTeams(trx, input.organizationId, input.teamIds);
  for (const team of teams) await insertTeamMember(trx, { id: newId(), teamId: team.id, userId: input.userId, now });
  return member;
}

/** Server-side only (no HTTP route): adds an existing user with the given role(s). */
export async function addMember(
  ctx: AuthContext,
  input: { userId: string; role: string | string[]; organizationId: string; teamId?: string },
): Promise<Member> {
  const role = normalizeRoles(ctx, input.role);
  if (!(await findUserById(ctx.db, input.userId))) throw new AuthError("USER_NOT_FOUND");
  const teamIds = input.teamId ? [input.teamId] : [];
  if (teamIds.length > 0 && (await findOrganizationTeams(ctx.db, input.organizationId, teamIds)).length === 0) {
    throw new AuthError("TEAM_NOT_FOUND");
  }
  return ctx.db.transaction().execute(async (trx) => {
    if (!(await lockOrganization(trx, ctx.dialect, input.organizationId))) {
      throw new AuthError("ORGANIZATION_NOT_FOUND");
    }
    return insertMemberUnderLimit(ctx, trx, {
      organizationId: input.organizationId,
      userId: input.userId,
      role,
      teamIds,
    });
  });
}

/** The last-owner rule: would removing `ownerRoleHolders` leave the organization with no owner? */
async function assertNotLastOwner(
  ctx: AuthContext,
  trx: DB,
  target: Member,
  code: "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER" | "YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER",
) {
  if (!isOwnerRole(ctx, target.role)) return;
  const owners = await countMembersWithRole(trx, target.organizationId, ctx.options.organization.creatorRole);
  if (owners <= 1) throw new AuthError(code);
}

/**
 * Removes a member (by member id, or by email when the value holds `@`). Runs under the organization
 * lock so two removals can never both pass the last-owner check. The removed user's sessions stop
 * pointing at the organization.
 */
export async function removeMember(
  ctx: AuthContext,
  session: Session,
  input: { memberIdOrEmail: string; organizationId?: string },
): Promise<{ member: MemberWithUser; active: ActiveChange | null }> {
  const organizationId = resolveOrganizationId(session, input.organizationId, "NO_ACTIVE_ORGANIZATION");
  const removed = await ctx.db.transaction().execute(async (trx) => {
    await lockOrganization(trx, ctx.dialect, organizationId);
    const caller = await requireCaller(ctx, trx, organizationId, session.userId, "MEMBER_NOT_FOUND");
    const by = input.memberIdOrEmail.includes("@")
      ? { email: input.memberIdOrEmail }
      : { memberId: input.memberIdOrEmail };
    const target = await findMemberWithUser(trx, organizationId, by);
    if (!target) throw new AuthError("MEMBER_NOT_FOUND");
    // Removing oneself is leaving, which a key may not do: a key always needs member:delete.
    if (target.userId !== caller.userId || ctx.apiKeyCaller) {
      requirePermission(ctx, caller, { member: ["delete"] }, "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER");
      if (isOwnerRole(ctx, target.role) && !isOwnerRole(ctx, caller.role)) {
        throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER");
      }
    }
    await assertNotLastOwner(ctx, trx, target, "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER");
    await deleteMemberRow(ctx, trx, target);
    await ctx.webhooks.enqueue(trx, "member.removed", target);
    await clearUserActiveOrganization(trx, target.userId, organizationId);
    const ended =
      isOwnerRole(ctx, target.role) && (await endBreakGlass(ctx, trx, organizationId, target.userId, session.userId));
    return { target, ended };
  });
  if (removed.ended) await ctx.revocations.revokeUser(removed.target.userId);
  const active =
    removed.target.userId === session.userId && session.activeOrganizationId === organizationId
      ? { activeOrganizationId: null, activeTeamId: null }
      : null;
  return { member: removed.target, active };
}

/** Leaves an organization; the only owner cannot. */
export async function leaveOrganization(
  ctx: AuthContext,
  session: Session,
  organizationId: string,
): Promise<{ member: MemberWithUser; active: ActiveChange | null }> {
  const left = await ctx.db.transaction().execute(async (trx) => {
    await lockOrganization(trx, ctx.dialect, organizationId);
    const member = await findMemberWithUser(trx, organizationId, { userId: session.userId });
    if (!member) throw new AuthError("MEMBER_NOT_FOUND");
    await assertNotLastOwner(ctx, trx, member, "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER");
    await deleteMemberRow(ctx, trx, member);
    await ctx.webhooks.enqueue(trx, "member.removed", member);
    await clearUserActiveOrganization(trx, session.userId, organizationId);
    return member;
  });
  const active =
    session.activeOrganizationId === organizationId ? { activeOrganizationId: null, activeTeamId: null } : null;
  return { member: left, active };
}

/**
 * Changes a member's role(s). Only owners may touch an owner or grant the owner role; the only owner
 * cannot give it up. Under the organization lock, like every owner-count check.
 */
export async function updateMemberRole(
  ctx: AuthContext,
  session: Session,
  input: { memberId: string; role: string | string[]; organizationId?: string },
): Promise<Member> {
  const role = normalizeRoles(ctx, input.role);
  const organizationId = resolveOrganizationId(session, input.organizationId, "NO_ACTIVE_ORGANIZATION");
  const { updated, ended } = await ctx.db.transaction().execute(async (trx) => {
    await lockOrganization(trx, ctx.dialect, organizationId);
    const caller = await requireCaller(ctx, trx, organizationId, session.userId, "MEMBER_NOT_FOUND");
    const target = await findMemberWithUser(trx, organizationId, { memberId: input.memberId });
    if (!target) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
    const callerIsOwner = isOwnerRole(ctx, caller.role);
    // An owner's own key still needs member:update: a key does what it was given, not its owner's all.
    if (!callerIsOwner || ctx.apiKeyCaller) {
      requirePermission(ctx, caller, { member: ["update"] }, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
    }
    if (!callerIsOwner) {
      if (isOwnerRole(ctx, target.role) || isOwnerRole(ctx, role)) {
        throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
      }
    }
    if (!isOwnerRole(ctx, role)) {
      await assertNotLastOwner(ctx, trx, target, "YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER");
    }
    const updated = await updateMemberRoleData(ctx, trx, target.id, role);
    if (!updated) throw new AuthError("MEMBER_NOT_FOUND");
    await ctx.webhooks.enqueue(trx, "member.updated", updated);
    const ended =
      isOwnerRole(ctx, target.role) &&
      !isOwnerRole(ctx, role) &&
      (await endBreakGlass(ctx, trx, organizationId, target.userId, session.userId));
    return { updated, ended };
  });
  if (ended) await ctx.revocations.revokeUser(updated.userId);
  return updated;
}

/**
 * An owner on the break-glass list who loses the owner role (or the membership) leaves the list, and
 * the sessions they signed in with a password end: that path was theirs as an owner only. In the
 * change's transaction; true when sessions ended (tell ctx.revocations after the commit).
 */
async function endBreakGlass(
  ctx: AuthContext,
  trx: DB,
  organizationId: string,
  userId: string,
  changedBy: string,
): Promise<boolean> {
  if (!(await dropBreakGlassHolder(ctx, trx, organizationId, userId, changedBy))) return false;
  return (await revokeSessionsSignedInBy(ctx, trx, userId, "password")) > 0;
}

/** What get-active-member reads with the caller's session: their member row in the organization named or active. */
export function activeMemberRead(
  _ctx: AuthContext,
  query: { organizationId?: string },
): CallerRead & { rows: "activeMember" } {
  return { rows: "activeMember", organizationId: query.organizationId ?? null };
}

/** get-active-member's answer from that row. */
export function activeMember(
  caller: Session,
  organizationId: string | undefined,
  member: MemberWithUserText | null,
): MemberWithUserText {
  resolveOrganizationId(caller, organizationId, "NO_ACTIVE_ORGANIZATION");
  if (!member) throw new AuthError("MEMBER_NOT_FOUND");
  return member;
}

/** The caller's role, or another member's role (the caller must be a member too). */
export async function getActiveMemberRole(
  ctx: AuthContext,
  session: Session,
  query: { userId?: string; organizationId?: string; organizationSlug?: string },
): Promise<{ role: string }> {
  const caller = await callerMembership(ctx, session, query, {
    missing: "NO_ACTIVE_ORGANIZATION",
    notMember: "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION",
  });
  if (!query.userId || query.userId === session.userId) return { role: caller.role };
  const target = await findMember(ctx.db, caller.organizationId, query.userId);
  if (!target) throw new AuthError("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
  return { role: target.role };
}

function memberFilter(query: ListMembersQuery): MemberFilter | undefined {
  const { filterField: field, filterOperator: operator = "eq", filterValue } = query;
  if (!field || filterValue === undefined) return undefined;
  const convert = (raw: string): string | Date => {
    if (field !== "createdAt") return raw;
    const date = new Date(raw);
    if (Number.isNaN(date.getTime())) {
      throw invalidInput([{ where: "query.filterValue", message: "Invalid date" }]);
    }
    return date;
  };
  if (operator === "in" || operator === "not_in") {
    return { field, operator, value: filterValue.split(",").map((v) => convert(v.trim())) };
  }
  if (operator === "contains" || operator === "starts_with" || operator === "ends_with") {
    return { field, operator, value: filterValue };
  }
  return { field, operator, value: convert(filterValue) };
}

/** Page size defaults to, and is capped by, membershipLimit. */
const pageLimit = (ctx: AuthContext, query: ListMembersQuery) =>
  Math.min(query.limit ?? ctx.options.organization.membershipLimit, ctx.options.organization.membershipLimit);

/**
 * What list-members reads with the caller's session: an unfiltered first page (kept between
 * requests, see store/member-pages.ts). Null for filters and later pages: an empty page there must
 * still tell a member from a stranger, which listMembers reads after the session.
 */
export function membersPageRead(
  ctx: AuthContext,
  query: ListMembersQuery,
): (CallerRead & { rows: "membersPage" }) | null {
  const limit = pageLimit(ctx, query);
  const filtered = query.filterField && query.filterValue !== undefined;
  if (filtered || (query.offset ?? 0) !== 0 || limit <= 0) return null;
  const named = organizationRef(null, query);
  return {
    rows: "membersPage",
    page: {
      organization: named ?? { id: null },
      limit,
      pageSize: ctx.options.organization.membershipLimit,
      sortBy: query.sortBy ?? "createdAt",
      sortDirection: query.sortDirection ?? "asc",
    },
  };
}

/**
 * A page of members with their users and the filtered total: the page read with the session when
 * membersPageRead named one, else one query of its own that checks the caller's membership too.
 */
export async function listMembers(
  ctx: AuthContext,
  caller: Session,
  query: ListMembersQuery,
  read: MemberPage | undefined,
): Promise<MembersReply> {
  const organization = organizationRef(caller, query);
  if (!organization) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  // An organization's key reads its own organization's members (a member with no role may too).
  const key = ctx.apiKeyCaller;
  if (key?.organizationId && (await organizationIdOf(ctx, organization)) !== key.organizationId) {
    throw new AuthError("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
  }
  const page =
    read ??
    (await listMembersPage(ctx.db, {
      organization,
      callerUserId: key?.organizationId ? null : caller.userId,
      limit: pageLimit(ctx, query),
      offset: query.offset ?? 0,
      sortBy: query.sortBy ?? "createdAt",
      sortDirection: query.sortDirection ?? "asc",
      filter: memberFilter(query),
    }));
  if (!page.caller) throw new AuthError("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
  return page.reply;
}

async function organizationIdOf(ctx: AuthContext, ref: OrganizationRef): Promise<string | undefined> {
  return "id" in ref ? ref.id : (await findOrganization(ctx.db, ref))?.id;
}

export async function hasPermission(
  ctx: AuthContext,
  session: Session,
  input: { organizationId?: string; teamId?: string; permissions: Record<string, string[]> },
): Promise<boolean> {
  const organizationId = resolveOrganizationId(session, input.organizationId, "NO_ACTIVE_ORGANIZATION");
  const member = await requireMember(
    ctx.db,
    organizationId,
    session.userId,
    new AuthError("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION", { status: 403 }),
  );
  if (input.teamId === undefined) return roleAllows(ctx, member.role, input.permissions);
  // Within a team: the organization role, or the caller's role in that team (team roles).
  const team = await findTeam(ctx.db, input.teamId);
  if (!team || team.organizationId !== organizationId) throw new AuthError("TEAM_NOT_FOUND");
  const place = await findTeamMember(ctx.db, input.teamId, session.userId);
  return memberAllowsInTeam(ctx, { role: member.role, teamRole: place?.role ?? null }, input.permissions);
}

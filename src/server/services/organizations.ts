import type {
  Invitation,
  Member,
  MemberWithUser,
  Organization,
  Session,
  SessionWithUser,
  Team,
} from "../../contract/models.js";
import type { AuthContext } from "../context.js";
import { newId } from "../crypto/random.js";
import { AuthError } from "../errors.js";
import type { CallerRead } from "../store/caller-reads.js";
import { isUniqueViolation } from "../store/database.js";
import { listOrganizationInvitations } from "../store/invitations.js";
import { countUserMemberships, findMember, findMemberBySlug, listMembersWithUsers } from "../store/members.js";
import {
  clearActiveOrganizationEverywhere,
  clearUserActiveOrganization,
  findOrganization,
  lockOrganization,
  metadataText,
  setSessionActive,
  slugExists,
  type updateOrganizationRow,
} from "../store/organizations.js";
import { insertTeam, insertTeamMember, listTeams } from "../store/teams.js";
import { isOwnerRole } from "./access-control.js";
import { type FieldSource, readFieldInput } from "./additional-fields.js";
import { forgetKeysOf } from "./api-key-verification.js";
import {
  createMemberRow,
  createOrganizationRow,
  deleteOrganizationRows,
  updateOrganizationData,
} from "./hooked-writes.js";
import {
  type ActiveChange,
  callerAllows,
  organizationRef,
  requireCaller,
  requireMember,
  requireOrgPermission,
  resolveOrganizationId,
} from "./organization-access.js";
import { enforceOrganizationPolicy } from "./organization-policy.js";

export interface CreateOrganizationInput {
  name: string;
  slug: string;
  logo?: string | null;
  metadata?: Record<string, unknown> | null;
  userId?: string;
  keepCurrentActiveOrganization?: boolean;
  /** Where the app's own organization fields are read from (the request body), and who sent them. */
  additional?: { from: unknown; source: FieldSource };
}

/**
 * Creates the organization, the creator's member row (creatorRole), and with teams the default team
 * with the creator in it, and makes them the session's active ones: one transaction. The unique slug
 * decides between parallel creates.
 */
export async function createOrganization(
  ctx: AuthContext,
  session: Session | null,
  input: CreateOrganizationInput,
): Promise<{ organization: Organization & { members: Member[] }; active: ActiveChange | null }> {
  const options = ctx.options.organization;
  const userId = input.userId ?? session?.userId;
  if (!userId) throw new AuthError("UNAUTHORIZED");
  // Over HTTP a caller acts for themself only.
  if (session && userId !== session.userId) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION");
  if (!options.allowUserToCreateOrganization) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION");
  if (options.organizationLimit !== undefined) {
    const count = await countUserMemberships(ctx.db, userId);
    if (count >= options.organizationLimit) throw new AuthError("YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS");
  }
  const values = readFieldInput(ctx.fields.organization, input.additional?.from, {
    creating: true,
    source: input.additional?.source ?? "client",
  });
  const withTeam = options.teams.enabled && options.teams.defaultTeam.enabled;
  const setActive = session !== null && !input.keepCurrentActiveOrganization;
  const now = ctx.now();
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const organization = await createOrganizationRow(ctx, trx, {
        id: newId(),
        name: input.name,
        slug: input.slug,
        logo: input.logo ?? null,
        metadata: metadataText(input.metadata),
        now,
        fields: { spec: ctx.fields.organization, values },
      });
      await ctx.webhooks.enqueue(trx, "organization.created", organization);
      const member = await createMemberRow(ctx, trx, {
        id: newId(),
        organizationId: organization.id,
        userId,
        role: options.creatorRole,
        now,
      });
      await ctx.webhooks.enqueue(trx, "member.added", member);
      let teamId: string | null = null;
      if (withTeam) {
        const team = await insertTeam(trx, {
          id: newId(),
          name: organization.name,
          organizationId: organization.id,
          now,
        });
        await insertTeamMember(trx, { id: newId(), teamId: team.id, userId, now });
        teamId = team.id;
      }
      let active: ActiveChange | null = null;
      if (setActive && session) {
        active = { activeOrganizationId: organization.id, activeTeamId: teamId };
        await setSessionActive(trx, session.id, active, now);
      }
      return { organization: { ...organization, members: [member] }, active };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AuthError("ORGANIZATION_ALREADY_EXISTS");
    throw error;
  }
}

export async function checkSlug(ctx: AuthContext, slug: string): Promise<void> {
  if (await slugExists(ctx.db, slug)) throw new AuthError("ORGANIZATION_SLUG_ALREADY_TAKEN");
}

export async function updateOrganization(
  ctx: AuthContext,
  session: Session,
  input: {
    organizationId?: string;
    data: { name?: string; slug?: string; logo?: string | null; metadata?: Record<string, unknown> | null };
  },
  additional: { from: unknown; source: FieldSource } = { from: input.data, source: "client" },
): Promise<Organization> {
  const organizationId = resolveOrganizationId(session, input.organizationId, "ORGANIZATION_NOT_FOUND");
  await requireOrgPermission(ctx, {
    organizationId,
    userId: session.userId,
    notMember: "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION",
    permissions: { organization: ["update"] },
    denied: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION",
  });
  const { data } = input;
  const patch: Parameters<typeof updateOrganizationRow>[2] = {};
  if (data.name !== undefined) patch.name = data.name;
  if (data.slug !== undefined) patch.slug = data.slug;
  if (data.logo !== undefined) patch.logo = data.logo;
  if (data.metadata !== undefined) patch.metadata = metadataText(data.metadata);
  const values = readFieldInput(ctx.fields.organization, additional.from, {
    creating: false,
    source: additional.source,
  });
  try {
    const updated = await ctx.webhooks.atomic(
      ctx.db,
      "organization.updated",
      async (db) => {
        const row = await updateOrganizationData(ctx, db, organizationId, patch, {
          spec: ctx.fields.organization,
          values,
        });
        await ctx.webhooks.enqueue(db, "organization.updated", row);
        return row;
      },
      { organizationId },
    );
    if (!updated) throw new AuthError("ORGANIZATION_NOT_FOUND");
    return updated;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AuthError("ORGANIZATION_SLUG_ALREADY_TAKEN");
    throw error;
  }
}

/**
 * Deletes the organization with its members, invitations and teams in one transaction, and clears it
 * (and its team) as the active one on every session that pointed at it.
 */
export async function deleteOrganization(
  ctx: AuthContext,
  session: Session,
  organizationId: string,
): Promise<{ organization: Organization; active: ActiveChange | null }> {
  await requireOrgPermission(ctx, {
    organizationId,
    userId: session.userId,
    notMember: "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION",
    permissions: { organization: ["delete"] },
    denied: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION",
  });
  const organization = await ctx.db.transaction().execute(async (trx) => {
    if (!(await lockOrganization(trx, ctx.dialect, organizationId))) throw new AuthError("ORGANIZATION_NOT_FOUND");
    const org = await findOrganization(trx, { id: organizationId });
    if (!org) throw new AuthError("ORGANIZATION_NOT_FOUND");
    await clearActiveOrganizationEverywhere(trx, organizationId);
    // Members, invitations and teams go with it: one organization.deleted tells of all of them.
    await ctx.webhooks.enqueue(trx, "organization.deleted", await deleteOrganizationRows(ctx, trx, organizationId));
    return org;
  });
  // Its keys went with it: every instance drops its copies.
  await forgetKeysOf(ctx, organizationId);
  const active =
    session.activeOrganizationId === organizationId ? { activeOrganizationId: null, activeTeamId: null } : null;
  return { organization, active };
}

/** What organization/list reads with the caller's session: their organizations, the whole answer. */
export function callerOrganizationsRead(): CallerRead & { rows: "organizations" } {
  return { rows: "organizations" };
}

/**
 * Finds the organization by id or slug and the caller's membership. Not a member: the stale active
 * organization is cleared from the session (reported in `cleared`) and the caller gets a 403.
 */
async function memberOrganization(
  ctx: AuthContext,
  session: Session,
  by: { id?: string; slug?: string },
): Promise<{ organization: Organization; member: Member }> {
  const organization = await findOrganization(ctx.db, by, ctx.fields.organization);
  if (!organization) throw new AuthError("ORGANIZATION_NOT_FOUND");
  if (ctx.apiKeyCaller?.organizationId) {
    const notMember = new AuthError("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION", { status: 403 });
    return { organization, member: await requireCaller(ctx, ctx.db, organization.id, session.userId, notMember) };
  }
  const member = await findMember(ctx.db, organization.id, session.userId);
  if (!member) {
    if (session.activeOrganizationId === organization.id) {
      await clearUserActiveOrganization(ctx.db, session.userId, organization.id);
    }
    throw new AuthError("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION", { status: 403 });
  }
  return { organization, member };
}

/** `organizationId: null` clears the active organization; no id and no slug keeps the current one. */
export async function setActiveOrganization(
  ctx: AuthContext,
  caller: SessionWithUser,
  input: { organizationId?: string | null; organizationSlug?: string },
): Promise<{ organization: Organization | null; active: ActiveChange | null }> {
  const { session } = caller;
  const now = ctx.now();
  if (input.organizationId === null) {
    const active = { activeOrganizationId: null, activeTeamId: null };
    await setSessionActive(ctx.db, session.id, active, now);
    return { organization: null, active };
  }
  const by = organizationRef(session, input);
  if (!by) return { organization: null, active: null };
  const { organization } = await memberOrganization(ctx, session, by);
  // A session the organization's policy refuses does not make it active (its token would carry it).
  await enforceOrganizationPolicy(ctx, caller, undefined, { id: organization.id });
  // Switching organizations also leaves the old organization's team.
  const active: ActiveChange =
    organization.id === session.activeOrganizationId
      ? { activeOrganizationId: organization.id }
      : { activeOrganizationId: organization.id, activeTeamId: null };
  await setSessionActive(ctx.db, session.id, active, now);
  return { organization, active };
}

export type FullOrganization = Organization & {
  members: MemberWithUser[];
  invitations: Invitation[];
  teams: Team[];
};

/** The organization alone (no members, invitations or teams), for a member; null when none is named or active. */
export async function getOrganization(
  ctx: AuthContext,
  session: Session,
  query: { organizationId?: string; organizationSlug?: string },
): Promise<Organization | null> {
  const by = organizationRef(session, query);
  if (!by) return null;
  return (await memberOrganization(ctx, session, by)).organization;
}

/**
 * The organization with members (at most membersLimit, capped by membershipLimit), its invitations
 * for those who may invite (non-owners never see invitations granting the creator role) and teams.
 */
export async function getFullOrganization(
  ctx: AuthContext,
  session: Session,
  query: { organizationId?: string; organizationSlug?: string; membersLimit?: number },
): Promise<FullOrganization | null> {
  const by = organizationRef(session, query);
  if (!by) return null;
  const { organization, member } = await memberOrganization(ctx, session, by);
  const cap = ctx.options.organization.membershipLimit;
  const limit = Math.min(query.membersLimit ?? cap, cap);
  const canInvite = callerAllows(ctx, member, { invitation: ["create"] });
  const [members, invitations, teams] = await Promise.all([
    listMembersWithUsers(ctx.db, organization.id, limit),
    canInvite ? listOrganizationInvitations(ctx.db, organization.id) : Promise.resolve([]),
    ctx.options.organization.teams.enabled ? listTeams(ctx.db, organization.id) : Promise.resolve([]),
  ]);
  const visible = isOwnerRole(ctx, member.role)
    ? invitations
    : invitations.filter((i) => !isOwnerRole(ctx, i.role ?? ""));
  return { ...organization, members, invitations: visible, teams };
}

/** Resolves `{id}` or `{slug}` (or the active organization) to the caller's membership, for member routes. */
export async function callerMembership(
  ctx: AuthContext,
  session: Session,
  query: { organizationId?: string; organizationSlug?: string },
  errors: { missing: "NO_ACTIVE_ORGANIZATION"; notMember: "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION" },
): Promise<Member> {
  if (!query.organizationId && query.organizationSlug) {
    const found = await findMemberBySlug(ctx.db, query.organizationSlug, session.userId);
    if (!found) throw new AuthError("ORGANIZATION_NOT_FOUND");
    if (!found.member) throw new AuthError(errors.notMember);
    return found.member;
  }
  const organizationId = resolveOrganizationId(session, query.organizationId, errors.missing);
  return requireMember(ctx.db, organizationId, session.userId, errors.notMember);
}

import type { SessionWithUser } from "../../contract/models.js";
import type { ScimGroupMapping } from "../../contract/scim.js";
import { auditChange, noteAudit } from "../audit/trail.service.js";
import type { AuthContext } from "../context.js";
import { newId } from "../crypto/random.js";
import { AuthError } from "../errors.js";
import { isOwnerRole, normalizeRoles, normalizeTeamRoles } from "../services/access-control.js";
import type { DB } from "../store/database.js";
import { lockOrganization } from "../store/organizations.js";
import { findTeam } from "../store/teams.js";
import { ownedConnection } from "./connections.service.js";
import type { ScimConnectionRow } from "./connections.store.js";
import { invalidValue, ScimError } from "./errors.js";
import { parseGroupFilter } from "./filter.service.js";
import { type Affected, reconcileMember } from "./grants.service.js";
import { applyGroupPatch, type GroupDraft, parseGroupResource } from "./group-input.js";
import {
  connectionUserIds,
  countScimGroupMembers,
  deleteScimGroup,
  deleteScimGroupMembers,
  findScimGroup,
  insertScimGroup,
  insertScimGroupMembers,
  listScimGroupMembers,
  listScimGroups,
  type ScimGrant,
  type ScimGroupMemberRow,
  type ScimGroupRow,
  setScimGroupMapping,
  updateScimGroup,
} from "./groups.store.js";
import { pageOf } from "./paging.js";

/**
 * The directory's groups (RFC 7644 section 3 on /scim/v2/Groups). A connection sees only its own
 * groups, and a group's members must be users it provisioned. A group grants nothing until an owner
 * maps it to an organization role or a team; membership changes then apply in the same transaction.
 */

export interface ScimGroupView {
  group: ScimGroupRow;
  /** null when the caller asked to leave members out (excludedAttributes=members). */
  members: ScimGroupMemberRow[] | null;
}

const groupNotFound = () => new ScimError(404, "Group not found");
const uniqueness = (detail: string) => new ScimError(409, detail, "uniqueness");

/** What a group's members receive from it. */
function affectedBy(group: Pick<ScimGrant, "role" | "teamId">): Affected {
  return { roles: group.role !== null, teamIds: group.teamId ? [group.teamId] : [] };
}

const mapped = (group: Pick<ScimGrant, "role" | "teamId">) => group.role !== null || group.teamId !== null;

export async function listGroups(
  ctx: AuthContext,
  connection: ScimConnectionRow,
  query: { filter?: string; startIndex?: string; count?: string; withMembers: boolean },
): Promise<{ total: number; startIndex: number; groups: ScimGroupView[] }> {
  const filter = parseGroupFilter(query.filter);
  const { startIndex, count } = pageOf(query);
  const page = await listScimGroups(ctx.db, connection, { filter, offset: startIndex - 1, limit: count });
  const members = query.withMembers
    ? await listScimGroupMembers(
        ctx.db,
        connection,
        page.groups.map((group) => group.id),
      )
    : null;
  return {
    total: page.total,
    startIndex,
    groups: page.groups.map((group) => ({
      group,
      members: members ? members.filter((member) => member.groupId === group.id) : null,
    })),
  };
}

export async function getGroup(
  ctx: AuthContext,
  connection: ScimConnectionRow,
  id: string,
  withMembers = true,
): Promise<ScimGroupView> {
  const group = await findScimGroup(ctx.db, connection, id);
  if (!group) throw groupNotFound();
  return { group, members: withMembers ? await listScimGroupMembers(ctx.db, connection, [id]) : null };
}

/** Another of the connection's groups already has the name (names are unique per connection, any case). */
async function nameTaken(trx: DB, connection: ScimConnectionRow, displayName: string, id?: string) {
  const same = await listScimGroups(trx, connection, {
    filter: { attribute: "displayName", value: displayName },
    offset: 0,
    limit: 2,
  });
  return same.groups.some((group) => group.id !== id);
}

/** Refuses member ids that are not users of this connection (another directory's, or nobody's). */
async function requireConnectionUsers(trx: DB, connection: ScimConnectionRow, ids: string[]): Promise<void> {
  const known = await connectionUserIds(trx, connection, ids);
  if (ids.some((id) => !known.has(id))) {
    throw invalidValue("A member is not a user provisioned by this directory");
  }
}

/** Writes the members a draft names over the group's current ones; reconciles those who changed. */
async function writeMembers(
  ctx: AuthContext,
  trx: DB,
  connection: ScimConnectionRow,
  group: ScimGroupRow,
  current: string[],
  next: string[],
): Promise<void> {
  const before = new Set(current);
  const after = new Set(next);
  const added = next.filter((id) => !before.has(id));
  const removed = current.filter((id) => !after.has(id));
  await requireConnectionUsers(trx, connection, added);
  noteAudit(ctx, { details: { groupId: group.id, displayName: group.displayName, added, removed } });
  await insertScimGroupMembers(trx, group.id, added, ctx.now());
  await deleteScimGroupMembers(trx, group.id, removed);
  if (!mapped(group)) return;
  for (const userId of [...added, ...removed]) {
    await reconcileMember(ctx, trx, connection.organizationId, userId, affectedBy(group));
  }
}

/** POST /Groups: a new group (it grants nothing until an owner maps it). */
export async function createGroup(
  ctx: AuthContext,
  connection: ScimConnectionRow,
  body: unknown,
): Promise<ScimGroupView> {
  const draft = parseGroupResource(body);
  const id = newId();
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await lockOrganization(trx, ctx.dialect, connection.organizationId))) throw groupNotFound();
    if (await nameTaken(trx, connection, draft.displayName)) throw uniqueness("A group with this displayName exists");
    await insertScimGroup(trx, connection, {
      id,
      displayName: draft.displayName,
      externalId: draft.externalId,
      now: ctx.now(),
    });
    const group = await findScimGroup(trx, connection, id);
    if (!group) throw groupNotFound();
    await writeMembers(ctx, trx, connection, group, [], draft.members);
    await auditChange(ctx, trx);
  });
  return getGroup(ctx, connection, id);
}

/** Writes a draft over the group's current state in one transaction. */
async function writeGroup(
  ctx: AuthContext,
  connection: ScimConnectionRow,
  id: string,
  next: (current: GroupDraft) => GroupDraft,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await lockOrganization(trx, ctx.dialect, connection.organizationId))) throw groupNotFound();
    const group = await findScimGroup(trx, connection, id);
    if (!group) throw groupNotFound();
    const members = (await listScimGroupMembers(trx, connection, [id])).map((member) => member.userId);
    const draft = next({ displayName: group.displayName, externalId: group.externalId, members });
    if (draft.displayName.toLowerCase() !== group.displayName.toLowerCase()) {
      if (await nameTaken(trx, connection, draft.displayName, id)) {
        throw uniqueness("A group with this displayName exists");
      }
    }
    if (draft.displayName !== group.displayName || draft.externalId !== group.externalId) {
      await updateScimGroup(trx, connection, id, {
        displayName: draft.displayName,
        externalId: draft.externalId,
        now: ctx.now(),
      });
    }
    await writeMembers(ctx, trx, connection, group, members, draft.members);
    await auditChange(ctx, trx);
  });
}

/** PUT /Groups/:id: the resource replaces the group's name, externalId and members. */
export async function replaceGroup(ctx: AuthContext, connection: ScimConnectionRow, id: string, body: unknown) {
  const draft = parseGroupResource(body);
  await writeGroup(ctx, connection, id, () => draft);
  return getGroup(ctx, connection, id);
}

/** PATCH /Groups/:id: the operations applied to the current state. */
export async function patchGroup(ctx: AuthContext, connection: ScimConnectionRow, id: string, body: unknown) {
  await writeGroup(ctx, connection, id, (current) => applyGroupPatch(current, body));
  return getGroup(ctx, connection, id);
}

/** DELETE /Groups/:id: the group goes, and its members lose what it gave them. */
export async function deleteGroup(ctx: AuthContext, connection: ScimConnectionRow, id: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await lockOrganization(trx, ctx.dialect, connection.organizationId))) throw groupNotFound();
    const group = await findScimGroup(trx, connection, id);
    if (!group) throw groupNotFound();
    const members = await listScimGroupMembers(trx, connection, [id]);
    noteAudit(ctx, { details: { groupId: id, displayName: group.displayName, members: members.length } });
    await deleteScimGroup(trx, connection, id);
    if (mapped(group)) {
      for (const member of members) {
        await reconcileMember(ctx, trx, connection.organizationId, member.userId, affectedBy(group));
      }
    }
    await auditChange(ctx, trx);
  });
}

/* The owner's side: which groups a connection pushed, and what each grants. */

function mappingOf(group: ScimGroupRow, members: number): ScimGroupMapping {
  return {
    id: group.id,
    displayName: group.displayName,
    externalId: group.externalId,
    role: group.role,
    teamId: group.teamId,
    teamRole: group.teamRole,
    members,
    updatedAt: group.updatedAt,
  };
}

/** The connection's groups with their mappings (owners only). */
export async function listGroupMappings(
  ctx: AuthContext,
  caller: SessionWithUser,
  providerId: string,
): Promise<ScimGroupMapping[]> {
  const connection = await ownedConnection(ctx, caller, providerId);
  const all: ScimGroupRow[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await listScimGroups(ctx.db, connection, { filter: null, offset, limit: 500 });
    all.push(...page.groups);
    if (page.groups.length < 500) break;
  }
  const counts = await countScimGroupMembers(
    ctx.db,
    all.map((group) => group.id),
  );
  return all.map((group) => mappingOf(group, counts.get(group.id) ?? 0));
}

/**
 * Maps a group to an organization role, or to a team (with an optional team role), or to nothing
 * (all null). The group's members get (or lose) what it grants in the same transaction.
 */
export async function updateGroupMapping(
  ctx: AuthContext,
  caller: SessionWithUser,
  input: {
    providerId: string;
    groupId: string;
    role?: string | string[] | null;
    teamId?: string | null;
    teamRole?: string | string[] | null;
  },
): Promise<ScimGroupMapping> {
  const connection = await ownedConnection(ctx, caller, input.providerId);
  const role = input.role === undefined || input.role === null ? null : normalizeRoles(ctx, input.role);
  // Anyone the directory's admins put in the group would be an owner: owners are made in the organization.
  if (role !== null && isOwnerRole(ctx, role)) throw new AuthError("SCIM_GROUP_ROLE_NOT_ALLOWED");
  const teamId = input.teamId ?? null;
  if (role !== null && teamId !== null) throw new AuthError("SCIM_GROUP_MAPPING_INVALID");
  const teamRole =
    input.teamRole === undefined || input.teamRole === null ? null : normalizeTeamRoles(ctx, input.teamRole);
  if (teamRole !== null && teamId === null) throw new AuthError("SCIM_GROUP_MAPPING_INVALID");
  if (teamId !== null) {
    if (!ctx.options.organization.teams.enabled) throw new AuthError("TEAM_NOT_FOUND");
    const team = await findTeam(ctx.db, teamId);
    if (!team || team.organizationId !== connection.organizationId) throw new AuthError("TEAM_NOT_FOUND");
  }
  const grant: ScimGrant = { role, teamId, teamRole };
  let members = 0;
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await lockOrganization(trx, ctx.dialect, connection.organizationId);
      const group = await findScimGroup(trx, connection, input.groupId);
      if (!group) throw new AuthError("SCIM_GROUP_NOT_FOUND");
      await setScimGroupMapping(trx, group.id, grant, ctx.now());
      // Before the members' changes, whose webhook events would otherwise name the entry's subject.
      await auditChange(ctx, trx, {
        organizationId: connection.organizationId,
        details: { providerId: input.providerId, groupId: input.groupId, ...grant },
      });
      const affected: Affected = {
        roles: group.role !== null || role !== null,
        teamIds: [group.teamId, teamId].filter((id): id is string => id !== null),
      };
      const rows = await listScimGroupMembers(trx, connection, [group.id]);
      members = rows.length;
      for (const row of rows) {
        await reconcileMember(ctx, trx, connection.organizationId, row.userId, affected);
      }
    });
  } catch (error) {
    // A member who would leave the organization without an owner: the owner's call, not the directory's.
    if (error instanceof ScimError) throw new AuthError("SCIM_GROUP_MAPPING_REFUSED", { message: error.message });
    throw error;
  }
  const group = await findScimGroup(ctx.db, connection, input.groupId);
  if (!group) throw new AuthError("SCIM_GROUP_NOT_FOUND");
  return mappingOf(group, members);
}

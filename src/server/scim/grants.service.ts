import type { AuthContext } from "../context.js";
import { newId } from "../crypto/random.js";
import { isOwnerRole, parseRoles } from "../services/access-control.js";
import { updateMemberRoleData } from "../services/hooked-writes.js";
import type { DB } from "../store/database.js";
import { countMembersWithRole, findMember } from "../store/members.js";
import { clearActiveTeam } from "../store/organizations.js";
import {
  countTeamMembers,
  deleteTeamMember,
  findTeamMember,
  insertTeamMember,
  setTeamMemberRole,
} from "../store/teams.js";
import { ScimError } from "./errors.js";
import { grantsOfUser } from "./groups.store.js";

/**
 * What a directory's mapped groups give a member (docs/scim.md, "Groups"): the organization role of
 * every role-mapped group they are in (joined), else the default role; a place (and team role) in
 * every team-mapped group's team. Called inside the transaction that changed the groups.
 */

/** The role a provisioned user joins with, and falls back to when no role-mapped group holds them. */
export const PROVISIONED_ROLE = "member";

export interface Affected {
  /** A role-mapped group's membership changed: the role is recomputed. */
  roles: boolean;
  /** Teams whose mapped groups' membership changed: the place in each is recomputed. */
  teamIds: Iterable<string>;
}

/** Brings one user's role and team places in line with the organization's mapped groups. */
export async function reconcileMember(
  ctx: AuthContext,
  trx: DB,
  organizationId: string,
  userId: string,
  affected: Affected,
): Promise<void> {
  // Someone inactive (not a member) gets nothing; their groups apply when they are made active.
  const member = await findMember(trx, organizationId, userId);
  if (!member) return;
  const grants = await grantsOfUser(trx, organizationId, userId);
  if (affected.roles) {
    // A group mapped to the owner role before mappings refused it gives the rest of its roles.
    const roles = parseRoles(grants.flatMap((grant) => (grant.role ? [grant.role] : []))).filter(
      (role) => role !== ctx.options.organization.creatorRole,
    );
    const next = roles.length > 0 ? roles.join(",") : PROVISIONED_ROLE;
    if (next !== member.role) {
      if (isOwnerRole(ctx, member.role) && !isOwnerRole(ctx, next)) {
        const owners = await countMembersWithRole(trx, organizationId, ctx.options.organization.creatorRole);
        if (owners <= 1) {
          throw new ScimError(400, "The only owner of the organization cannot lose the owner role", "mutability");
        }
      }
      const updated = await updateMemberRoleData(ctx, trx, member.id, next);
      if (updated) await ctx.webhooks.enqueue(trx, "member.updated", updated);
    }
  }
  for (const teamId of new Set(affected.teamIds)) {
    const wanted = grants.filter((grant) => grant.teamId === teamId);
    const place = await findTeamMember(trx, teamId, userId);
    if (wanted.length === 0) {
      if (place) {
        await deleteTeamMember(trx, teamId, userId);
        await clearActiveTeam(trx, teamId, userId);
      }
      continue;
    }
    const teamRoles = parseRoles(wanted.flatMap((grant) => (grant.teamRole ? [grant.teamRole] : [])));
    const teamRole = teamRoles.length > 0 ? teamRoles.join(",") : null;
    if (!place) {
      const max = ctx.options.organization.teams.maximumMembersPerTeam;
      if (max !== undefined && (await countTeamMembers(trx, teamId)) >= max) {
        throw new ScimError(409, "The team this group is mapped to has reached its member limit");
      }
      await insertTeamMember(trx, { id: newId(), teamId, userId, now: ctx.now(), role: teamRole });
    } else if (teamRole !== null && place.role !== teamRole) {
      // A mapping without a team role leaves a role the team's managers gave alone.
      await setTeamMemberRole(trx, teamId, userId, teamRole);
    }
  }
}

/** Everything the user's mapped groups give (a user made active again). */
export async function reconcileAllGrants(
  ctx: AuthContext,
  trx: DB,
  organizationId: string,
  userId: string,
): Promise<void> {
  const grants = await grantsOfUser(trx, organizationId, userId);
  if (grants.length === 0) return;
  await reconcileMember(ctx, trx, organizationId, userId, {
    roles: grants.some((grant) => grant.role !== null),
    teamIds: grants.flatMap((grant) => (grant.teamId ? [grant.teamId] : [])),
  });
}

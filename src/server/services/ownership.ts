import type { Member, Session } from "../../contract/models.js";
import type { AuthContext } from "../context.js";
import { AuthError } from "../errors.js";
import type { DB } from "../store/database.js";
import { findMemberWithUser } from "../store/members.js";
import { clearActiveOrganizationEverywhere, lockOrganization } from "../store/organizations.js";
import { listMembershipOwners, type MembershipOwners } from "../store/ownership.js";
import { isOwnerRole, parseRoles } from "./access-control.js";
import { deleteOrganizationRows, updateMemberRoleData } from "./hooked-writes.js";
import { requireMember, resolveOrganizationId } from "./organization-access.js";

/** The role a former owner keeps after handing the ownership on. */
const FORMER_OWNER_ROLE = "admin";

/** Refuses while the user is the only owner of an organization that has other members. */
function refuseStrandedOrganizations(memberships: MembershipOwners[]): void {
  const stranded = memberships.filter((m) => m.ownedByUser && m.owners === 1 && m.members > 1);
  if (stranded.length === 0) return;
  throw new AuthError("USER_IS_THE_ONLY_OWNER_OF_AN_ORGANIZATION", {
    details: { organizationIds: stranded.map((m) => m.organizationId) },
  });
}

/**
 * A check before anything is mailed or asked (delete-user with a confirmation link): the answer the
 * deletion itself would give. The deletion checks again under the locks.
 */
export async function assertAccountDeletable(ctx: AuthContext, userId: string): Promise<void> {
  refuseStrandedOrganizations(await listMembershipOwners(ctx.db, userId, ctx.options.organization.creatorRole));
}

/**
 * Locks every organization the user belongs to, in id order. A membership that appears meanwhile
 * is locked in a further round, so the counts read last are those the deletion runs against.
 */
async function lockMemberships(ctx: AuthContext, trx: DB, userId: string): Promise<MembershipOwners[]> {
  const locked = new Set<string>();
  for (;;) {
    const memberships = await listMembershipOwners(trx, userId, ctx.options.organization.creatorRole);
    const fresh = memberships.filter((m) => !locked.has(m.organizationId));
    if (fresh.length === 0) return memberships;
    for (const { organizationId } of fresh) {
      await lockOrganization(trx, ctx.dialect, organizationId);
      locked.add(organizationId);
    }
  }
}

/**
 * Before a user's rows are deleted, in the deleting transaction: an organization always keeps an
 * owner, so the deletion is refused while the user is the only owner of one with other members.
 * Organizations the user is the only member of go with them (nobody could manage them again).
 * Answers the ids of the organizations deleted.
 */
export async function releaseMemberships(ctx: AuthContext, trx: DB, userId: string): Promise<string[]> {
  const memberships = await lockMemberships(ctx, trx, userId);
  refuseStrandedOrganizations(memberships);
  const deleted: string[] = [];
  for (const { organizationId } of memberships.filter((m) => m.members === 1)) {
    await clearActiveOrganizationEverywhere(trx, organizationId);
    await ctx.webhooks.enqueue(trx, "organization.deleted", await deleteOrganizationRows(ctx, trx, organizationId));
    deleted.push(organizationId);
  }
  return deleted;
}

/** The new owner's roles: the owner role in place of admin and member (other custom roles stay). */
function ownerRoles(ctx: AuthContext, role: string): string {
  const owner = ctx.options.organization.creatorRole;
  return [owner, ...parseRoles(role).filter((r) => r !== owner && r !== "admin" && r !== "member")].join(",");
}

/** The former owner's roles: admin in place of the owner role (other custom roles stay). */
function formerOwnerRoles(ctx: AuthContext, role: string): string {
  const owner = ctx.options.organization.creatorRole;
  const kept = parseRoles(role).filter((r) => r !== owner && r !== FORMER_OWNER_ROLE && r !== "member");
  return [FORMER_OWNER_ROLE, ...kept].join(",");
}

/**
 * POST /organization/transfer-ownership: an owner hands the owner role to another member and becomes
 * an admin, in one transaction under the organization lock that every role change and removal also
 * takes, so no interleaving can leave the organization with more owners or none.
 */
export async function transferOwnership(
  ctx: AuthContext,
  session: Session,
  input: { memberId?: string; userId?: string; organizationId?: string },
): Promise<{ owner: Member; previousOwner: Member }> {
  const organizationId = resolveOrganizationId(session, input.organizationId, "NO_ACTIVE_ORGANIZATION");
  return ctx.db.transaction().execute(async (trx) => {
    await lockOrganization(trx, ctx.dialect, organizationId);
    const caller = await requireMember(trx, organizationId, session.userId, "MEMBER_NOT_FOUND");
    // Checked before the target is looked up: a non-owner learns nothing about other members.
    if (!isOwnerRole(ctx, caller.role)) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_TRANSFER_OWNERSHIP");
    const by = input.memberId !== undefined ? { memberId: input.memberId } : { userId: input.userId };
    const target = await findMemberWithUser(trx, organizationId, by);
    if (!target) throw new AuthError("MEMBER_NOT_FOUND");
    if (target.id === caller.id) throw new AuthError("YOU_CANNOT_TRANSFER_OWNERSHIP_TO_YOURSELF");
    const owner = await updateMemberRoleData(ctx, trx, target.id, ownerRoles(ctx, target.role));
    const previousOwner = await updateMemberRoleData(ctx, trx, caller.id, formerOwnerRoles(ctx, caller.role));
    if (!owner || !previousOwner) throw new AuthError("MEMBER_NOT_FOUND");
    await ctx.webhooks.enqueue(trx, "member.updated", owner);
    await ctx.webhooks.enqueue(trx, "member.updated", previousOwner);
    return { owner, previousOwner };
  });
}

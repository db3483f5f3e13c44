import { locales } from "../../i18n/index.js";
import { auditChange, noteAudit } from "../audit/trail.service.js";
import type { AuthContext } from "../context.js";
import { newId } from "../crypto/random.js";
import { emailChangedNotice } from "../email/templates.js";
import { AuthError } from "../errors.js";
import { isOwnerRole } from "../services/access-control.js";
import { readFieldInput } from "../services/additional-fields.js";
import { emailDomain } from "../services/email-domain.js";
import { createUserRow, deleteMemberRow, updateUserRow } from "../services/hooked-writes.js";
import { stripUnprovenAccount } from "../services/mailbox-proof.js";
import { insertMemberUnderLimit } from "../services/members.js";
import { revokeGrantsOnLeaving } from "../services/oauth-provider/consents.js";
import { revokeAllSessions, revokeOrganizationSessions } from "../services/sessions.js";
import { organizationHoldsDomain } from "../sso/providers.store.js";
import type { DB } from "../store/database.js";
import { isUniqueViolation } from "../store/database.js";
import { countMembersWithRole, countUserMemberships, findMember } from "../store/members.js";
import { clearUserActiveOrganization, lockOrganization } from "../store/organizations.js";
import { findUserByEmail, findUserById } from "../store/users.js";
import {
  deleteScimUserLink,
  findScimUser,
  insertScimUserLink,
  listScimUsers,
  type ScimConnectionRow,
  type ScimUserRow,
  updateScimUserLink,
} from "./connections.store.js";
import { emailNotOwned, emailProvenElsewhere, invalidValue, ScimError, userNotFound } from "./errors.js";
import { parseUserFilter } from "./filter.service.js";
import { PROVISIONED_ROLE, reconcileAllGrants } from "./grants.service.js";
import { deleteScimGroupMembers, scimGroupIdsOfUser } from "./groups.store.js";
import { pageOf } from "./paging.js";
import { applyUserPatch, mappedFieldValues, parseUserResource, type UserDraft } from "./user-input.js";

/**
 * The directory's view of an organization's members (RFC 7644 section 3 on /scim/v2/Users). A
 * connection sees only the users it provisioned (scim/connections.store.ts); active means "is a member", so
 * deactivating or deleting removes the membership and ends the user's sessions on every instance.
 */

const uniqueness = (detail: string) => new ScimError(409, detail, "uniqueness");

export async function listUsers(
  ctx: AuthContext,
  connection: ScimConnectionRow,
  query: { filter?: string; startIndex?: string; count?: string },
): Promise<{ total: number; startIndex: number; users: ScimUserRow[] }> {
  const filter = parseUserFilter(query.filter);
  const { startIndex, count } = pageOf(query);
  const page = await listScimUsers(ctx.db, connection, { filter, offset: startIndex - 1, limit: count });
  return { total: page.total, startIndex, users: page.users };
}

export async function getUser(ctx: AuthContext, connection: ScimConnectionRow, userId: string): Promise<ScimUserRow> {
  const user = await findScimUser(ctx.db, connection, userId);
  if (!user) throw userNotFound();
  return user;
}

/**
 * Takes the membership away under the organization lock (the only owner keeps theirs) and ends the
 * sessions acting in the organization; when the person belongs to no organization any more, every
 * session of theirs (docs/scim.md, "Deprovisioning and sessions").
 */
async function endMembership(ctx: AuthContext, trx: DB, organizationId: string, userId: string): Promise<boolean> {
  const member = await findMember(trx, organizationId, userId);
  if (!member) return false;
  if (isOwnerRole(ctx, member.role)) {
    const owners = await countMembersWithRole(trx, organizationId, ctx.options.organization.creatorRole);
    if (owners <= 1) throw new ScimError(400, "The only owner of the organization cannot be deactivated", "mutability");
  }
  await deleteMemberRow(ctx, trx, member);
  await ctx.webhooks.enqueue(trx, "member.removed", member);
  // Before the active organization is cleared, which would hide which sessions acted in it.
  const nowhere = (await countUserMemberships(trx, userId)) === 0;
  if (nowhere) await revokeAllSessions(ctx, trx, userId);
  else await revokeOrganizationSessions(ctx, trx, userId, organizationId);
  await revokeGrantsOnLeaving(ctx, trx, userId, nowhere ? null : organizationId);
  await clearUserActiveOrganization(trx, userId, organizationId);
  return true;
}

async function beginMembership(ctx: AuthContext, trx: DB, organizationId: string, userId: string): Promise<void> {
  if (await findMember(trx, organizationId, userId)) return;
  try {
    await insertMemberUnderLimit(ctx, trx, { organizationId, userId, role: PROVISIONED_ROLE, teamIds: [] });
    // A person made active again gets what the directory's mapped groups give them.
    await reconcileAllGrants(ctx, trx, organizationId, userId);
  } catch (error) {
    if (error instanceof AuthError && error.code === "ORGANIZATION_MEMBERSHIP_LIMIT_REACHED") {
      throw new ScimError(409, "The organization has reached its membership limit");
    }
    throw error;
  }
}

/** Whether another of this connection's users already has the userName. */
async function userNameTaken(trx: DB, connection: ScimConnectionRow, draft: UserDraft, userId?: string) {
  const same = await listScimUsers(trx, connection, {
    filter: { attribute: "userName", value: draft.userName },
    offset: 0,
    limit: 1,
  });
  return same.users.some((user) => user.id !== userId);
}

/**
 * The app's own user fields for a new account: from the resource by scim.userFields, else their
 * defaults. A required field neither gives is a SCIM invalidValue naming it, not a failed insert.
 */
function userFieldValues(ctx: AuthContext, body: unknown): Record<string, unknown> {
  try {
    return readFieldInput(ctx.fields.user, mappedFieldValues(body, ctx.options.scim.userFields), {
      creating: true,
      source: "server",
    });
  } catch (error) {
    if (error instanceof AuthError) {
      throw invalidValue(
        `${error.message.replace(/^Invalid input: /, "The user field ")}; map it from a SCIM attribute (scim.userFields) or give it a default`,
      );
    }
    throw error;
  }
}

/**
 * Whether the directory may vouch for the address: only inside a domain its organization proved
 * (docs/scim.md, "Which addresses a directory vouches for"). Elsewhere it creates or moves an account
 * whose mailbox nobody proved.
 */
function vouchesFor(trx: DB, connection: ScimConnectionRow, email: string): Promise<boolean> {
  return organizationHoldsDomain(trx, connection.organizationId, emailDomain(email));
}

/**
 * POST /Users: a new user with the directory's email joins the organization, the address verified
 * only inside the organization's verified domains. An existing account is taken over only when the
 * owner allowed it (linkExistingMembers) and the person is already a member; otherwise 409, as Okta
 * and Entra expect for a user who exists.
 */
export async function createUser(ctx: AuthContext, connection: ScimConnectionRow, body: unknown): Promise<ScimUserRow> {
  const draft = parseUserResource(body);
  const fieldValues = userFieldValues(ctx, body);
  const { organizationId } = connection;
  let revoked = false;
  let userId: string;
  try {
    userId = await ctx.db.transaction().execute(async (trx) => {
      if (!(await lockOrganization(trx, ctx.dialect, organizationId))) throw userNotFound();
      if (await userNameTaken(trx, connection, draft)) throw uniqueness("A user with this userName exists");
      const now = ctx.now();
      const existing = await findUserByEmail(trx, draft.email);
      noteAudit(ctx, {
        details: { userName: draft.userName, linkedExisting: existing !== null, active: draft.active },
      });
      let id: string;
      if (existing) {
        const member = await findMember(trx, organizationId, existing.id);
        if (!connection.linkExistingMembers || !member) throw uniqueness("A user with this email exists");
        id = existing.id;
      } else {
        const user = await createUserRow(ctx, trx, {
          id: newId(),
          name: draft.name,
          email: draft.email,
          emailVerified: await vouchesFor(trx, connection, draft.email),
          image: null,
          role: ctx.options.admin.defaultRole,
          now,
          fields: { spec: ctx.fields.user, values: fieldValues },
        });
        await ctx.webhooks.enqueue(trx, "user.created", user);
        id = user.id;
      }
      await insertScimUserLink(trx, {
        ...connection,
        id: newId(),
        userId: id,
        userName: draft.userName,
        externalId: draft.externalId,
        createdUser: !existing,
        now,
      });
      if (draft.active) await beginMembership(ctx, trx, organizationId, id);
      else revoked = await endMembership(ctx, trx, organizationId, id);
      await auditChange(ctx, trx, { subjectId: id });
      return id;
    });
  } catch (error) {
    // Two creates of one person at once: the loser meets the unique email or link.
    if (isUniqueViolation(error)) throw uniqueness("A user with this userName or email exists");
    throw error;
  }
  if (revoked) await ctx.revocations.revokeUser(userId);
  return getUser(ctx, connection, userId);
}

/**
 * Moves an account the directory created to a new address, in the write's transaction, by the rules
 * of docs/scim.md ("Which addresses a directory vouches for"). Answers whether sessions ended (to
 * publish after the commit).
 */
async function readdress(
  ctx: AuthContext,
  trx: DB,
  connection: ScimConnectionRow,
  current: ScimUserRow,
  draft: UserDraft,
): Promise<boolean> {
  // A linked member's account is their own (they may belong to other organizations): moving
  // its address would let the directory take it over through a reset.
  if (!current.createdUser) throw emailNotOwned();
  const holder = await findUserByEmail(trx, draft.email);
  if (holder && holder.id !== current.id) throw uniqueness("A user with this email exists");
  const user = await findUserById(trx, current.id);
  if (!user) throw userNotFound();
  const [vouchedBefore, vouchedAfter] = await Promise.all([
    vouchesFor(trx, connection, user.email),
    vouchesFor(trx, connection, draft.email),
  ]);
  if (!vouchedBefore && user.emailVerified) throw emailProvenElsewhere();
  const now = ctx.now();
  let revoked = false;
  if (!(vouchedBefore && vouchedAfter)) {
    // Codes mailed to the old address go too (stripUnprovenAccount keys them by it).
    await stripUnprovenAccount(ctx, trx, user, "everything");
    revoked = (await revokeAllSessions(ctx, trx, user.id)) > 0;
  }
  const moved = await updateUserRow(
    ctx,
    trx,
    user.id,
    { email: draft.email, name: draft.name, emailVerified: vouchedAfter },
    now,
  );
  if (moved) await ctx.webhooks.enqueue(trx, "user.updated", moved);
  await ctx.mail.enqueue(trx, emailChangedNotice(locales[0], user.email, draft.email));
  return revoked;
}

/** Writes a draft over the user's current state: profile, link, then membership. */
async function writeDraft(
  ctx: AuthContext,
  connection: ScimConnectionRow,
  userId: string,
  next: (caller: UserDraft) => UserDraft,
): Promise<ScimUserRow> {
  let revoked = false;
  let readdressed = false;
  try {
    await ctx.db.transaction().execute(async (trx) => {
      if (!(await lockOrganization(trx, ctx.dialect, connection.organizationId))) throw userNotFound();
      const current = await findScimUser(trx, connection, userId);
      if (!current) throw userNotFound();
      const draft = next({
        userName: current.userName,
        email: current.email,
        name: current.name,
        externalId: current.externalId,
        active: current.active,
      });
      // Before any change: the first webhook it queues writes the entry (audit/trail.service.ts).
      noteAudit(ctx, {
        subjectId: userId,
        details: {
          ...(draft.email !== current.email ? { email: { from: current.email, to: draft.email } } : {}),
          ...(draft.active !== current.active ? { active: draft.active } : {}),
        },
      });
      if (draft.userName.toLowerCase() !== current.userName.toLowerCase()) {
        if (await userNameTaken(trx, connection, draft, userId)) throw uniqueness("A user with this userName exists");
      }
      const now = ctx.now();
      if (draft.email !== current.email) {
        readdressed = true;
        if (await readdress(ctx, trx, connection, current, draft)) revoked = true;
      } else if (draft.name !== current.name) {
        await updateUserRow(ctx, trx, userId, { name: draft.name }, now);
      }
      await updateScimUserLink(trx, connection, userId, {
        userName: draft.userName,
        externalId: draft.externalId,
        now,
      });
      if (draft.active && !current.active) await beginMembership(ctx, trx, connection.organizationId, userId);
      if (!draft.active && current.active) revoked = await endMembership(ctx, trx, connection.organizationId, userId);
      await auditChange(ctx, trx);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw uniqueness("A user with this email exists");
    throw error;
  }
  if (readdressed) ctx.mail.wake();
  if (revoked) await ctx.revocations.revokeUser(userId);
  return getUser(ctx, connection, userId);
}

/** PUT /Users/:id: the resource replaces what the directory said before. */
export function replaceUser(ctx: AuthContext, connection: ScimConnectionRow, userId: string, body: unknown) {
  const draft = parseUserResource(body);
  return writeDraft(ctx, connection, userId, () => draft);
}

/** PATCH /Users/:id: the operations applied to the current state. */
export function patchUser(ctx: AuthContext, connection: ScimConnectionRow, userId: string, body: unknown) {
  return writeDraft(ctx, connection, userId, (caller) => applyUserPatch(caller, body));
}

/**
 * DELETE /Users/:id: the person leaves the organization, their sessions end and the directory lets
 * go of them. The account itself stays: it may belong to other organizations.
 */
export async function deleteUser(ctx: AuthContext, connection: ScimConnectionRow, userId: string): Promise<void> {
  const revoked = await ctx.db.transaction().execute(async (trx) => {
    if (!(await lockOrganization(trx, ctx.dialect, connection.organizationId))) throw userNotFound();
    if (!(await findScimUser(trx, connection, userId))) throw userNotFound();
    const ended = await endMembership(ctx, trx, connection.organizationId, userId);
    for (const groupId of await scimGroupIdsOfUser(trx, connection, userId)) {
      await deleteScimGroupMembers(trx, groupId, [userId]);
    }
    await deleteScimUserLink(trx, connection, userId);
    await auditChange(ctx, trx, { subjectId: userId, details: { membershipEnded: ended } });
    return ended;
  });
  if (revoked) await ctx.revocations.revokeUser(userId);
}

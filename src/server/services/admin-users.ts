import type { z } from "zod";
import type { ListUsersQuery } from "../../contract/admin.js";
import { imageUrl, userName } from "../../contract/fields.js";
import type { ListedSession, User } from "../../contract/models.js";
import { parseRoles } from "../../contract/roles.js";
import { recordAudit } from "../audit/admin-log.service.js";
import type { AuthContext } from "../context.js";
import { newId } from "../crypto/random.js";
import { AuthError } from "../errors.js";
import { deleteCredentialAccount, findCredentialPassword, updateCredentialPassword } from "../store/accounts.js";
import { searchUsers } from "../store/admin-users.js";
import { type DB, isUniqueViolation } from "../store/database.js";
import { findSessionOwner, listActiveUserSessions, mapSession } from "../store/sessions.js";
import { findUserById, type updateUserProfile } from "../store/users.js";
import { parseInput } from "../validation.js";
import { deleteAccountRows } from "./account-deletion.js";
import { type AdminActor, isAdminUser, isKnownAdminRole, requireAdminPermission } from "./admin-access.js";
import { assertNewPasswordAcceptable, normalizeEmail } from "./credentials.js";
import { createCredentialAccount, createUserRow, deleteOneUserSession, updateUserRow } from "./hooked-writes.js";
import { hashSessionToken, revokeAllSessions } from "./sessions.js";
import { forgetTrustedDevices } from "./trusted-devices.js";

/**
 * The target of a change (update, role, ban, removal, password): another admin only with
 * admin.allowManagingAdmins, so one admin account cannot take over or lock out the others.
 */
async function manageableUser(ctx: AuthContext, actor: AdminActor, userId: string): Promise<User> {
  const user = await existingUser(ctx, userId);
  if (user.id !== actor.user.id && isAdminUser(ctx, user) && !ctx.options.admin.allowManagingAdmins) {
    throw new AuthError("YOU_CANNOT_MANAGE_ADMINS");
  }
  return user;
}

async function existingUser(ctx: AuthContext, userId: string): Promise<User> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new AuthError("USER_NOT_FOUND", { status: 404 });
  return user;
}

function checkedRoles(ctx: AuthContext, role: string | string[]): string {
  const roles = parseRoles(role);
  if (roles.length === 0 || roles.some((r) => !isKnownAdminRole(ctx, r))) {
    throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE");
  }
  return roles.join(",");
}

/** What an admin action records: the audit entry, and whether the user's sessions end with it. */
interface AdminAction<T = unknown> {
  action: string;
  targetUserId: string;
  details?: Record<string, unknown>;
  /** Details known only once the change ran (what a deletion took with it). */
  detailsOf?: (changed: T) => Record<string, unknown>;
  /** Every session of the user ends in the same transaction; other instances hear of it after the commit. */
  signsOut?: boolean;
}

/**
 * The one way an admin action changes a user: the change, the sign-out it asks for and its audit
 * entry commit together, so the log never tells of a change that did not happen (or misses one).
 */
async function applyAdminAction<T>(
  ctx: AuthContext,
  actor: AdminActor,
  action: AdminAction<T>,
  change: (trx: DB) => Promise<T>,
): Promise<T> {
  const result = await ctx.db.transaction().execute(async (trx) => {
    const changed = await change(trx);
    if (action.signsOut) await revokeAllSessions(ctx, trx, action.targetUserId);
    await recordAudit(ctx, trx, {
      actorUserId: actor.user.id,
      action: action.action,
      targetUserId: action.targetUserId,
      meta: actor.meta,
      details: action.detailsOf ? { ...action.details, ...action.detailsOf(changed) } : action.details,
    });
    return changed;
  });
  if (action.signsOut) await ctx.revocations.revokeUser(action.targetUserId);
  return result;
}

/** Changes the user's row and queues user.updated; 404 when the user went away meanwhile. */
async function updateAndAnnounce(
  ctx: AuthContext,
  trx: DB,
  userId: string,
  patch: Parameters<typeof updateUserProfile>[2],
  now = ctx.now(),
): Promise<User> {
  const user = await updateUserRow(ctx, trx, userId, patch, now);
  if (!user) throw new AuthError("USER_NOT_FOUND", { status: 404 });
  await ctx.webhooks.enqueue(trx, "user.updated", user);
  return user;
}

export async function createUserAsAdmin(
  ctx: AuthContext,
  actor: AdminActor,
  input: { email: string; password?: string; name: string; role?: string | string[] },
): Promise<User> {
  requireAdminPermission(ctx, actor, { user: ["create"] }, "YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS");
  if (input.role !== undefined) {
    requireAdminPermission(ctx, actor, { user: ["set-role"] }, "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE");
  }
  const email = normalizeEmail(input.email);
  const role = input.role === undefined ? ctx.options.admin.defaultRole : checkedRoles(ctx, input.role);
  if (input.password !== undefined) assertNewPasswordAcceptable(ctx, input.password);
  const passwordHash = input.password === undefined ? null : await ctx.hasher.hash(input.password);
  const now = ctx.now();
  const id = newId();
  try {
    return await applyAdminAction(
      ctx,
      actor,
      { action: "user.create", targetUserId: id, details: { email, role } },
      async (trx) => {
        const user = await createUserRow(ctx, trx, {
          id,
          name: input.name.trim(),
          email,
          emailVerified: false,
          image: null,
          role,
          now,
        });
        await ctx.webhooks.enqueue(trx, "user.created", user);
        if (passwordHash) await createCredentialAccount(ctx, trx, { id: newId(), userId: id, passwordHash, now });
        return user;
      },
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw new AuthError("USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL", { status: 400 });
    throw error;
  }
}

export async function listUsersAsAdmin(ctx: AuthContext, actor: AdminActor, query: ListUsersQuery) {
  requireAdminPermission(ctx, actor, { user: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS");
  const { users, total } = await searchUsers(ctx.db, query);
  return { users, total, limit: query.limit ?? 100, offset: query.offset ?? 0 };
}

export async function getUserAsAdmin(ctx: AuthContext, actor: AdminActor, userId: string): Promise<User> {
  requireAdminPermission(ctx, actor, { user: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_GET_USER");
  return existingUser(ctx, userId);
}

/** The admin's `data` is free-form: the fields it sets get the same checks as the user's own routes. */
function checkField<T>(schema: z.ZodType<T>, field: string, value: unknown): T {
  return parseInput(schema, value, `body.data.${field}`);
}

/** Name, image, email and its verified flag; the role and password have their own routes. */
export async function updateUserAsAdmin(
  ctx: AuthContext,
  actor: AdminActor,
  userId: string,
  data: Record<string, unknown>,
): Promise<User> {
  requireAdminPermission(ctx, actor, { user: ["create"] }, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS");
  if ("password" in data) throw new AuthError("PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER");
  const patch: { name?: string; image?: string | null; email?: string; emailVerified?: boolean } = {};
  if (typeof data.name === "string" && data.name.trim()) patch.name = checkField(userName, "name", data.name).trim();
  if (data.image === null) patch.image = null;
  else if (typeof data.image === "string") patch.image = checkField(imageUrl, "image", data.image);
  if (typeof data.email === "string") patch.email = normalizeEmail(data.email);
  if (typeof data.emailVerified === "boolean") patch.emailVerified = data.emailVerified;
  if (Object.keys(patch).length === 0) throw new AuthError("NO_DATA_TO_UPDATE");
  await manageableUser(ctx, actor, userId);
  try {
    return await applyAdminAction(
      ctx,
      actor,
      { action: "user.update", targetUserId: userId, details: { fields: Object.keys(patch) } },
      (trx) => updateAndAnnounce(ctx, trx, userId, patch),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw new AuthError("USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL", { status: 400 });
    throw error;
  }
}

export async function setRoleAsAdmin(
  ctx: AuthContext,
  actor: AdminActor,
  userId: string,
  role: string | string[],
): Promise<User> {
  requireAdminPermission(ctx, actor, { user: ["set-role"] }, "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE");
  const roles = checkedRoles(ctx, role);
  await manageableUser(ctx, actor, userId);
  return applyAdminAction(
    ctx,
    actor,
    { action: "user.set-role", targetUserId: userId, details: { role: roles } },
    (trx) => updateAndAnnounce(ctx, trx, userId, { role: roles }),
  );
}

/** Bans the user and ends every session they have, in one transaction. */
export async function banUserAsAdmin(
  ctx: AuthContext,
  actor: AdminActor,
  input: { userId: string; banReason?: string; banExpiresIn?: number },
): Promise<User> {
  requireAdminPermission(ctx, actor, { user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS");
  if (input.userId === actor.user.id) throw new AuthError("YOU_CANNOT_BAN_YOURSELF");
  await manageableUser(ctx, actor, input.userId);
  const now = ctx.now();
  const banExpires = input.banExpiresIn ? new Date(now.getTime() + input.banExpiresIn * 1000) : null;
  const banReason = input.banReason ?? "No reason";
  return applyAdminAction(
    ctx,
    actor,
    {
      action: "user.ban",
      targetUserId: input.userId,
      details: { banReason, banExpires: banExpires?.toISOString() ?? null },
      signsOut: true,
    },
    (trx) => updateAndAnnounce(ctx, trx, input.userId, { banned: true, banReason, banExpires }, now),
  );
}

export async function unbanUserAsAdmin(ctx: AuthContext, actor: AdminActor, userId: string): Promise<User> {
  requireAdminPermission(ctx, actor, { user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS");
  await existingUser(ctx, userId);
  return applyAdminAction(ctx, actor, { action: "user.unban", targetUserId: userId }, (trx) =>
    updateAndAnnounce(ctx, trx, userId, { banned: false, banReason: null, banExpires: null }),
  );
}

/**
 * Deletes the user with their sessions, accounts, memberships and pending one-time values, as
 * self-deletion does, under the same owner rules: an admin cannot force the deletion of an
 * organization's only owner (the owner transfers the ownership or deletes the organization first).
 */
export async function removeUserAsAdmin(ctx: AuthContext, actor: AdminActor, userId: string): Promise<void> {
  requireAdminPermission(ctx, actor, { user: ["delete"] }, "YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS");
  if (userId === actor.user.id) throw new AuthError("YOU_CANNOT_REMOVE_YOURSELF");
  const user = await manageableUser(ctx, actor, userId);
  // The deletion takes the sessions; signing out publishes that to the other instances.
  await applyAdminAction(
    ctx,
    actor,
    {
      action: "user.remove",
      targetUserId: userId,
      details: { email: user.email },
      detailsOf: (deletedOrganizationIds) => ({ deletedOrganizationIds }),
      signsOut: true,
    },
    (trx) => deleteAccountRows(ctx, trx, userId),
  );
}

export async function setUserPasswordAsAdmin(
  ctx: AuthContext,
  actor: AdminActor,
  userId: string,
  newPassword: string,
): Promise<void> {
  requireAdminPermission(ctx, actor, { user: ["set-password"] }, "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD");
  assertNewPasswordAcceptable(ctx, newPassword);
  await manageableUser(ctx, actor, userId);
  const passwordHash = await ctx.hasher.hash(newPassword);
  const now = ctx.now();
  // Whoever was signed in as the user (perhaps the reason for the reset) is signed out.
  await applyAdminAction(
    ctx,
    actor,
    { action: "user.set-password", targetUserId: userId, signsOut: true },
    async (trx) => {
      if ((await findCredentialPassword(trx, userId)) === null) {
        await deleteCredentialAccount(trx, userId);
        await createCredentialAccount(ctx, trx, { id: newId(), userId, passwordHash, now });
      } else {
        await updateCredentialPassword(trx, userId, passwordHash, now);
      }
      // As with the user's own reset: no device stays trusted past the password it was trusted under.
      await forgetTrustedDevices(trx, userId);
    },
  );
}

export async function listUserSessionsAsAdmin(
  ctx: AuthContext,
  actor: AdminActor,
  userId: string,
): Promise<ListedSession[]> {
  requireAdminPermission(ctx, actor, { session: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS");
  const rows = await listActiveUserSessions(ctx.db, userId, ctx.now());
  return rows.map((row) => ({ ...mapSession(row, row.id), current: false }));
}

/** Revokes one session, named by its token or its revocation handle (from list-user-sessions). */
export async function revokeUserSessionAsAdmin(
  ctx: AuthContext,
  actor: AdminActor,
  sessionToken: string,
): Promise<void> {
  requireAdminPermission(ctx, actor, { session: ["revoke"] }, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS");
  const target = await findSessionOwner(ctx.db, hashSessionToken(sessionToken), sessionToken);
  if (!target) return;
  await applyAdminAction(
    ctx,
    actor,
    { action: "session.revoke", targetUserId: target.userId, details: { sessionId: target.id } },
    async (trx) => {
      const revoked = await deleteOneUserSession(ctx, trx, target.userId, hashSessionToken(sessionToken), sessionToken);
      await ctx.webhooks.enqueue(trx, "session.revoked", revoked);
    },
  );
  await ctx.revocations.revokeUser(target.userId);
}

export async function revokeUserSessionsAsAdmin(ctx: AuthContext, actor: AdminActor, userId: string): Promise<void> {
  requireAdminPermission(ctx, actor, { session: ["revoke"] }, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS");
  await applyAdminAction(
    ctx,
    actor,
    { action: "session.revoke-all", targetUserId: userId, signsOut: true },
    async () => {},
  );
}

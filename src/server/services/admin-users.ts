import type { z } from "zod";
import type { ListUsersQuery } from "../../contract/admin.js";
import { imageUrl, userName } from "../../contract/fields.js";
import type { ListedSession, User } from "../../contract/models.js";
import type { AuthContext } from "../context.js";
import { newId } from "../crypto/random.js";
import { AuthError } from "../errors.js";
import {
  deleteCredentialAccount,
  findCredentialPassword,
  insertCredentialAccount,
  updateCredentialPassword,
} from "../store/accounts.js";
import { searchUsers } from "../store/admin-users.js";
import { isUniqueViolation } from "../store/database.js";
import { deleteUserSession, findSessionOwner, listActiveUserSessions, mapSession } from "../store/sessions.js";
import { findUserById, insertUser, updateUserProfile } from "../store/users.js";
import { parseInput } from "../validation.js";
import { deleteAccountRows } from "./account-deletion.js";
import { type AdminActor, isAdminUser, isKnownAdminRole, requireAdminPermission } from "./admin-access.js";
import { recordAudit } from "./audit.js";
import { assertNewPasswordAcceptable, normalizeEmail } from "./credentials.js";
import { parseRoles } from "./permissions.js";
import { hashSessionToken, revokeAllSessions } from "./sessions.js";

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
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const user = await insertUser(trx, {
        id: newId(),
        name: input.name.trim(),
        email,
        emailVerified: false,
        image: null,
        role,
        now,
      });
      await ctx.webhooks.enqueue(trx, "user.created", user);
      if (passwordHash) await insertCredentialAccount(trx, { id: newId(), userId: user.id, passwordHash, now });
      await recordAudit(ctx, trx, {
        actorUserId: actor.user.id,
        action: "user.create",
        targetUserId: user.id,
        meta: actor.meta,
        details: { email, role },
      });
      return user;
    });
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
    return await ctx.db.transaction().execute(async (trx) => {
      const user = await updateUserProfile(trx, userId, patch, ctx.now());
      if (!user) throw new AuthError("USER_NOT_FOUND", { status: 404 });
      await ctx.webhooks.enqueue(trx, "user.updated", user);
      await recordAudit(ctx, trx, {
        actorUserId: actor.user.id,
        action: "user.update",
        targetUserId: userId,
        meta: actor.meta,
        details: { fields: Object.keys(patch) },
      });
      return user;
    });
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
  return ctx.db.transaction().execute(async (trx) => {
    const user = await updateUserProfile(trx, userId, { role: roles }, ctx.now());
    if (!user) throw new AuthError("USER_NOT_FOUND", { status: 404 });
    await ctx.webhooks.enqueue(trx, "user.updated", user);
    await recordAudit(ctx, trx, {
      actorUserId: actor.user.id,
      action: "user.set-role",
      targetUserId: userId,
      meta: actor.meta,
      details: { role: roles },
    });
    return user;
  });
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
  const banned = await ctx.db.transaction().execute(async (trx) => {
    const user = await updateUserProfile(trx, input.userId, { banned: true, banReason, banExpires }, now);
    if (!user) throw new AuthError("USER_NOT_FOUND", { status: 404 });
    await ctx.webhooks.enqueue(trx, "user.updated", user);
    await revokeAllSessions(ctx, trx, input.userId);
    await recordAudit(ctx, trx, {
      actorUserId: actor.user.id,
      action: "user.ban",
      targetUserId: input.userId,
      meta: actor.meta,
      details: { banReason, banExpires: banExpires?.toISOString() ?? null },
    });
    return user;
  });
  await ctx.revocations.revokeUser(input.userId);
  return banned;
}

export async function unbanUserAsAdmin(ctx: AuthContext, actor: AdminActor, userId: string): Promise<User> {
  requireAdminPermission(ctx, actor, { user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS");
  await existingUser(ctx, userId);
  return ctx.db.transaction().execute(async (trx) => {
    const user = await updateUserProfile(trx, userId, { banned: false, banReason: null, banExpires: null }, ctx.now());
    if (!user) throw new AuthError("USER_NOT_FOUND", { status: 404 });
    await ctx.webhooks.enqueue(trx, "user.updated", user);
    await recordAudit(ctx, trx, {
      actorUserId: actor.user.id,
      action: "user.unban",
      targetUserId: userId,
      meta: actor.meta,
    });
    return user;
  });
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
  await ctx.db.transaction().execute(async (trx) => {
    const deletedOrganizationIds = await deleteAccountRows(ctx, trx, userId);
    await recordAudit(ctx, trx, {
      actorUserId: actor.user.id,
      action: "user.remove",
      targetUserId: userId,
      meta: actor.meta,
      details: { email: user.email, deletedOrganizationIds },
    });
  });
  await ctx.revocations.revokeUser(userId);
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
  await ctx.db.transaction().execute(async (trx) => {
    if ((await findCredentialPassword(trx, userId)) === null) {
      await deleteCredentialAccount(trx, userId);
      await insertCredentialAccount(trx, { id: newId(), userId, passwordHash, now });
    } else {
      await updateCredentialPassword(trx, userId, passwordHash, now);
    }
    // Whoever was signed in as the user (perhaps the reason for the reset) is signed out.
    await revokeAllSessions(ctx, trx, userId);
    await recordAudit(ctx, trx, {
      actorUserId: actor.user.id,
      action: "user.set-password",
      targetUserId: userId,
      meta: actor.meta,
    });
  });
  await ctx.revocations.revokeUser(userId);
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
  await ctx.db.transaction().execute(async (trx) => {
    const revoked = await deleteUserSession(trx, target.userId, hashSessionToken(sessionToken), sessionToken);
    await ctx.webhooks.enqueue(trx, "session.revoked", revoked);
    await recordAudit(ctx, trx, {
      actorUserId: actor.user.id,
      action: "session.revoke",
      targetUserId: target.userId,
      meta: actor.meta,
      details: { sessionId: target.id },
    });
  });
  await ctx.revocations.revokeUser(target.userId);
}

export async function revokeUserSessionsAsAdmin(ctx: AuthContext, actor: AdminActor, userId: string): Promise<void> {
  requireAdminPermission(ctx, actor, { session: ["revoke"] }, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS");
  await ctx.db.transaction().execute(async (trx) => {
    await revokeAllSessions(ctx, trx, userId);
    await recordAudit(ctx, trx, {
      actorUserId: actor.user.id,
      action: "session.revoke-all",
      targetUserId: userId,
      meta: actor.meta,
    });
  });
  await ctx.revocations.revokeUser(userId);
}

import type { Context } from "hono";
import { adminEndpoints } from "../../contract/endpoints/index.js";
import type { SessionWithUser } from "../../contract/models.js";
import { parseRoles } from "../../contract/roles.js";
import { listAuditLog } from "../audit/admin-log.service.js";
import {
  clearSessionCookies,
  expireCookie,
  isDontRemember,
  readSignedCookie,
  writeSessionCookies,
  writeSignedCookie,
} from "../http/cookies.js";
import type { AuthEnv } from "../http/env.js";
import type { Route } from "../http/route.js";
import { requestMeta } from "../http/session.js";
import { type AdminActor, hasAdminPermission, requireAdminPermission } from "../services/admin-access.js";
import { listUserAccountsAsAdmin, listUserMembershipsAsAdmin } from "../services/admin-user-links.js";
import {
  banUserAsAdmin,
  createUserAsAdmin,
  getUserAsAdmin,
  listUserSessionsAsAdmin,
  listUsersAsAdmin,
  removeUserAsAdmin,
  revokeUserSessionAsAdmin,
  revokeUserSessionsAsAdmin,
  setRoleAsAdmin,
  setUserPasswordAsAdmin,
  unbanUserAsAdmin,
  updateUserAsAdmin,
} from "../services/admin-users.js";
import { impersonateUser, stopImpersonating } from "../services/impersonation.js";

/** The signed-in caller as an admin actor (the database session, never the cookie cache). */
function actor(c: Context<AuthEnv>, { user }: SessionWithUser): AdminActor {
  return { user, meta: requestMeta(c) };
}

export function adminRoutes(route: Route): void {
  route(adminEndpoints.createUser, async (c, { body, caller }) => {
    return { user: await createUserAsAdmin(c.get("auth"), actor(c, caller), body) };
  });

  route(adminEndpoints.listUsers, async (c, { query, caller }) => {
    return listUsersAsAdmin(c.get("auth"), actor(c, caller), query);
  });

  route(adminEndpoints.getUser, async (c, { query: { id }, caller }) => {
    return getUserAsAdmin(c.get("auth"), actor(c, caller), id);
  });

  route(adminEndpoints.listUserMemberships, async (c, { query: { userId }, caller }) => {
    return { memberships: await listUserMembershipsAsAdmin(c.get("auth"), actor(c, caller), userId) };
  });

  route(adminEndpoints.listUserAccounts, async (c, { query: { userId }, caller }) => {
    return { accounts: await listUserAccountsAsAdmin(c.get("auth"), actor(c, caller), userId) };
  });

  route(adminEndpoints.updateUser, async (c, { body: { userId, data }, caller }) => {
    return updateUserAsAdmin(c.get("auth"), actor(c, caller), userId, data);
  });

  route(adminEndpoints.setRole, async (c, { body: { userId, role }, caller }) => {
    return { user: await setRoleAsAdmin(c.get("auth"), actor(c, caller), userId, role) };
  });

  route(adminEndpoints.banUser, async (c, { body, caller }) => {
    return { user: await banUserAsAdmin(c.get("auth"), actor(c, caller), body) };
  });

  route(adminEndpoints.unbanUser, async (c, { body: { userId }, caller }) => {
    return { user: await unbanUserAsAdmin(c.get("auth"), actor(c, caller), userId) };
  });

  route(adminEndpoints.removeUser, async (c, { body: { userId }, caller }) => {
    await removeUserAsAdmin(c.get("auth"), actor(c, caller), userId);
    return { success: true };
  });

  route(adminEndpoints.setUserPassword, async (c, { body: { userId, newPassword }, caller }) => {
    await setUserPasswordAsAdmin(c.get("auth"), actor(c, caller), userId, newPassword);
    return { status: true };
  });

  route(adminEndpoints.listUserSessions, async (c, { body: { userId }, caller }) => {
    return { sessions: await listUserSessionsAsAdmin(c.get("auth"), actor(c, caller), userId) };
  });

  route(adminEndpoints.revokeUserSession, async (c, { body: { sessionToken }, caller }) => {
    await revokeUserSessionAsAdmin(c.get("auth"), actor(c, caller), sessionToken);
    return { success: true };
  });

  route(adminEndpoints.revokeUserSessions, async (c, { body: { userId }, caller }) => {
    await revokeUserSessionsAsAdmin(c.get("auth"), actor(c, caller), userId);
    return { success: true };
  });

  route(adminEndpoints.impersonateUser, async (c, { body: { userId }, caller }) => {
    const ctx = c.get("auth");
    const admin = actor(c, caller);
    const adminToken = readSignedCookie(c, "session_token");
    const impersonation = await impersonateUser(ctx, admin, userId);
    // Remember the admin's own session (and whether it was remembered) for stop-impersonating.
    writeSignedCookie(
      c,
      "admin_session",
      `${adminToken}:${isDontRemember(c) ? "1" : ""}`,
      ctx.options.admin.impersonationSessionDuration,
    );
    writeSessionCookies(c, impersonation, { rememberMe: false });
    return impersonation;
  });

  route(adminEndpoints.stopImpersonating, async (c, { caller }) => {
    const [adminToken = null, dontRemember] = (readSignedCookie(c, "admin_session") ?? "").split(":");
    const restored = await stopImpersonating(c.get("auth"), caller, adminToken || null, requestMeta(c));
    clearSessionCookies(c);
    expireCookie(c, "admin_session");
    writeSessionCookies(c, restored, { rememberMe: dontRemember !== "1" });
    return restored;
  });

  route(adminEndpoints.hasPermission, async (c, { body, caller }) => {
    const ctx = c.get("auth");
    const { user, meta } = actor(c, caller);
    let subject = { id: user.id, role: user.role };
    if (body.role !== undefined) subject = { id: "", role: parseRoles(body.role).join(",") };
    else if (body.userId && body.userId !== user.id) {
      requireAdminPermission(ctx, { user, meta }, { user: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_GET_USER");
      subject = await getUserAsAdmin(ctx, { user, meta }, body.userId);
    }
    return { error: null, success: hasAdminPermission(ctx, subject, body.permissions) };
  });

  route(adminEndpoints.listAuditLog, async (c, { query, caller }) => {
    return listAuditLog(c.get("auth"), actor(c, caller), query);
  });
}

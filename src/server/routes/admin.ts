import type { Context, Hono } from "hono";
import {
  adminHasPermissionBody,
  banUserBody,
  createUserBody,
  getUserQuery,
  listAuditLogQuery,
  listUsersQuery,
  revokeUserSessionBody,
  setRoleBody,
  setUserPasswordBody,
  updateUserAsAdminBody,
  userIdBody,
  userIdQuery,
} from "../../contract/admin.js";
import { AuthError } from "../errors.js";
import {
  clearSessionCookies,
  expireCookie,
  isDontRemember,
  readSignedCookie,
  writeSessionCookies,
  writeSignedCookie,
} from "../http/cookies.js";
import type { AuthEnv } from "../http/env.js";
import { readBody, readQuery } from "../http/input.js";
import { requestMeta, requireSession } from "../http/session.js";
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
import { listAuditLog } from "../services/audit.js";
import { impersonateUser, stopImpersonating } from "../services/impersonation.js";
import { parseRoles } from "../services/permissions.js";

/** The signed-in caller as an admin actor; the database session, never the cookie cache. */
async function actor(c: Context<AuthEnv>): Promise<AdminActor> {
  if (!c.get("auth").options.admin.enabled) throw new AuthError("NOT_FOUND");
  const { user } = await requireSession(c);
  return { user, meta: requestMeta(c) };
}

export function adminRoutes(app: Hono<AuthEnv>): void {
  app.post("/admin/create-user", async (c) => {
    const body = readBody(c, createUserBody);
    return c.json({ user: await createUserAsAdmin(c.get("auth"), await actor(c), body) });
  });

  app.get("/admin/list-users", async (c) => {
    const query = readQuery(c, listUsersQuery);
    return c.json(await listUsersAsAdmin(c.get("auth"), await actor(c), query));
  });

  app.get("/admin/get-user", async (c) => {
    const { id } = readQuery(c, getUserQuery);
    return c.json(await getUserAsAdmin(c.get("auth"), await actor(c), id));
  });

  app.get("/admin/list-user-memberships", async (c) => {
    const { userId } = readQuery(c, userIdQuery);
    return c.json({ memberships: await listUserMembershipsAsAdmin(c.get("auth"), await actor(c), userId) });
  });

  app.get("/admin/list-user-accounts", async (c) => {
    const { userId } = readQuery(c, userIdQuery);
    return c.json({ accounts: await listUserAccountsAsAdmin(c.get("auth"), await actor(c), userId) });
  });

  app.post("/admin/update-user", async (c) => {
    const { userId, data } = readBody(c, updateUserAsAdminBody);
    return c.json(await updateUserAsAdmin(c.get("auth"), await actor(c), userId, data));
  });

  app.post("/admin/set-role", async (c) => {
    const { userId, role } = readBody(c, setRoleBody);
    return c.json({ user: await setRoleAsAdmin(c.get("auth"), await actor(c), userId, role) });
  });

  app.post("/admin/ban-user", async (c) => {
    const body = readBody(c, banUserBody);
    return c.json({ user: await banUserAsAdmin(c.get("auth"), await actor(c), body) });
  });

  app.post("/admin/unban-user", async (c) => {
    const { userId } = readBody(c, userIdBody);
    return c.json({ user: await unbanUserAsAdmin(c.get("auth"), await actor(c), userId) });
  });

  app.post("/admin/remove-user", async (c) => {
    const { userId } = readBody(c, userIdBody);
    await removeUserAsAdmin(c.get("auth"), await actor(c), userId);
    return c.json({ success: true });
  });

  app.post("/admin/set-user-password", async (c) => {
    const { userId, newPassword } = readBody(c, setUserPasswordBody);
    await setUserPasswordAsAdmin(c.get("auth"), await actor(c), userId, newPassword);
    return c.json({ status: true });
  });

  app.post("/admin/list-user-sessions", async (c) => {
    const { userId } = readBody(c, userIdBody);
    return c.json({ sessions: await listUserSessionsAsAdmin(c.get("auth"), await actor(c), userId) });
  });

  app.post("/admin/revoke-user-session", async (c) => {
    const { sessionToken } = readBody(c, revokeUserSessionBody);
    await revokeUserSessionAsAdmin(c.get("auth"), await actor(c), sessionToken);
    return c.json({ success: true });
  });

  app.post("/admin/revoke-user-sessions", async (c) => {
    const { userId } = readBody(c, userIdBody);
    await revokeUserSessionsAsAdmin(c.get("auth"), await actor(c), userId);
    return c.json({ success: true });
  });

  app.post("/admin/impersonate-user", async (c) => {
    const { userId } = readBody(c, userIdBody);
    const ctx = c.get("auth");
    const admin = await actor(c);
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
    return c.json(impersonation);
  });

  app.post("/admin/stop-impersonating", async (c) => {
    const current = await requireSession(c);
    const [adminToken = null, dontRemember] = (readSignedCookie(c, "admin_session") ?? "").split(":");
    const restored = await stopImpersonating(c.get("auth"), current, adminToken || null, requestMeta(c));
    clearSessionCookies(c);
    expireCookie(c, "admin_session");
    writeSessionCookies(c, restored, { rememberMe: dontRemember !== "1" });
    return c.json(restored);
  });

  app.post("/admin/has-permission", async (c) => {
    const body = readBody(c, adminHasPermissionBody);
    const ctx = c.get("auth");
    const { user, meta } = await actor(c);
    let subject = { id: user.id, role: user.role };
    if (body.role !== undefined) subject = { id: "", role: parseRoles(body.role).join(",") };
    else if (body.userId && body.userId !== user.id) {
      requireAdminPermission(ctx, { user, meta }, { user: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_GET_USER");
      subject = await getUserAsAdmin(ctx, { user, meta }, body.userId);
    }
    return c.json({ error: null, success: hasAdminPermission(ctx, subject, body.permissions) });
  });

  app.get("/admin/list-audit-log", async (c) => {
    const query = readQuery(c, listAuditLogQuery);
    return c.json(await listAuditLog(c.get("auth"), await actor(c), query));
  });
}

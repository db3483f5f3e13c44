import type { SessionWithUser } from "../../contract/models.js";
import { recordAudit } from "../audit/admin-log.service.js";
import type { AuthContext } from "../context.js";
import { AuthError } from "../errors.js";
import { deleteSessionById } from "../store/sessions.js";
import { findUserById } from "../store/users.js";
import { type AdminActor, isAdminUser, requireAdminPermission } from "./admin-access.js";
import { createSession, lookupSession } from "./sessions.js";

/**
 * Opens a short session as another user, marked impersonatedBy the admin. The admin's own session
 * stays alive; the route keeps its token in a signed cookie so stop-impersonating can return to it.
 */
export async function impersonateUser(ctx: AuthContext, actor: AdminActor, userId: string): Promise<SessionWithUser> {
  requireAdminPermission(ctx, actor, { user: ["impersonate"] }, "YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS");
  const target = await findUserById(ctx.db, userId);
  if (!target) throw new AuthError("USER_NOT_FOUND", { status: 404 });
  if (isAdminUser(ctx, target) && !ctx.options.admin.allowImpersonatingAdmins) {
    throw new AuthError("YOU_CANNOT_IMPERSONATE_ADMINS");
  }
  return ctx.db.transaction().execute(async (trx) => {
    const session = await createSession(ctx, trx, target.id, actor.meta, {
      secondFactor: "impersonation",
      signInMethod: "impersonation",
      rememberMe: false,
      impersonatedBy: actor.user.id,
      expiresInSeconds: ctx.options.admin.impersonationSessionDuration,
      knownUser: target,
    });
    await recordAudit(ctx, trx, {
      actorUserId: actor.user.id,
      action: "user.impersonate",
      targetUserId: target.id,
      meta: actor.meta,
      details: { sessionId: session.id, expiresAt: session.expiresAt.toISOString() },
    });
    return { session, user: target };
  });
}

/** Ends the impersonation session and hands back the admin's own, which must still be live and theirs. */
export async function stopImpersonating(
  ctx: AuthContext,
  caller: SessionWithUser,
  adminSessionToken: string | null,
  meta: AdminActor["meta"],
): Promise<SessionWithUser> {
  const adminId = caller.session.impersonatedBy;
  if (!adminId) throw new AuthError("NOT_IMPERSONATING");
  const admin = adminSessionToken ? await lookupSession(ctx, adminSessionToken, { refresh: false }) : null;
  if (admin?.status !== "active" || admin.data.user.id !== adminId) throw new AuthError("ADMIN_SESSION_NOT_FOUND");
  await ctx.db.transaction().execute(async (trx) => {
    await deleteSessionById(trx, caller.session.id);
    await ctx.webhooks.enqueue(trx, "session.revoked", caller.session);
    await recordAudit(ctx, trx, {
      actorUserId: adminId,
      action: "user.stop-impersonating",
      targetUserId: caller.user.id,
      meta,
      details: { sessionId: caller.session.id },
    });
  });
  await ctx.revocations.revokeUser(caller.user.id);
  return admin.data;
}

import type { AuthContext } from "../context.js";
import { newId } from "../crypto/random.js";
import { type AdminActor, requireAdminPermission } from "../services/admin-access.js";
import type { RequestMeta } from "../services/sessions.js";
import type { DB } from "../store/database.js";
import { insertAuditEntry, listAuditEntries } from "./admin-log.store.js";
import { auditChange } from "./trail.service.js";

/** Appends to the audit log; pass the transaction of the change so the record and the change land together. */
export async function recordAudit(
  ctx: AuthContext,
  db: DB,
  entry: {
    actorUserId: string;
    action: string;
    targetUserId: string | null;
    meta: RequestMeta;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await insertAuditEntry(db, {
    id: newId(),
    actorUserId: entry.actorUserId,
    action: entry.action,
    targetUserId: entry.targetUserId,
    ipAddress: entry.meta.ipAddress,
    userAgent: entry.meta.userAgent,
    details: entry.details ?? null,
    createdAt: ctx.now(),
  });
  // The security trail's entry for the request, in the same transaction (audit/trail.service.ts).
  await auditChange(ctx, db, { subjectId: entry.targetUserId ?? undefined, details: entry.details });
}

export async function listAuditLog(
  ctx: AuthContext,
  actor: AdminActor,
  query: { limit?: number; offset?: number; targetUserId?: string; actorUserId?: string },
) {
  requireAdminPermission(ctx, actor, { user: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_READ_THE_AUDIT_LOG");
  const limit = query.limit ?? 100;
  const offset = query.offset ?? 0;
  return { ...(await listAuditEntries(ctx.db, { ...query, limit, offset })), limit, offset };
}

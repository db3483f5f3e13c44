import type { AuthContext } from "../context.js";
import { deleteExpiredAttempts } from "../store/attempt-counters.js";
import {
  deleteExpiredSessions,
  deleteExpiredVerifications,
  deleteFinishedWebhookDeliveries,
  deleteSentMailBefore,
} from "../store/housekeeping.js";
import { pruneAuditTrailByRetention } from "./audit-trail.js";

/** Delivered mail is kept this long for the development outbox page and support questions. */
const SENT_MAIL_RETENTION_MS = 7 * 86400 * 1000;
/** Delivered webhooks are kept a week too; given-up ones a month, long enough to notice and replay by hand. */
export const DELIVERED_WEBHOOK_RETENTION_MS = 7 * 86400 * 1000;
export const FAILED_WEBHOOK_RETENTION_MS = 30 * 86400 * 1000;

/**
 * Deletes what can never be used again: expired sessions and one-time values, old delivered mail and
 * old finished webhook deliveries, and audit entries past their retention (audit.retentionDays).
 * Expired rows are already refused when read; this keeps the tables (and their indexes) small.
 */
export async function sweepExpired(
  ctx: AuthContext,
): Promise<{ sessions: number; verifications: number; mail: number; webhooks: number; audit: number }> {
  const now = ctx.now();
  const sessions = await deleteExpiredSessions(ctx.db, now);
  const verifications = await deleteExpiredVerifications(ctx.db, now);
  await deleteExpiredAttempts(ctx.db, now);
  const mail = await deleteSentMailBefore(ctx.db, new Date(now.getTime() - SENT_MAIL_RETENTION_MS));
  const webhooks = await deleteFinishedWebhookDeliveries(ctx.db, {
    delivered: new Date(now.getTime() - DELIVERED_WEBHOOK_RETENTION_MS),
    failed: new Date(now.getTime() - FAILED_WEBHOOK_RETENTION_MS),
  });
  const audit = await pruneAuditTrailByRetention(ctx);
  return { sessions, verifications, mail, webhooks, audit };
}

/** Runs the sweep every `intervalMs` in the background; returns a function that stops it. */
export function startHousekeeping(ctx: AuthContext, intervalMs = 10 * 60_000): () => void {
  const timer = setInterval(() => {
    sweepExpired(ctx).catch((error) => ctx.logger.warn("housekeeping sweep failed", { error: String(error) }));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

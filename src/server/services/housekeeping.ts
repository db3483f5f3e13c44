import { pruneAuditTrailByRetention } from "../audit/trail.service.js";
import type { AuthContext } from "../context.js";
import { type DoneRowKind, deleteDoneRows, withHousekeepingLease } from "../store/housekeeping.js";

// Delivered mail and webhooks are kept `housekeeping.deliveredRetention` seconds (a week by default)
// for the development outbox page and support questions.
/** Given-up webhooks are kept a month, long enough to notice and replay by hand. */
export const FAILED_WEBHOOK_RETENTION_MS = 30 * 86400 * 1000;
/**
 * A known device not seen for 400 days goes: its device cookie lasts 400 days from the last request
 * that renewed it (http/session.ts), so no browser can still present it; signing in again from that
 * browser would be a new device in any case (docs/security-activity.md).
 */
export const KNOWN_DEVICE_RETENTION_MS = 400 * 86400 * 1000;
/**
 * An expired API key stays listed a month (its owner sees why calls fail, and when it last
 * worked), then goes with the addresses it was used from.
 */
export const EXPIRED_API_KEY_RETENTION_MS = 30 * 86400 * 1000;
/** An ended setup link stays listed a month for its owners (who made it, when it was last used). */
export const EXPIRED_SETUP_LINK_RETENTION_MS = 30 * 86400 * 1000;

/** What a sweep prunes, in order: each kind of done row, how long it is kept once done (ms), and the count it adds to. */
function pruned(delivered: number): readonly {
  kind: DoneRowKind;
  keptMs: number;
  counted: keyof Omit<Sweep, "audit" | "startedAt" | "finishedAt">;
}[] {
  return [
    { kind: "sessions", keptMs: 0, counted: "sessions" },
    { kind: "verifications", keptMs: 0, counted: "verifications" },
    { kind: "twoFactorChallenges", keptMs: 0, counted: "twoFactorChallenges" },
    { kind: "attempts", keptMs: 0, counted: "attempts" },
    { kind: "sentMail", keptMs: delivered, counted: "mail" },
    { kind: "deliveredWebhooks", keptMs: delivered, counted: "webhooks" },
    { kind: "failedWebhooks", keptMs: FAILED_WEBHOOK_RETENTION_MS, counted: "webhooks" },
    { kind: "knownDevices", keptMs: KNOWN_DEVICE_RETENTION_MS, counted: "knownDevices" },
    { kind: "oauthCodes", keptMs: 0, counted: "oauth" },
    { kind: "oauthRefreshTokens", keptMs: 0, counted: "oauth" },
    { kind: "oauthDeviceCodes", keptMs: 0, counted: "oauth" },
    { kind: "oauthGrants", keptMs: 0, counted: "oauth" },
    { kind: "oauthAccessTokens", keptMs: 0, counted: "oauth" },
    { kind: "deliveredLogouts", keptMs: delivered, counted: "oauth" },
    { kind: "failedLogouts", keptMs: FAILED_WEBHOOK_RETENTION_MS, counted: "oauth" },
    { kind: "expiredApiKeys", keptMs: EXPIRED_API_KEY_RETENTION_MS, counted: "apiKeys" },
    { kind: "expiredSetupLinks", keptMs: EXPIRED_SETUP_LINK_RETENTION_MS, counted: "setupLinks" },
  ];
}

/** Rows one sweep deleted, by kind, and when it held the lease (epoch ms). */
export interface Sweep {
  sessions: number;
  verifications: number;
  twoFactorChallenges: number;
  attempts: number;
  mail: number;
  webhooks: number;
  /** Known devices not seen for KNOWN_DEVICE_RETENTION_MS. */
  knownDevices: number;
  /** OAuth codes, refresh tokens and grants past their expiry. */
  oauth: number;
  /** API keys expired longer than EXPIRED_API_KEY_RETENTION_MS. */
  apiKeys: number;
  /** Setup links expired longer than EXPIRED_SETUP_LINK_RETENTION_MS. */
  setupLinks: number;
  /** Audit entries past audit.retentionDays. */
  audit: number;
  startedAt: number;
  finishedAt: number;
}

/**
 * Deletes what can never be used again: expired sessions (with their proofs), one-time values
 * (OAuth states among them), two-factor challenges and attempt counts, delivered mail and webhooks
 * older than housekeeping.deliveredRetention, given-up webhooks older than a month, devices not seen
 * for 400 days, API keys and setup links a month past their expiry, and audit entries past audit.retentionDays, in statements of at most
 * `housekeeping.batchSize` rows; the cut-off is fixed when the sweep starts, so it ends however fast
 * rows expire. Answers null when another instance is sweeping the database.
 */
export async function sweepExpired(ctx: AuthContext, stopped: () => boolean = () => false): Promise<Sweep | null> {
  const { batchSize, deliveredRetention } = ctx.options.housekeeping;
  const drain = async (prune: (limit: number) => Promise<number>): Promise<number> => {
    let total = 0;
    for (;;) {
      const deleted = await prune(batchSize);
      total += deleted;
      if (deleted < batchSize || stopped()) return total;
      // Between batches, let the requests waiting on this process run.
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return withHousekeepingLease(ctx.db, ctx.dialect, async () => {
    const startedAt = Date.now();
    const now = ctx.now();
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const deleted = {
      sessions: 0,
      verifications: 0,
      twoFactorChallenges: 0,
      attempts: 0,
      mail: 0,
      webhooks: 0,
      knownDevices: 0,
      oauth: 0,
      apiKeys: 0,
      setupLinks: 0,
      audit: 0,
    };
    for (const { kind, keptMs, counted } of pruned(deliveredRetention * 1000)) {
      deleted[counted] += await drain((limit) => deleteDoneRows(ctx.db, ctx.dialect, kind, ago(keptMs), limit));
    }
    deleted.audit = await pruneAuditTrailByRetention(ctx);
    return { ...deleted, startedAt, finishedAt: Date.now() };
  });
}

/**
 * Sweeps every `housekeeping.interval` seconds in the background (the next sweep is timed from the
 * end of the last, so one process never runs two). Returns a function that stops it, waiting for a
 * sweep under way to finish its batch.
 */
export function startHousekeeping(ctx: AuthContext): () => Promise<void> {
  const { enabled, interval } = ctx.options.housekeeping;
  if (!enabled) return async () => {};
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout;
  const sweepOnce = async () => {
    try {
      const sweep = await sweepExpired(ctx, () => stopped);
      if (sweep && deletedRows(sweep) > 0) ctx.logger.info("housekeeping sweep", { ...sweep });
    } catch (error) {
      if (!stopped) ctx.logger.warn("housekeeping sweep failed", { error: String(error) });
    }
  };
  const schedule = () => {
    timer = setTimeout(() => {
      running = sweepOnce().then(() => {
        if (!stopped) schedule();
      });
    }, interval * 1000);
    timer.unref();
  };
  schedule();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}

function deletedRows({ startedAt: _startedAt, finishedAt: _finishedAt, ...counts }: Sweep): number {
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

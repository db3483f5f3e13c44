import type { AuthContext } from "../context.js";
import { newId } from "../crypto/random.js";
import { hasUnsealedEntries, releaseSealerLease, sealAuditBatch } from "./trail.store.js";

/** Entries sealed in one transaction at most; a full batch is followed by the next at once. */
export const SEAL_BATCH = 500;
/** How often committed entries are sealed when the server runs (docs/audit.md, "Sealing"). */
export const SEAL_INTERVAL_MS = 200;
/** SQLite: how long a sealer's lease outlives its last batch, so a stopped instance's lapses soon. */
const LEASE_MS = 5_000;

export interface AuditSealerOptions {
  /** How often to seal; 0: only when asked (sealNow), for tests that hold entries unsealed. */
  intervalMs?: number;
}

/**
 * Numbers and hash-chains committed audit entries, after their changes committed (issue 50): every
 * audited write inserts its entry unsealed, with no lock shared by the others, and this seals them
 * in batches, oldest first. Any instance may run one; the database keeps them one at a time
 * (audit/trail.store.ts, claimHead). Started with the server, it first seals whatever waited while
 * no instance ran; a batch commits whole, so one cut short is redone by the next.
 */
export class AuditSealer {
  /** Names this instance's sealer in SQLite's lease. */
  readonly #id = newId();
  readonly #ctx: AuthContext;
  readonly #intervalMs: number;
  #timer: NodeJS.Timeout | null = null;
  /** Runs one after another in this process: the last one queued. */
  #tail: Promise<unknown> = Promise.resolve();
  #queued = 0;
  #stopped = false;
  /** The timer's last pass failed: said once per streak, not every interval while the database is down. */
  #failing = false;

  constructor(ctx: AuthContext, options: AuditSealerOptions = {}) {
    this.#ctx = ctx;
    this.#intervalMs = options.intervalMs ?? SEAL_INTERVAL_MS;
  }

  /** Seals the backlog, then every interval. */
  start(): void {
    if (this.#timer || this.#stopped || this.#intervalMs === 0) return;
    this.#timer = setInterval(() => this.#tick(), this.#intervalMs);
    this.#timer.unref();
    this.#tick();
  }

  /**
   * Seals every entry committed before the call, waiting for another sealer's batch rather than
   * leaving the work to it; with `wait: false`, as the timer does, it leaves the work to a sealer
   * that holds the head. Returns how many this call sealed.
   */
  sealNow({ wait = true }: { wait?: boolean } = {}): Promise<number> {
    return this.#queue(wait);
  }

  /** Stops the timer, waits for the batch in flight, and gives SQLite's lease back. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#tail;
    try {
      await releaseSealerLease(this.#ctx.db, this.#ctx.dialect, this.#id);
    } catch (error) {
      this.#ctx.logger.warn("audit sealer could not release its lease", { error: String(error) });
    }
  }

  #tick(): void {
    // A pass already waiting covers whatever this one would find.
    if (this.#queued > 0 || this.#stopped) return;
    this.#queue(false).then(
      () => {
        if (this.#failing) this.#ctx.logger.info("audit sealing resumed");
        this.#failing = false;
      },
      (error: unknown) => {
        if (!this.#failing) this.#ctx.logger.error("audit sealing failed", { error: String(error) });
        this.#failing = true;
      },
    );
  }

  #queue(wait: boolean): Promise<number> {
    this.#queued++;
    const run = this.#tail.then(() => this.#sealAll(wait)).finally(() => this.#queued--);
    this.#tail = run.catch(() => {});
    return run;
  }

  async #sealAll(wait: boolean): Promise<number> {
    const ctx = this.#ctx;
    // An idle instance's timer costs one read, not a transaction (on SQLite a write, for the lease).
    if (!wait && !(await hasUnsealedEntries(ctx.db))) return 0;
    let total = 0;
    for (;;) {
      const sealed = await ctx.db.transaction().execute(async (trx) => {
        const batch = await sealAuditBatch(
          trx,
          ctx.dialect,
          {
            sealerId: this.#id,
            nowMs: Date.now(),
            leaseMs: LEASE_MS,
            wait,
            limit: SEAL_BATCH,
          },
          ctx.db,
        );
        // Streamed once sealed, numbered and hashed, in the batch's transaction: an entry is sent
        // once, and a batch that rolls back sends nothing (docs/webhooks.md, `audit.entry`).
        if (batch && batch.count > 0 && ctx.webhooks.wants("audit.entry")) {
          await ctx.webhooks.enqueue(trx, "audit.entry", batch.entries());
        }
        return batch?.count ?? null;
      });
      if (sealed === null) break;
      total += sealed;
      if (sealed < SEAL_BATCH || (this.#stopped && !wait)) break;
    }
    if (total > 0) ctx.webhooks.wakeIfQueued();
    return total;
  }
}

import { RECIPIENT_CAP, RECIPIENT_WINDOW_MS } from "../../contract/mail-limits.js";
import { newId } from "../crypto/random.js";
import type { Logger } from "../logger.js";
import { OUTBOX_BATCH, OutboxWorker } from "../outbox-worker.js";
import { claimAttempt } from "../store/attempt-counters.js";
import type { DB } from "../store/database.js";
import { toDate, toDateOrNull } from "../store/values.js";
import { type ActionMail, isActionMail, renderActionMail } from "./layout.js";
import type { MailMessage } from "./message.js";
import type { MailTransport } from "./transport.js";

export interface OutboxEntry extends MailMessage {
  id: string;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date;
  sentAt: Date | null;
  createdAt: Date;
}

export interface MailOutboxOptions {
  transport: MailTransport;
  from: string;
  logger: Logger;
  now: () => Date;
  /** The product's name in every mail's header and footer (options.appName). */
  appName?: string;
  /** First retry delay; doubles per attempt up to maxRetryDelayMs. */
  retryBaseMs?: number;
  maxRetryDelayMs?: number;
  /** How often due retries are looked for when nothing wakes the worker. */
  pollIntervalMs?: number;
}

/**
 * Mail anyone can make us send to an address they name (links to verify, reset, confirm, delete):
 * at most RECIPIENT_CAP of them per address in a window of RECIPIENT_WINDOW_MS from the first (the
 * dropped ones do not stretch it), whatever the route or the requester's IP, so nobody can bomb an
 * inbox through us. Each mail claims its place in the address's window before it is queued
 * (store/attempt-counters.ts), so parallel requests cannot all pass the cap, and every instance
 * shares the count. Past the cap the mail is dropped (logged); the answer does not tell.
 */
export const RECIPIENT_CAPPED_KINDS = [
  "verify-email",
  "reset-password",
  "change-email-verification",
  "change-email-confirmation",
  "delete-account",
  "magic-link",
  "two-factor-otp",
  "email-otp",
] as const;
export { RECIPIENT_CAP, RECIPIENT_WINDOW_MS } from "../../contract/mail-limits.js";

const cappedKinds: ReadonlySet<string> = new Set(RECIPIENT_CAPPED_KINDS);

/** How long one delivery attempt holds a row, so two instances never send the same mail at once. */
const LEASE_MS = 60_000;

/**
 * Mail goes through a table: a service writes the message in the same transaction as the change that
 * causes it (`enqueue(trx, ...)`), and after the commit `wake()` delivers it at once. A failed send is
 * retried with exponential backoff, so an SMTP outage delays mail and loses none; every attempt and
 * the last error stay visible on the row.
 */
export class MailOutbox {
  readonly #db: DB;
  readonly #options: Required<MailOutboxOptions>;
  readonly #worker: OutboxWorker;

  constructor(db: DB, options: MailOutboxOptions) {
    this.#db = db;
    this.#options = {
      ...options,
      retryBaseMs: options.retryBaseMs ?? 1000,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 5 * 60_000,
      pollIntervalMs: options.pollIntervalMs ?? 5000,
      appName: options.appName ?? "Gatehouse",
    };
    this.#worker = new OutboxWorker({
      name: "mail",
      logger: options.logger,
      pollIntervalMs: this.#options.pollIntervalMs,
      deliverBatch: () => this.#deliverBatch(),
    });
  }

  /**
   * Queues the message in the caller's transaction (call wake() after the commit); false when the
   * recipient cap dropped it. A template's words (ActionMail) are laid out here, with the app's name.
   */
  async enqueue(db: DB, mail: MailMessage | ActionMail): Promise<boolean> {
    const message = isActionMail(mail) ? renderActionMail(mail, this.#options.appName) : mail;
    const now = this.#options.now();
    if (cappedKinds.has(message.kind)) {
      const window = { limit: RECIPIENT_CAP, expiresAt: new Date(now.getTime() + RECIPIENT_WINDOW_MS) };
      if ((await claimAttempt(db, `mail-to:${message.to}`, now, window)) === null) {
        this.#options.logger.info("mail dropped: recipient cap reached", { kind: message.kind });
        return false;
      }
    }
    await db
      .insertInto("outbox")
      .values({ id: newId(), ...message, nextAttemptAt: now, createdAt: now, lastError: null, sentAt: null })
      .execute();
    return true;
  }

  /** Starts the retry poll. */
  start(): void {
    this.#worker.start();
  }

  /** Delivers whatever is due now; wakes coalesce, so many commits cost one pass. */
  wake(): void {
    this.#worker.wake();
  }

  #wakeAfterRequest = false;

  /** For a message queued in a transaction its writer does not commit: the request's end wakes the worker. */
  wakeAfterRequest(): void {
    this.#wakeAfterRequest = true;
  }

  /** Called when a request ends (its transactions have committed). */
  wakeIfQueued(): void {
    if (!this.#wakeAfterRequest) return;
    this.#wakeAfterRequest = false;
    this.wake();
  }

  /** Resolves once every due message has had an attempt (for tests and shutdown). */
  flush(): Promise<void> {
    return this.#worker.flush();
  }

  async stop(): Promise<void> {
    await this.#worker.stop();
    this.#options.transport.close();
  }

  async list(limit = 100): Promise<OutboxEntry[]> {
    const rows = await this.#db.selectFrom("outbox").selectAll().orderBy("createdAt", "desc").limit(limit).execute();
    return rows.map((row) => ({
      ...row,
      attempts: Number(row.attempts),
      nextAttemptAt: toDate(row.nextAttemptAt),
      sentAt: toDateOrNull(row.sentAt),
      createdAt: toDate(row.createdAt),
    }));
  }

  /** Attempts one batch of due messages; returns how many were due. */
  async #deliverBatch(): Promise<number> {
    const now = this.#options.now();
    const due = await this.#db
      .selectFrom("outbox")
      .selectAll()
      .where("sentAt", "is", null)
      .where("nextAttemptAt", "<=", now)
      .orderBy("createdAt")
      .limit(OUTBOX_BATCH)
      .execute();
    for (const row of due) {
      if (this.#worker.stopped) break;
      const leaseUntil = new Date(now.getTime() + LEASE_MS);
      const claimed = await this.#db
        .updateTable("outbox")
        .set({ nextAttemptAt: leaseUntil })
        .where("id", "=", row.id)
        .where("sentAt", "is", null)
        .where("nextAttemptAt", "<=", now)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) continue;
      const attempts = Number(row.attempts) + 1;
      try {
        await this.#options.transport.send({ ...row, from: this.#options.from });
        await this.#db
          .updateTable("outbox")
          .set({ sentAt: this.#options.now(), attempts, lastError: null })
          .where("id", "=", row.id)
          .execute();
      } catch (error) {
        const delay = Math.min(this.#options.retryBaseMs * 2 ** (attempts - 1), this.#options.maxRetryDelayMs);
        const message = error instanceof Error ? error.message : String(error);
        this.#options.logger.warn("mail delivery failed; will retry", { to: row.to, attempts, error: message });
        await this.#db
          .updateTable("outbox")
          .set({
            attempts,
            lastError: message.slice(0, 1000),
            nextAttemptAt: new Date(this.#options.now().getTime() + delay),
          })
          .where("id", "=", row.id)
          .execute();
      }
    }
    return due.length;
  }
}

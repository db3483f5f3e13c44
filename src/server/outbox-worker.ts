import type { Logger } from "./logger.js";

/** Rows one pass reads at a time; a full batch means there may be more due. */
export const OUTBOX_BATCH = 20;

export interface OutboxWorkerOptions {
  /** Names the outbox in the log when a pass fails. */
  name: string;
  logger: Logger;
  /** How often due retries are looked for when nothing wakes the worker. */
  pollIntervalMs: number;
  /** Attempts one batch of due rows (at most OUTBOX_BATCH); returns how many were due. */
  deliverBatch: () => Promise<number>;
}

/**
 * The worker behind an outbox table (mail, webhooks): one pass at a time, wakes coalesce (a wake
 * during a pass asks for one more pass, so many commits cost one), a poll catches due retries, and
 * stop() waits for the pass in flight. Which rows are due, and their leases, are the outbox's own.
 */
export class OutboxWorker {
  readonly #options: OutboxWorkerOptions;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  #again = false;
  #stopped = false;

  constructor(options: OutboxWorkerOptions) {
    this.#options = options;
  }

  /** Whether stop() was called: a batch checks it between rows. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** Starts the retry poll and makes a first pass. */
  start(): void {
    if (this.#timer || this.#stopped) return;
    this.#timer = setInterval(() => this.wake(), this.#options.pollIntervalMs);
    this.#timer.unref();
    this.wake();
  }

  /** Delivers whatever is due now. */
  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#drain().finally(() => {
      this.#running = null;
    });
  }

  /** Resolves once every due row has had an attempt (for tests and shutdown). */
  async flush(): Promise<void> {
    this.wake();
    while (this.#running) await this.#running;
  }

  /** Stops the poll and waits for the attempts in flight; undelivered rows wait for the next start. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    if (this.#running) await this.#running;
  }

  async #drain(): Promise<void> {
    do {
      this.#again = false;
      try {
        while ((await this.#options.deliverBatch()) === OUTBOX_BATCH && !this.#stopped) {}
      } catch (error) {
        this.#options.logger.error(`${this.#options.name} outbox pass failed`, { error: String(error) });
      }
    } while (this.#again && !this.#stopped);
  }
}

import { WEBHOOK_TEST_EVENT } from "../../contract/organization-webhooks.js";
import { decryptString } from "../crypto/encryption.js";
import { newId } from "../crypto/random.js";
import type { Logger } from "../logger.js";
import { OUTBOX_BATCH, OutboxWorker } from "../outbox-worker.js";
import { publicFetch } from "../providers/public-fetch.js";
import type { DB } from "../store/database.js";
import {
  findOrganizationWebhook,
  recordWebhookAttempt,
  subscribedOrganizationWebhooks,
} from "../store/organization-webhooks.js";
import { toDate, toDateOrNull } from "../store/values.js";
import { ORGANIZATION_EVENTS } from "../webhook-settings.js";
import { organizationOfEvent, type WebhookEvent, type WebhookEventData, wireData } from "./events.js";
import { signedHeaders } from "./signing.js";

/** One configured receiver (options `webhooks`). */
export interface WebhookEndpoint {
  url: string;
  /** `whsec_<base64>`, checked at start-up. */
  secret: string;
  events: readonly WebhookEvent[];
  /** An organization's own subscription: only the events of that organization reach it. */
  organizationId?: string;
}

export interface WebhookOutboxOptions {
  endpoints: readonly WebhookEndpoint[];
  logger: Logger;
  now: () => Date;
  /** First retry delay; doubles per attempt up to maxRetryDelayMs. */
  retryBaseMs?: number;
  maxRetryDelayMs?: number;
  /** After this many failed attempts the delivery is given up (failedAt set, kept for inspection). */
  maxAttempts?: number;
  /** One attempt's limit, connection to last byte of the answer's head. */
  timeoutMs?: number;
  /** How often due retries are looked for when nothing wakes the worker. */
  pollIntervalMs?: number;
  /**
   * Organizations' own webhooks (options.organizationWebhooks), read from the database by each
   * organization event's enqueue; absent when they are switched off.
   */
  organizationWebhooks?: OrganizationWebhookDelivery;
  /** Told of ended sessions (`session.revoked`), when something listens. */
  sessionEnds?: SessionEndListener;
}

export interface OrganizationWebhookDelivery {
  /** Their secrets' encryption key (receiver-url.ts webhookSecretKey). */
  secretKey: Buffer;
  /** Whether their receivers may be on private addresses; otherwise each is dialled by publicFetch. */
  allowPrivateUrls: boolean;
}

/**
 * Told of every change handed to enqueue, in its transaction, whether or not a webhook subscribes
 * (an audited request's trail, audit/trail.service.ts); `pending` says whether it wants the next
 * one, so a one-statement change gets a transaction to share with it.
 */
export interface ChangeHook {
  pending(): boolean;
  record(db: DB, event: WebhookEvent, data: unknown): Promise<void>;
  /**
   * A database on which a one-statement change records itself in that same statement, for a change
   * whose facts (what its rows would tell the record) are known before it runs; undefined where that
   * cannot be done (then the change gets a transaction to share with its record).
   */
  merging?(db: DB, facts: ChangeFacts): DB | undefined;
}

/**
 * Told of every ended session, in the transaction that ended it (back-channel logout,
 * services/oauth-provider/backchannel-logout.ts); woken and flushed with the outbox.
 */
export interface SessionEndListener {
  sessionsEnded(db: DB, sessionIds: readonly string[]): Promise<void>;
  wakeIfQueued(): void;
  flush(): Promise<void>;
}

/** What a change's rows say about it, as far as its record is concerned: whom and which organization it concerns. */
export interface ChangeFacts {
  subjectId?: string;
  organizationId?: string;
}

/** The outbox as services reach it (`ctx.webhooks`): the outbox itself, or a request's view of it. */
export type Webhooks = Pick<
  WebhookOutbox,
  "wants" | "enqueue" | "enqueueTest" | "atomic" | "wakeIfQueued" | "flush" | "list" | "stop" | "hearing"
>;

export interface WebhookDeliveryEntry {
  /** The `webhook-id` header: the same on every attempt, so receivers can drop duplicates. */
  id: string;
  url: string;
  eventType: string;
  /** The exact body that is signed and sent. */
  payload: string;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date;
  deliveredAt: Date | null;
  /** Set when the delivery was given up after maxAttempts. */
  failedAt: Date | null;
  createdAt: Date;
  /** The organization's own webhook it is for; null for a configured one. */
  endpointId: string | null;
}

/** Defaults: 5 s doubling to at most an hour, 20 attempts (the last about 10.4 hours after the first), 10 s each. */
export const WEBHOOK_RETRY_BASE_MS = 5000;
export const WEBHOOK_MAX_RETRY_DELAY_MS = 3600_000;
export const WEBHOOK_MAX_ATTEMPTS = 20;
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** How an outbox of signed POSTs retries; each field left out takes the webhook default. */
export interface DeliveryTiming {
  retryBaseMs?: number;
  maxRetryDelayMs?: number;
  maxAttempts?: number;
  timeoutMs?: number;
  pollIntervalMs?: number;
}

/** The timing given, with the webhook defaults (and a 2 s poll) where it says nothing. */
export function deliveryTiming(given: DeliveryTiming): Required<DeliveryTiming> {
  return {
    retryBaseMs: given.retryBaseMs ?? WEBHOOK_RETRY_BASE_MS,
    maxRetryDelayMs: given.maxRetryDelayMs ?? WEBHOOK_MAX_RETRY_DELAY_MS,
    maxAttempts: given.maxAttempts ?? WEBHOOK_MAX_ATTEMPTS,
    timeoutMs: given.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
    pollIntervalMs: given.pollIntervalMs ?? 2000,
  };
}

/** How long one attempt holds a row, so two instances never send the same delivery at once. */
const LEASE_MS = 60_000;

/**
 * Webhook deliveries go through a table, written in the change's own transaction (`enqueue(trx, ...)`):
 * a rollback sends nothing, a commit loses nothing. The worker POSTs each row signed, retrying with
 * capped backoff; the `webhook-id` stays the same across attempts so receivers can deduplicate.
 * With no endpoint subscribed to an event, enqueue and atomic cost nothing (no query, no transaction).
 */
export class WebhookOutbox {
  readonly #db: DB;
  readonly #options: Required<Omit<WebhookOutboxOptions, "organizationWebhooks" | "sessionEnds">>;
  readonly #ownWebhooks: OrganizationWebhookDelivery | undefined;
  readonly #sessionEnds: SessionEndListener | undefined;
  readonly #byEvent = new Map<WebhookEvent, WebhookEndpoint[]>();
  readonly #byUrl = new Map<string, WebhookEndpoint>();
  readonly #worker: OutboxWorker;
  #queued = false;

  constructor(db: DB, options: WebhookOutboxOptions) {
    this.#db = db;
    this.#ownWebhooks = options.organizationWebhooks;
    this.#sessionEnds = options.sessionEnds;
    const { organizationWebhooks: _own, sessionEnds: _ends, ...rest } = options;
    this.#options = { ...rest, ...deliveryTiming(options) };
    this.#worker = new OutboxWorker({
      name: "webhook",
      logger: options.logger,
      pollIntervalMs: this.#options.pollIntervalMs,
      deliverBatch: () => this.#deliverBatch(),
    });
    for (const endpoint of options.endpoints) {
      this.#byUrl.set(endpoint.url, endpoint);
      for (const event of new Set(endpoint.events)) {
        const list = this.#byEvent.get(event) ?? [];
        list.push(endpoint);
        this.#byEvent.set(event, list);
      }
    }
  }

  /** Whether any endpoint may subscribe to the event (an organization's own: only a read can tell). */
  wants(event: WebhookEvent): boolean {
    return (
      this.#byEvent.has(event) ||
      this.#mayHaveOwn(event) ||
      (event === "session.revoked" && this.#sessionEnds !== undefined)
    );
  }

  /** Organization events may have organizations' own subscribers when those are switched on. */
  #mayHaveOwn(event: WebhookEvent): boolean {
    return this.#ownWebhooks !== undefined && ORGANIZATION_EVENTS.has(event);
  }

  /** Whether anything can ever be delivered: the worker runs only then. */
  get #active(): boolean {
    return this.#byUrl.size > 0 || this.#ownWebhooks !== undefined;
  }

  /**
   * Queues the event (one delivery per subscribed endpoint, per item) in the caller's transaction.
   * Nothing is written when no endpoint subscribes or `data` is null (nothing changed); the
   * request's end wakes the worker.
   */
  async enqueue<E extends WebhookEvent>(
    db: DB,
    event: E,
    data: WebhookEventData[E] | readonly WebhookEventData[E][] | null,
    changeHook?: ChangeHook,
  ): Promise<void> {
    if (data === null || (Array.isArray(data) && data.length === 0)) return;
    // An audit entry is the record of a change, not one: it gets no entry of its own.
    if (changeHook && event !== "audit.entry") await changeHook.record(db, event, data);
    if (event === "session.revoked" && this.#sessionEnds) {
      const sessions = (Array.isArray(data) ? data : [data]) as readonly { id: string }[];
      await this.#sessionEnds.sessionsEnded(
        db,
        sessions.map((session) => session.id),
      );
    }
    const endpoints = this.#byEvent.get(event) ?? [];
    const mayHaveOwn = this.#mayHaveOwn(event);
    if (endpoints.length === 0 && !mayHaveOwn) return;
    const items: readonly WebhookEventData[E][] = Array.isArray(data) ? data : [data as WebhookEventData[E]];
    if (items.length === 0) return;
    const own = mayHaveOwn ? await this.#ownSubscribers(db, event, items) : null;
    const now = this.#options.now();
    const rows = items.flatMap((item) => {
      const organizationId = organizationOfEvent(event, item);
      const receivers: { url: string; endpointId: string | null }[] = endpoints
        .filter((endpoint) => endpoint.organizationId === undefined || endpoint.organizationId === organizationId)
        .map((endpoint) => ({ url: endpoint.url, endpointId: null }));
      if (organizationId !== null) receivers.push(...(own?.get(organizationId) ?? []));
      if (receivers.length === 0) return [];
      const payload = deliveryPayload(event, now, wireData(event, item));
      return receivers.map((receiver) => newDelivery(receiver, event, payload, now));
    });
    if (rows.length === 0) return;
    await db.insertInto("webhookDelivery").values(rows).execute();
    this.#queued = true;
  }

  /**
   * Queues one `webhook.test` delivery to an organization's own webhook, whatever it subscribes to:
   * signed, sent and retried as any delivery, so it checks the receiver the events will reach.
   * Returns its id (the `webhook-id` header).
   */
  async enqueueTest(db: DB, hook: { id: string; url: string; organizationId: string }): Promise<string> {
    const now = this.#options.now();
    const payload = deliveryPayload(WEBHOOK_TEST_EVENT, now, {
      webhookId: hook.id,
      organizationId: hook.organizationId,
    });
    const delivery = newDelivery({ url: hook.url, endpointId: hook.id }, WEBHOOK_TEST_EVENT, payload, now);
    await db.insertInto("webhookDelivery").values(delivery).execute();
    this.#queued = true;
    return delivery.id;
  }

  /** The organizations' own enabled subscriptions to the event, by organization: one read in the change's transaction. */
  async #ownSubscribers(
    db: DB,
    event: WebhookEvent,
    items: readonly unknown[],
  ): Promise<Map<string, { url: string; endpointId: string }[]>> {
    const byOrganization = new Map<string, { url: string; endpointId: string }[]>();
    const ids = [...new Set(items.map((item) => organizationOfEvent(event, item)))].filter(
      (id): id is string => id !== null,
    );
    if (ids.length === 0) return byOrganization;
    for (const hook of await subscribedOrganizationWebhooks(db, ids)) {
      if (!hook.events.includes(event)) continue;
      const list = byOrganization.get(hook.organizationId) ?? [];
      list.push({ url: hook.url, endpointId: hook.id });
      byOrganization.set(hook.organizationId, list);
    }
    return byOrganization;
  }

  /**
   * Runs a change that is one statement on its own (a sign-out, a rename) in a transaction when the
   * event has a subscriber or a record is pending, so the change and its enqueue commit together;
   * otherwise straight on `db`. `facts`, when the caller knows them, let a pending record go in the
   * change's own statement instead (ChangeHook.merging).
   */
  async atomic<T>(
    db: DB,
    event: WebhookEvent,
    change: (db: DB) => Promise<T>,
    facts?: ChangeFacts,
    changeHook?: ChangeHook,
  ): Promise<T> {
    if (db.isTransaction) return change(db);
    const wanted = this.wants(event);
    if (!(wanted || changeHook?.pending())) return change(db);
    // Only the record wants it, and the caller knows what the rows will say: no transaction needed.
    const merging = !wanted && facts ? changeHook?.merging?.(db, facts) : undefined;
    return merging ? change(merging) : db.transaction().execute(change);
  }

  /**
   * The outbox as one request sees it: every change handed to it is told to `changeHook` first (an
   * audited request's trail). A plain object per request, so nothing about the request is kept in
   * the process (no AsyncLocalStorage, whose promise hooks every request would pay on Node 20-22).
   */
  hearing(changeHook: ChangeHook): Webhooks {
    return {
      wants: (event) => this.wants(event),
      enqueue: (db, event, data) => this.enqueue(db, event, data, changeHook),
      enqueueTest: (db, hook) => this.enqueueTest(db, hook),
      atomic: (db, event, change, facts) => this.atomic(db, event, change, facts, changeHook),
      wakeIfQueued: () => this.wakeIfQueued(),
      flush: () => this.flush(),
      list: (limit) => this.list(limit),
      stop: () => this.stop(),
      hearing: (other) => this.hearing(other),
    };
  }

  /** Starts the retry poll (only when some webhook is configured). */
  start(): void {
    if (this.#active) this.#worker.start();
  }

  /** Called when a request ends: its transaction has committed, so what it queued can go now. */
  wakeIfQueued(): void {
    this.#sessionEnds?.wakeIfQueued();
    if (!this.#queued) return;
    this.#queued = false;
    this.wake();
  }

  /** Delivers whatever is due now; wakes coalesce, so many commits cost one pass. */
  wake(): void {
    if (this.#active) this.#worker.wake();
  }

  /** Resolves once every due delivery has had an attempt (for tests and shutdown). */
  async flush(): Promise<void> {
    if (this.#active) await this.#worker.flush();
    await this.#sessionEnds?.flush();
  }

  /** Stops the poll and waits for the attempts in flight; undelivered rows wait for the next start. */
  stop(): Promise<void> {
    return this.#worker.stop();
  }

  async list(limit = 100): Promise<WebhookDeliveryEntry[]> {
    const rows = await this.#db
      .selectFrom("webhookDelivery")
      .selectAll()
      .orderBy("createdAt", "desc")
      .orderBy("id")
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      ...row,
      attempts: Number(row.attempts),
      nextAttemptAt: toDate(row.nextAttemptAt),
      deliveredAt: toDateOrNull(row.deliveredAt),
      failedAt: toDateOrNull(row.failedAt),
      createdAt: toDate(row.createdAt),
    }));
  }

  /** Attempts one batch of due deliveries side by side; returns how many were due. */
  async #deliverBatch(): Promise<number> {
    const now = this.#options.now();
    const due = await this.#db
      .selectFrom("webhookDelivery")
      .select(["id", "url", "payload", "attempts", "endpointId"])
      .where("deliveredAt", "is", null)
      .where("failedAt", "is", null)
      .where("nextAttemptAt", "<=", now)
      .orderBy("createdAt")
      .limit(OUTBOX_BATCH)
      .execute();
    await Promise.all(due.map((row) => this.#attempt(row, now)));
    return due.length;
  }

  async #attempt(row: DueRow, now: Date): Promise<void> {
    if (this.#worker.stopped) return;
    const claimed = await this.#db
      .updateTable("webhookDelivery")
      .set({ nextAttemptAt: new Date(now.getTime() + LEASE_MS) })
      .where("id", "=", row.id)
      .where("deliveredAt", "is", null)
      .where("failedAt", "is", null)
      .where("nextAttemptAt", "<=", now)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return;
    const attempts = Number(row.attempts) + 1;
    const { error, final } = await this.#send(row);
    const done = this.#options.now();
    if (row.endpointId && !final) await recordWebhookAttempt(this.#db, row.endpointId, done, error);
    if (error === null) {
      await this.#db
        .updateTable("webhookDelivery")
        .set({ deliveredAt: done, attempts, lastError: null })
        .where("id", "=", row.id)
        .execute();
      return;
    }
    const givingUp = final || attempts >= this.#options.maxAttempts;
    const delay = Math.min(this.#options.retryBaseMs * 2 ** (attempts - 1), this.#options.maxRetryDelayMs);
    this.#options.logger.warn(givingUp ? "webhook delivery given up" : "webhook delivery failed; will retry", {
      id: row.id,
      url: row.url,
      attempts,
      error,
    });
    await this.#db
      .updateTable("webhookDelivery")
      .set({
        attempts,
        lastError: error.slice(0, 1000),
        nextAttemptAt: new Date(done.getTime() + delay),
        failedAt: givingUp ? done : null,
      })
      .where("id", "=", row.id)
      .execute();
  }

  /**
   * One signed POST; error null when the receiver answered 2xx, else what went wrong. `final`: the
   * organization's webhook it was for is gone or switched off, so no attempt will ever go.
   */
  async #send(row: DueRow): Promise<{ error: string | null; final: boolean }> {
    const target = await this.#targetOf(row);
    if ("gone" in target) return { error: target.gone, final: true };
    if ("error" in target) return { error: target.error, final: false };
    const timestamp = Math.floor(this.#options.now().getTime() / 1000);
    try {
      const response = await target.fetch(target.url, {
        method: "POST",
        headers: signedHeaders(target.secret, row.id, timestamp, row.payload),
        body: row.payload,
        // A redirect is an answer like any non-2xx: following it would send the payload elsewhere.
        redirect: "manual",
        signal: AbortSignal.timeout(this.#options.timeoutMs),
      });
      await response.body?.cancel();
      return { error: response.ok ? null : `HTTP ${response.status}`, final: false };
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const detail = cause?.code ?? cause?.message;
      const message = error instanceof Error ? error.message : String(error);
      return { error: detail ? `${message} (${detail})` : message, final: false };
    }
  }

  /**
   * Where a delivery goes and what signs it: a configured webhook by its URL; an organization's own by
   * its row as it is now (its current URL and secret), dialled through publicFetch unless private
   * receivers are allowed, so an address that turned private since it was checked is refused.
   */
  async #targetOf(
    row: DueRow,
  ): Promise<{ url: string; secret: string; fetch: SendFetch } | { gone: string } | { error: string }> {
    if (row.endpointId === null) {
      const endpoint = this.#byUrl.get(row.url);
      if (!endpoint) return { error: "no webhook is configured for this URL any more" };
      return { url: row.url, secret: endpoint.secret, fetch };
    }
    const own = this.#ownWebhooks;
    if (!own) return { error: "organization webhooks are switched off" };
    const hook = await findOrganizationWebhook(this.#db, row.endpointId);
    if (!hook) return { gone: "the webhook was deleted" };
    if (!hook.enabled) return { gone: "the webhook is disabled" };
    const secret = decryptString(own.secretKey, hook.secret);
    if (secret === null) return { error: "the webhook's secret cannot be decrypted (was AUTH_SECRET changed?)" };
    return { url: hook.url, secret, fetch: own.allowPrivateUrls ? fetch : (publicFetch as SendFetch) };
  }
}

type DueRow = { id: string; url: string; payload: string; attempts: number; endpointId: string | null };
type SendFetch = (url: string, init: RequestInit) => Promise<Response>;

/** A delivery's body (Standard Webhooks): the event type, when it was queued, and its data. */
function deliveryPayload(type: string, now: Date, data: unknown): string {
  return JSON.stringify({ type, timestamp: now.toISOString(), data });
}

/** A delivery row to one receiver, due now; `endpointId` names an organization's own webhook. */
function newDelivery(
  receiver: { url: string; endpointId: string | null },
  eventType: string,
  payload: string,
  now: Date,
) {
  return {
    id: `msg_${newId()}`,
    url: receiver.url,
    endpointId: receiver.endpointId,
    eventType,
    payload,
    lastError: null,
    nextAttemptAt: now,
    deliveredAt: null,
    failedAt: null,
    createdAt: now,
  };
}

import type { AuthContext } from "../../context.js";
import { newId } from "../../crypto/random.js";
import { OUTBOX_BATCH, OutboxWorker } from "../../outbox-worker.js";
import { type Fetch, publicFetch } from "../../providers/public-fetch.js";
import type { DB } from "../../store/database.js";
import {
  claimDueLogoutDeliveries,
  type LogoutDelivery,
  markLogoutAttemptFailed,
  markLogoutDelivered,
  queueLogoutDeliveries,
} from "../../store/oauth-logout.js";
import { type DeliveryTiming, deliveryTiming, type SessionEndListener } from "../../webhooks/outbox.js";
import { signJwt } from "../jwt.js";
import { issuerOf } from "./metadata.js";

/**
 * OpenID Connect Back-Channel Logout 1.0: when a session ends (sign-out, revocation, RP-initiated
 * logout, a ban: every path that tells the outbox `session.revoked`), each client a grant of that
 * session went to and that registered a `backchannel_logout_uri` gets a logout token POSTed. The
 * rows are written in the transaction that ends the session; a worker sends them after the request,
 * retrying with the webhook outbox's backoff. The token is signed at each attempt (it is short-lived).
 */

const EVENT = "http://schemas.openid.net/event/backchannel-logout";
/** How long a logout token is valid: it is sent at once, or signed anew at the next attempt. */
const LOGOUT_TOKEN_SECONDS = 120;
const LEASE_MS = 60_000;

export type BackchannelTiming = DeliveryTiming;

/**
 * An account being deleted: its grants go with it (the foreign keys cascade), so the clients of its
 * sessions are told now, in the deletion's transaction; the worker's poll sends them.
 */
export async function queueLogoutsOfDeletedUser(ctx: AuthContext, db: DB, userId: string): Promise<void> {
  if (!ctx.options.oauthProvider.enabled) return;
  await queueLogoutDeliveries(db, { userId }, ctx.now(), newId);
}

export class BackchannelLogouts implements SessionEndListener {
  #ctx: AuthContext | null = null;
  #queued = false;
  readonly #db: DB;
  readonly #now: () => Date;
  readonly #timing: Required<BackchannelTiming>;
  readonly #worker: OutboxWorker;

  constructor(db: DB, options: { now: () => Date; logger: AuthContext["logger"] } & BackchannelTiming) {
    this.#db = db;
    this.#now = options.now;
    this.#timing = deliveryTiming(options);
    this.#worker = new OutboxWorker({
      name: "back-channel logout",
      logger: options.logger,
      pollIntervalMs: this.#timing.pollIntervalMs,
      deliverBatch: () => this.#deliverBatch(),
    });
  }

  /** The context signs the tokens; the worker starts once it is there. */
  start(ctx: AuthContext): void {
    this.#ctx = ctx;
    this.#worker.start();
  }

  async sessionsEnded(db: DB, sessionIds: readonly string[]): Promise<void> {
    if ((await queueLogoutDeliveries(db, { sessionIds }, this.#now(), newId)) > 0) this.#queued = true;
  }

  wakeIfQueued(): void {
    if (!this.#queued) return;
    this.#queued = false;
    this.#worker.wake();
  }

  flush(): Promise<void> {
    return this.#ctx ? this.#worker.flush() : Promise.resolve();
  }

  stop(): Promise<void> {
    return this.#worker.stop();
  }

  async #deliverBatch(): Promise<number> {
    const now = this.#now();
    const due = await claimDueLogoutDeliveries(this.#db, now, new Date(now.getTime() + LEASE_MS), OUTBOX_BATCH);
    await Promise.all(due.map((delivery) => this.#attempt(delivery)));
    return due.length;
  }

  async #attempt(delivery: LogoutDelivery): Promise<void> {
    const ctx = this.#ctx!;
    const attempts = delivery.attempts + 1;
    // The client dropped its URI (or is gone) since: nothing will ever go.
    const error = delivery.backchannelLogoutUri
      ? await this.#send(ctx, delivery, delivery.backchannelLogoutUri)
      : "the client has no back-channel logout URI now";
    const done = this.#now();
    if (error === null) return markLogoutDelivered(this.#db, delivery.id, done);
    const givingUp = !delivery.backchannelLogoutUri || attempts >= this.#timing.maxAttempts;
    const delay = Math.min(this.#timing.retryBaseMs * 2 ** (attempts - 1), this.#timing.maxRetryDelayMs);
    ctx.logger.warn(givingUp ? "back-channel logout given up" : "back-channel logout failed; will retry", {
      id: delivery.id,
      clientId: delivery.clientId,
      attempts,
      error,
    });
    await markLogoutAttemptFailed(this.#db, delivery.id, {
      attempts,
      nextAttemptAt: new Date(done.getTime() + delay),
      failedAt: givingUp ? done : null,
      lastError: error.slice(0, 1000),
    });
  }

  /** One POST of a fresh logout token; null when the client answered 2xx (section 2.8), else what went wrong. */
  async #send(ctx: AuthContext, delivery: LogoutDelivery, uri: string): Promise<string | null> {
    const token = await signJwt(
      ctx,
      { sid: delivery.sessionId, events: { [EVENT]: {} }, jti: newId() },
      {
        subject: delivery.userId,
        issuer: issuerOf(ctx),
        audience: delivery.clientId,
        expiresIn: LOGOUT_TOKEN_SECONDS,
        typ: "logout+jwt",
      },
    );
    const send: Fetch = ctx.options.oauthProvider.allowPrivateUrls ? (url, init) => fetch(url, init) : publicFetch;
    try {
      const response = await send(uri, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "cache-control": "no-store" },
        body: new URLSearchParams({ logout_token: token }).toString(),
        redirect: "manual",
        signal: AbortSignal.timeout(this.#timing.timeoutMs),
      });
      await response.body?.cancel();
      return response.ok ? null : `HTTP ${response.status}`;
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      const message = error instanceof Error ? error.message : String(error);
      return cause?.code ? `${message} (${cause.code})` : message;
    }
  }
}

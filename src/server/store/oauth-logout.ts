import type { DB } from "./database.js";
import { toDate } from "./values.js";

/**
 * Back-channel logout deliveries (services/oauth-provider/backchannel-logout.ts): one row per client
 * to tell that a session ended, written in the transaction that ended it.
 */

export interface LogoutDelivery {
  id: string;
  clientId: string;
  userId: string;
  sessionId: string;
  attempts: number;
  backchannelLogoutUri: string | null;
}

/**
 * Queues one delivery per client with a back-channel URI and session that a grant of these
 * sessions (or of every session of this user, whose account is being deleted) went to.
 */
export async function queueLogoutDeliveries(
  db: DB,
  of: { sessionIds: readonly string[] } | { userId: string },
  now: Date,
  newId: () => string,
): Promise<number> {
  if ("sessionIds" in of && of.sessionIds.length === 0) return 0;
  let query = db
    .selectFrom("oauthGrant")
    .innerJoin("oauthClient", "oauthClient.clientId", "oauthGrant.clientId")
    .select(["oauthGrant.clientId", "oauthGrant.userId", "oauthGrant.sessionId"])
    .distinct();
  query =
    "sessionIds" in of
      ? query.where("oauthGrant.sessionId", "in", [...of.sessionIds])
      : query.where("oauthGrant.userId", "=", of.userId).where("oauthGrant.sessionId", "is not", null);
  const targets = await query
    .where("oauthGrant.userId", "is not", null)
    .where("oauthClient.backchannelLogoutUri", "is not", null)
    .execute();
  if (targets.length === 0) return 0;
  await db
    .insertInto("oauthLogoutDelivery")
    .values(
      targets.map((target) => ({
        id: newId(),
        clientId: target.clientId,
        userId: target.userId as string,
        sessionId: target.sessionId as string,
        attempts: 0,
        nextAttemptAt: now,
        createdAt: now,
      })),
    )
    .execute();
  return targets.length;
}

/**
 * Due deliveries, each claimed for this caller by moving its next attempt past the lease (as the
 * webhook outbox does): of two instances reading the same row, one update wins it.
 */
export async function claimDueLogoutDeliveries(
  db: DB,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<LogoutDelivery[]> {
  const due = await db
    .selectFrom("oauthLogoutDelivery")
    .leftJoin("oauthClient", "oauthClient.clientId", "oauthLogoutDelivery.clientId")
    .select([
      "oauthLogoutDelivery.id",
      "oauthLogoutDelivery.clientId",
      "oauthLogoutDelivery.userId",
      "oauthLogoutDelivery.sessionId",
      "oauthLogoutDelivery.attempts",
      "oauthClient.backchannelLogoutUri",
    ])
    .where("oauthLogoutDelivery.deliveredAt", "is", null)
    .where("oauthLogoutDelivery.failedAt", "is", null)
    .where("oauthLogoutDelivery.nextAttemptAt", "<=", now)
    .orderBy("oauthLogoutDelivery.nextAttemptAt")
    .limit(limit)
    .execute();
  const claimed: LogoutDelivery[] = [];
  for (const row of due) {
    const result = await db
      .updateTable("oauthLogoutDelivery")
      .set({ nextAttemptAt: leaseUntil })
      .where("id", "=", row.id)
      .where("deliveredAt", "is", null)
      .where("failedAt", "is", null)
      .where("nextAttemptAt", "<=", now)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) {
      claimed.push({ ...row, attempts: Number(row.attempts), backchannelLogoutUri: row.backchannelLogoutUri ?? null });
    }
  }
  return claimed;
}

export async function markLogoutDelivered(db: DB, id: string, now: Date): Promise<void> {
  await db.updateTable("oauthLogoutDelivery").set({ deliveredAt: now, lastError: null }).where("id", "=", id).execute();
}

export async function markLogoutAttemptFailed(
  db: DB,
  id: string,
  change: { attempts: number; nextAttemptAt: Date; failedAt: Date | null; lastError: string },
): Promise<void> {
  await db.updateTable("oauthLogoutDelivery").set(change).where("id", "=", id).execute();
}

/** For tests and operators: the deliveries, newest first. */
export async function listLogoutDeliveries(db: DB, limit = 100) {
  const rows = await db
    .selectFrom("oauthLogoutDelivery")
    .selectAll()
    .orderBy("createdAt", "desc")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, attempts: Number(row.attempts), createdAt: toDate(row.createdAt) }));
}

/**
 * The front-channel logout URIs of the clients a grant of this session went to (OpenID Connect
 * Front-Channel Logout 1.0), one per client: read before the session ends.
 */
export async function frontchannelLogoutUris(db: DB, sessionId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("oauthGrant")
    .innerJoin("oauthClient", "oauthClient.clientId", "oauthGrant.clientId")
    .select("oauthClient.frontchannelLogoutUri")
    .distinct()
    .where("oauthGrant.sessionId", "=", sessionId)
    .where("oauthClient.frontchannelLogoutUri", "is not", null)
    .execute();
  return rows.map((row) => row.frontchannelLogoutUri as string);
}

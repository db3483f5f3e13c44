import type { DB } from "./db.js";
import { toDate, toDateOrNull } from "./values.js";

/**
 * Every guess limit (codes, passwords, mail per address) counts here, one row per limited key.
 * An attempt is claimed in one statement BEFORE its secret is checked, so parallel requests cannot
 * all pass a check that each of them read before any had counted; a refused claim is a refusal.
 */
export interface AttemptLimit {
  /** Attempts anyone may claim; past them the key refuses until it expires (or `backoff` allows one). */
  limit: number;
  /** When the count is forgotten and a new one starts. */
  expiresAt: Date;
  /** Each claim moves `expiresAt` forward: the count is forgotten only after a quiet spell. */
  renew?: boolean;
  /**
   * Past the limit, a wait between attempts: a caller that read `seen` attempts (and no wait left)
   * may claim the next one, which blocks the key until `blockedUntil`. Of racing callers that read
   * the same count, only one wins.
   */
  backoff?: { seen: number; blockedUntil: Date };
}

export interface AttemptCount {
  attempts: number;
  blockedUntil: Date | null;
}

/** Claims one attempt on `key`; answers the count with it, or null when the limit refused it. */
export async function claimAttempt(db: DB, key: string, now: Date, limit: AttemptLimit): Promise<number | null> {
  const row = await db
    .insertInto("attemptCounter")
    .values({ key, attempts: 1, blockedUntil: null, expiresAt: limit.expiresAt })
    .onConflict((oc) =>
      oc
        .column("key")
        .doUpdateSet((eb) => {
          const expired = eb("attemptCounter.expiresAt", "<=", now);
          const underLimit = eb("attemptCounter.attempts", "<", limit.limit);
          return {
            attempts: eb
              .case()
              .when(expired)
              .then(1)
              .else(eb("attemptCounter.attempts", "+", 1))
              .end(),
            // Only a claim past the limit waits; a block left from before has passed (it is never
            // later than the expiry), so other claims may keep it.
            blockedUntil: limit.backoff
              ? eb
                  .case()
                  .when(eb.or([expired, underLimit]))
                  .then(eb.ref("attemptCounter.blockedUntil"))
                  .else(limit.backoff.blockedUntil)
                  .end()
              : null,
            expiresAt: limit.renew
              ? limit.expiresAt
              : eb.case().when(expired).then(limit.expiresAt).else(eb.ref("attemptCounter.expiresAt")).end(),
          };
        })
        .where((eb) => {
          const expired = eb("attemptCounter.expiresAt", "<=", now);
          const underLimit = eb("attemptCounter.attempts", "<", limit.limit);
          if (!limit.backoff) return eb.or([expired, underLimit]);
          const waited = eb.or([
            eb("attemptCounter.blockedUntil", "is", null),
            eb("attemptCounter.blockedUntil", "<=", now),
          ]);
          const next = eb("attemptCounter.attempts", "=", limit.backoff.seen);
          return eb.or([expired, eb.and([waited, eb.or([underLimit, next])])]);
        }),
    )
    .returning("attempts")
    .executeTakeFirst();
  return row ? Number(row.attempts) : null;
}

/** The live count on `key` (null when none, or it expired). */
export async function findAttempts(db: DB, key: string, now: Date): Promise<AttemptCount | null> {
  const row = await db
    .selectFrom("attemptCounter")
    .select(["attempts", "blockedUntil", "expiresAt"])
    .where("key", "=", key)
    .executeTakeFirst();
  if (!row || toDate(row.expiresAt).getTime() <= now.getTime()) return null;
  return { attempts: Number(row.attempts), blockedUntil: toDateOrNull(row.blockedUntil) };
}

/** Gives a claimed attempt back: a right answer that used nothing up must not count as a guess. */
export async function releaseAttempt(db: DB, key: string): Promise<void> {
  await db
    .updateTable("attemptCounter")
    .set((eb) => ({ attempts: eb("attempts", "-", 1) }))
    .where("key", "=", key)
    .where("attempts", ">", 0)
    .execute();
}

/** Forgets the count on `key` (its secret was proven). */
export async function clearAttempts(db: DB, key: string): Promise<void> {
  await db.deleteFrom("attemptCounter").where("key", "=", key).execute();
}

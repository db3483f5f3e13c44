import type { DB } from "./db.js";
import { toDate } from "./values.js";

/** How a session's user proved who they are; a sign-in link or code proves only the mailbox, so is none. */
export type ProofMethod = "password" | "passkey" | "totp" | "backup-code" | "provider";

export interface SessionProof {
  method: ProofMethod;
  provedAt: Date;
}

/** Records the session's latest proof, replacing an earlier one. */
export async function recordSessionProof(db: DB, sessionId: string, method: ProofMethod, now: Date): Promise<void> {
  await db
    .insertInto("sessionProof")
    .values({ sessionId, method, provedAt: now })
    .onConflict((oc) => oc.column("sessionId").doUpdateSet({ method, provedAt: now }))
    .execute();
}

export async function findSessionProof(db: DB, sessionId: string): Promise<SessionProof | null> {
  const row = await db
    .selectFrom("sessionProof")
    .select(["method", "provedAt"])
    .where("sessionId", "=", sessionId)
    .executeTakeFirst();
  return row ? { method: row.method as ProofMethod, provedAt: toDate(row.provedAt) } : null;
}

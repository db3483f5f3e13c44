import type { DB } from "./database.js";
import { toDate, toDateOrNull } from "./values.js";

export interface StoredKey {
  id: string;
  /** Public JWK as JSON text. */
  publicKey: string;
  /** Private JWK as JSON text, encrypted (crypto/encryption.ts). */
  privateKey: string;
  alg: string;
  crv: string | null;
  createdAt: Date;
  expiresAt: Date | null;
}

/** Keys that may still verify at `now`, newest first. */
export async function listLiveKeys(db: DB, now: Date): Promise<StoredKey[]> {
  const rows = await db
    .selectFrom("jwks")
    .selectAll()
    .where((eb) => eb.or([eb("expiresAt", "is", null), eb("expiresAt", ">", now)]))
    .orderBy("createdAt", "desc")
    .execute();
  return rows.map((row) => ({
    ...row,
    alg: row.alg ?? "EdDSA",
    createdAt: toDate(row.createdAt),
    expiresAt: toDateOrNull(row.expiresAt),
  }));
}

export async function insertKey(db: DB, key: StoredKey): Promise<void> {
  await db.insertInto("jwks").values(key).execute();
}

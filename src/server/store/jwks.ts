import type { DB } from "./db.js";
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
  generation: number | null;
}

/** Keys that may still verify at `now`, newest first. */
export async function listLiveKeys(db: DB, now: Date): Promise<StoredKey[]> {
  const rows = await db
    .selectFrom("jwks")
    .selectAll()
    .where((eb) => eb.or([eb("expiresAt", "is", null), eb("expiresAt", ">", now)]))
    .orderBy("createdAt", "desc")
    .orderBy("generation", "desc")
    .execute();
  return rows.map((row) => ({
    ...row,
    alg: row.alg ?? "EdDSA",
    createdAt: toDate(row.createdAt),
    expiresAt: toDateOrNull(row.expiresAt),
  }));
}

/** Inserts the key unless another instance already created its generation (the caller reads the winner back). */
export async function insertKeyOnce(db: DB, key: StoredKey): Promise<void> {
  await db
    .insertInto("jwks")
    .values(key)
    .onConflict((oc) => oc.column("generation").doNothing())
    .execute();
}

/** The highest generation ever created (expired keys included), 0 before the first. */
export async function maxKeyGeneration(db: DB): Promise<number> {
  const row = await db
    .selectFrom("jwks")
    .select((eb) => eb.fn.max("generation").as("generation"))
    .executeTakeFirst();
  return Number(row?.generation ?? 0);
}

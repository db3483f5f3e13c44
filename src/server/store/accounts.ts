import { newId } from "../crypto/random.js";
import type { DB } from "./db.js";

export const CREDENTIAL_PROVIDER = "credential";

export async function insertCredentialAccount(
  db: DB,
  account: { id: string; userId: string; passwordHash: string; now: Date },
): Promise<void> {
  await db
    .insertInto("account")
    .values({
      id: account.id,
      accountId: account.userId,
      providerId: CREDENTIAL_PROVIDER,
      userId: account.userId,
      password: account.passwordHash,
      createdAt: account.now,
      updatedAt: account.now,
    })
    .execute();
}

export async function findCredentialPassword(db: DB, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom("account")
    .select("password")
    .where("userId", "=", userId)
    .where("providerId", "=", CREDENTIAL_PROVIDER)
    .executeTakeFirst();
  return row?.password ?? null;
}

export async function updateCredentialPassword(db: DB, userId: string, passwordHash: string, now: Date): Promise<void> {
  await db
    .updateTable("account")
    .set({ password: passwordHash, updatedAt: now })
    .where("userId", "=", userId)
    .where("providerId", "=", CREDENTIAL_PROVIDER)
    .execute();
}

/** Sets the credential password, creating the credential account when the user has none yet. */
export async function setCredentialPassword(db: DB, userId: string, passwordHash: string, now: Date): Promise<void> {
  const result = await db
    .updateTable("account")
    .set({ password: passwordHash, updatedAt: now })
    .where("userId", "=", userId)
    .where("providerId", "=", CREDENTIAL_PROVIDER)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) > 0) return;
  await insertCredentialAccount(db, { id: newId(), userId, passwordHash, now });
}

/** Removes the user's password account (a broken one, before an admin sets a new password). */
export async function deleteCredentialAccount(db: DB, userId: string): Promise<void> {
  await db.deleteFrom("account").where("userId", "=", userId).where("providerId", "=", "credential").execute();
}

import type { Selectable } from "kysely";
import type { Passkey } from "../../contract/passkeys.js";
import type { DB } from "./db.js";
import type { PasskeyTable } from "./schema.js";
import { toBool, toDate } from "./values.js";

function mapPasskey(row: Selectable<PasskeyTable>): Passkey {
  return {
    id: row.id,
    name: row.name,
    userId: row.userId,
    credentialID: row.credentialID,
    publicKey: row.publicKey,
    counter: Number(row.counter),
    deviceType: row.deviceType,
    backedUp: toBool(row.backedUp),
    transports: row.transports,
    aaguid: row.aaguid,
    createdAt: toDate(row.createdAt),
  };
}

export async function listUserPasskeys(db: DB, userId: string): Promise<Passkey[]> {
  const rows = await db
    .selectFrom("passkey")
    .selectAll()
    .where("userId", "=", userId)
    .orderBy("createdAt", "asc")
    .execute();
  return rows.map(mapPasskey);
}

export async function findPasskeyByCredential(db: DB, credentialID: string): Promise<Passkey | null> {
  const row = await db.selectFrom("passkey").selectAll().where("credentialID", "=", credentialID).executeTakeFirst();
  return row ? mapPasskey(row) : null;
}

export async function insertPasskey(db: DB, passkey: Passkey): Promise<void> {
  await db
    .insertInto("passkey")
    .values({ ...passkey, counter: passkey.counter, backedUp: passkey.backedUp })
    .execute();
}

/** The new signature counter; only forward, so a cloned authenticator's stale counter is noticed. */
export async function advancePasskeyCounter(db: DB, id: string, counter: number): Promise<void> {
  await db.updateTable("passkey").set({ counter }).where("id", "=", id).execute();
}

export async function renamePasskey(db: DB, userId: string, id: string, name: string): Promise<Passkey | null> {
  await db.updateTable("passkey").set({ name }).where("id", "=", id).where("userId", "=", userId).execute();
  const row = await db
    .selectFrom("passkey")
    .selectAll()
    .where("id", "=", id)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return row ? mapPasskey(row) : null;
}

export async function deletePasskey(db: DB, userId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom("passkey").where("id", "=", id).where("userId", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Deletes every passkey of the user; answers how many went. */
export async function deleteUserPasskeys(db: DB, userId: string): Promise<number> {
  const result = await db.deleteFrom("passkey").where("userId", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

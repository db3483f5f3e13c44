import { newId } from "../crypto/random.js";
import type { DB } from "./db.js";
import { toBool } from "./values.js";

export { CREDENTIAL_PROVIDER } from "./accounts.js";

/**
 * The statements of a bulk import (gatehouse import, src/cli/import): lookups by the unique indexes
 * and multi-row inserts. An import writes rows as they were in the source system, so it fires no
 * database hooks, webhooks or audit entries per row (docs/migrating.md, "What an import fires").
 */

export function findOrganizationsByIdOrSlug(db: DB, id: string, slug: string) {
  return db
    .selectFrom("organization")
    .select(["id", "slug"])
    .where((eb) => eb.or([eb("id", "=", id), eb("slug", "=", slug)]))
    .execute();
}

export async function insertImportedOrganization(
  db: DB,
  row: { id: string; name: string; slug: string; logo: string | null; metadata: string | null; createdAt: Date },
): Promise<void> {
  await db.insertInto("organization").values(row).execute();
}

/**
 * The users with these ids or addresses: two lookups, each on its index (by lower(email), the unique
 * index's expression, and by id); one `id in … or lower(email) in …` made PostgreSQL scan the table.
 */
export async function findUsersByIdsOrEmails(db: DB, ids: string[], emails: string[]) {
  const rows = [
    ...(await db.selectFrom("user").select(["id", "email", "emailVerified"]).where("id", "in", ids).execute()),
    ...(await db
      .selectFrom("user")
      .select(["id", "email", "emailVerified"])
      .where((eb) => eb(eb.fn("lower", ["email"]), "in", emails))
      .execute()),
  ];
  return rows.map((row) => ({ id: row.id, email: row.email, emailVerified: toBool(row.emailVerified) }));
}

/** Accounts of these providers with these ids (both columns, so the unique index finds them). */
export function findLinkedAccounts(db: DB, providerIds: string[], accountIds: string[]) {
  if (accountIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("account")
    .select(["providerId", "accountId", "userId"])
    .where("providerId", "in", providerIds)
    .where("accountId", "in", accountIds)
    .execute();
}

export function findMembershipsOfUsers(db: DB, userIds: string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return db.selectFrom("member").select(["organizationId", "userId"]).where("userId", "in", userIds).execute();
}

export async function insertImportedUsers(
  db: DB,
  rows: {
    id: string;
    name: string;
    email: string;
    emailVerified: boolean;
    image: string | null;
    createdAt: Date;
    updatedAt: Date;
  }[],
): Promise<void> {
  if (rows.length > 0) await db.insertInto("user").values(rows).execute();
}

export async function insertImportedAccounts(
  db: DB,
  rows: {
    providerId: string;
    accountId: string;
    userId: string;
    password: string | null;
    createdAt: Date;
    updatedAt: Date;
  }[],
): Promise<void> {
  if (rows.length > 0)
    await db
      .insertInto("account")
      .values(rows.map((row) => ({ id: newId(), ...row })))
      .execute();
}

export async function insertImportedMembers(
  db: DB,
  rows: { organizationId: string; userId: string; role: string; createdAt: Date }[],
): Promise<void> {
  if (rows.length > 0)
    await db
      .insertInto("member")
      .values(rows.map((row) => ({ id: newId(), ...row })))
      .execute();
}

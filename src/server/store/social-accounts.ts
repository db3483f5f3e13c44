import type { Selectable } from "kysely";
import type { User } from "../../contract/models.js";
import type { DB } from "./db.js";
import type { DialectName } from "./dialect.js";
import { type CallerSessionRead, readCallerList, readPrecompiled } from "./reads/index.js";
import type { AccountTable } from "./schema.js";
import { mapUser } from "./users.js";
import { isoTimestamp, toDate, toDateOrNull, type WithTimes } from "./values.js";

/** An account row as services see it; the token columns hold ciphertext (crypto/token-cipher.ts). */
export interface AccountRecord extends StoredTokens {
  id: string;
  userId: string;
  providerId: string;
  accountId: string;
  createdAt: Date;
  updatedAt: Date;
}

/** Token columns, already encrypted. */
export interface StoredTokens {
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: Date | null;
  refreshTokenExpiresAt: Date | null;
  /** Comma separated, as SPEC stores it. */
  scope: string | null;
}

const ACCOUNT_COLUMNS = [
  "id",
  "userId",
  "providerId",
  "accountId",
  "accessToken",
  "refreshToken",
  "idToken",
  "accessTokenExpiresAt",
  "refreshTokenExpiresAt",
  "scope",
  "createdAt",
  "updatedAt",
] as const;

type AccountColumns = Pick<Selectable<AccountTable>, (typeof ACCOUNT_COLUMNS)[number]>;

function mapAccount(row: AccountColumns): AccountRecord {
  return {
    ...row,
    accessTokenExpiresAt: toDateOrNull(row.accessTokenExpiresAt),
    refreshTokenExpiresAt: toDateOrNull(row.refreshTokenExpiresAt),
    createdAt: toDate(row.createdAt),
    updatedAt: toDate(row.updatedAt),
  };
}

/** The account a provider subject is linked to, with its user: one indexed join. */
export async function findAccountWithUser(
  db: DB,
  providerId: string,
  accountId: string,
): Promise<{ account: AccountRecord; user: User } | null> {
  const row = await db
    .selectFrom("account")
    .innerJoin("user", "user.id", "account.userId")
    .selectAll("user")
    .select(ACCOUNT_COLUMNS.map((c) => `account.${c} as a_${c}` as const))
    .where("account.providerId", "=", providerId)
    .where("account.accountId", "=", accountId)
    .executeTakeFirst();
  if (!row) return null;
  const account = Object.fromEntries(ACCOUNT_COLUMNS.map((c) => [c, row[`a_${c}`]])) as AccountColumns;
  return { account: mapAccount(account), user: mapUser(row) };
}

export async function insertSocialAccount(
  db: DB,
  account: { id: string; userId: string; providerId: string; accountId: string; tokens: StoredTokens; now: Date },
): Promise<void> {
  await db
    .insertInto("account")
    .values({
      id: account.id,
      userId: account.userId,
      providerId: account.providerId,
      accountId: account.accountId,
      ...account.tokens,
      password: null,
      createdAt: account.now,
      updatedAt: account.now,
    })
    .execute();
}

/** Replaces the token columns; a null refresh token keeps the stored one (providers rarely re-send it). */
export async function updateAccountTokens(db: DB, id: string, tokens: StoredTokens, now: Date): Promise<void> {
  const { refreshToken, refreshTokenExpiresAt, ...rest } = tokens;
  await db
    .updateTable("account")
    .set({ ...rest, ...(refreshToken ? { refreshToken, refreshTokenExpiresAt } : {}), updatedAt: now })
    .where("id", "=", id)
    .execute();
}

export async function listUserAccounts(db: DB, userId: string): Promise<AccountRecord[]> {
  const rows = await readPrecompiled(db, "userAccounts", [userId], ([user]) =>
    db
      .selectFrom("account")
      .select(ACCOUNT_COLUMNS)
      .where("userId", "=", user as string)
      .orderBy("createdAt", "asc"),
  );
  return rows.map(mapAccount);
}

/** What list-accounts shows of an account: no token, nothing encrypted. */
export type ListedAccount = Pick<
  AccountRecord,
  "id" | "userId" | "providerId" | "accountId" | "scope" | "createdAt" | "updatedAt"
>;

/**
 * The accounts list-accounts shows, read with the caller's session in the lookup's statement
 * (store/caller-reads.ts), timestamps as the reply has them (see isoTimestamp).
 */
export function readCallerAccounts(dialect: DialectName): CallerSessionRead<WithTimes<ListedAccount, string>[]> {
  return readCallerList(
    dialect,
    "accounts",
    [],
    (eb) =>
      eb
        .selectFrom("account")
        .select([
          "account.id",
          "account.userId",
          "account.providerId",
          "account.accountId",
          "account.scope",
          "account.createdAt",
          "account.updatedAt",
        ])
        .whereRef("account.userId", "=", "callerSession.userId")
        .orderBy("account.createdAt", "asc"),
    // Field by field: the row is parsed JSON, which a spread copies slowly.
    (row) => ({
      id: row.id,
      userId: row.userId,
      providerId: row.providerId,
      accountId: row.accountId,
      scope: row.scope,
      createdAt: isoTimestamp(row.createdAt),
      updatedAt: isoTimestamp(row.updatedAt),
    }),
  );
}

/**
 * One of the user's accounts, named by its row id (WIRE) or by the provider's account id (SPEC),
 * narrowed by provider when one is given; without a name, the user's first account with that
 * provider. A row id match wins over a provider account id match. Never another user's.
 */
export async function findUserAccount(
  db: DB,
  userId: string,
  selector: { id?: string; providerId?: string },
): Promise<AccountRecord | null> {
  const { id, providerId } = selector;
  let query = db.selectFrom("account").select(ACCOUNT_COLUMNS).where("userId", "=", userId);
  if (providerId) query = query.where("providerId", "=", providerId);
  if (id) query = query.where((eb) => eb.or([eb("id", "=", id), eb("accountId", "=", id)]));
  const rows = await query.orderBy("createdAt", "asc").execute();
  const row = rows.find((r) => r.id === id) ?? rows[0];
  return row ? mapAccount(row) : null;
}

export async function countUserAccounts(db: DB, userId: string): Promise<number> {
  const row = await db
    .selectFrom("account")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("userId", "=", userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteUserAccount(db: DB, userId: string, id: string): Promise<number> {
  const result = await db.deleteFrom("account").where("userId", "=", userId).where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Serializes account changes of one user (PostgreSQL row lock; SQLite transactions are already serial). */
export async function lockUser(db: DB, userId: string, dialect: "sqlite" | "postgres"): Promise<void> {
  if (dialect !== "postgres") return;
  await db.selectFrom("user").select("id").where("id", "=", userId).forUpdate().execute();
}

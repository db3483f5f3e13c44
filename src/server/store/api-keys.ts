import type { DB } from "./database.js";
import { toBool, toDate, toDateOrNull } from "./values.js";

/** An API key as stored (its digest, never the key); permissions and metadata parsed. */
export interface ApiKeyRow {
  id: string;
  keyHash: string;
  previousKeyHash: string | null;
  previousKeyExpiresAt: Date | null;
  name: string | null;
  start: string | null;
  prefix: string | null;
  organizationId: string | null;
  userId: string | null;
  createdBy: string | null;
  enabled: boolean;
  rateLimitEnabled: boolean;
  rateLimitTimeWindow: number | null;
  rateLimitMax: number | null;
  permissions: Record<string, string[]> | null;
  metadata: Record<string, unknown> | null;
  expiresAt: Date | null;
  lastRequest: Date | null;
  /** The latest addresses the key was used from (with auditing on; a new one is audited). */
  knownAddresses: string[];
  createdAt: Date;
  updatedAt: Date;
}

type Raw = Omit<
  ApiKeyRow,
  | "enabled"
  | "knownAddresses"
  | "previousKeyExpiresAt"
  | "rateLimitEnabled"
  | "permissions"
  | "metadata"
  | "expiresAt"
  | "lastRequest"
  | "createdAt"
  | "updatedAt"
  | "rateLimitTimeWindow"
  | "rateLimitMax"
> & {
  enabled: boolean | number;
  knownAddresses: string | null;
  previousKeyExpiresAt: Date | string | null;
  rateLimitEnabled: boolean | number;
  rateLimitTimeWindow: number | string | null;
  rateLimitMax: number | string | null;
  permissions: string | null;
  metadata: string | null;
  expiresAt: Date | string | null;
  lastRequest: Date | string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
};

const numberOrNull = (value: number | string | null): number | null => (value === null ? null : Number(value));

function mapRow(row: Raw): ApiKeyRow {
  return {
    ...row,
    enabled: toBool(row.enabled),
    rateLimitEnabled: toBool(row.rateLimitEnabled),
    rateLimitTimeWindow: numberOrNull(row.rateLimitTimeWindow),
    rateLimitMax: numberOrNull(row.rateLimitMax),
    permissions: row.permissions === null ? null : (JSON.parse(row.permissions) as Record<string, string[]>),
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
    expiresAt: toDateOrNull(row.expiresAt),
    knownAddresses: row.knownAddresses === null ? [] : (JSON.parse(row.knownAddresses) as string[]),
    previousKeyExpiresAt: toDateOrNull(row.previousKeyExpiresAt),
    lastRequest: toDateOrNull(row.lastRequest),
    createdAt: toDate(row.createdAt),
    updatedAt: toDate(row.updatedAt),
  };
}

const json = (value: object | null) => (value === null ? null : JSON.stringify(value));

export async function insertApiKey(db: DB, row: ApiKeyRow): Promise<void> {
  await db
    .insertInto("apiKey")
    .values({
      ...row,
      permissions: json(row.permissions),
      metadata: json(row.metadata),
      knownAddresses: row.knownAddresses.length > 0 ? JSON.stringify(row.knownAddresses) : null,
    })
    .execute();
}

export async function findApiKey(db: DB, id: string): Promise<ApiKeyRow | null> {
  const row = await db.selectFrom("apiKey").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? mapRow(row as Raw) : null;
}

/** A key as a request uses it: with its owning user's ban (a user's key stops with its user). */
export interface ApiKeyInUse extends ApiKeyRow {
  ownerBanned: boolean;
  ownerBanExpires: Date | null;
}

/**
 * The key whose digest this is, or whose replaced key's digest it is (the caller checks the grace
 * period), with its owning user's ban: one read of the two unique indexes.
 */
export async function findApiKeyByHash(db: DB, keyHash: string): Promise<ApiKeyInUse | null> {
  const row = await db
    .selectFrom("apiKey")
    .leftJoin("user", "user.id", "apiKey.userId")
    .selectAll("apiKey")
    .select(["user.banned as ownerBanned", "user.banExpires as ownerBanExpires"])
    .where((eb) => eb.or([eb("apiKey.keyHash", "=", keyHash), eb("apiKey.previousKeyHash", "=", keyHash)]))
    .executeTakeFirst();
  if (!row) return null;
  const { ownerBanned, ownerBanExpires, ...key } = row;
  return {
    ...mapRow(key as Raw),
    ownerBanned: ownerBanned === null ? false : toBool(ownerBanned),
    ownerBanExpires: toDateOrNull(ownerBanExpires),
  };
}

/** Replaces the key's digest, keeping the old one valid until `graceUntil` (null: not at all). */
export async function rotateApiKeyHash(
  db: DB,
  id: string,
  change: { keyHash: string; start: string; previousKeyHash: string | null; graceUntil: Date | null; at: Date },
): Promise<void> {
  await db
    .updateTable("apiKey")
    .set({
      keyHash: change.keyHash,
      start: change.start,
      previousKeyHash: change.previousKeyHash,
      previousKeyExpiresAt: change.graceUntil,
      updatedAt: change.at,
    })
    .where("id", "=", id)
    .execute();
}

export interface ApiKeyPage {
  sortBy?: "createdAt" | "updatedAt" | "name" | "expiresAt" | "lastRequest";
  sortDirection?: "asc" | "desc";
  limit?: number;
  offset?: number;
}

/** One owner's keys (an organization's or a user's), a page of them, with how many there are. */
export async function listApiKeysOf(
  db: DB,
  owner: { organizationId: string } | { userId: string },
  page: ApiKeyPage,
): Promise<{ rows: ApiKeyRow[]; total: number }> {
  const scoped = () =>
    "organizationId" in owner
      ? db.selectFrom("apiKey").where("organizationId", "=", owner.organizationId)
      : db.selectFrom("apiKey").where("userId", "=", owner.userId);
  let query = scoped()
    .selectAll()
    .orderBy(page.sortBy ?? "createdAt", page.sortDirection ?? "asc")
    .orderBy("id");
  if (page.limit !== undefined) query = query.limit(page.limit);
  // SQLite takes an OFFSET only after a LIMIT.
  if (page.offset !== undefined)
    query = (page.limit === undefined ? query.limit(1_000_000) : query).offset(page.offset);
  const [rows, count] = await Promise.all([
    query.execute(),
    scoped()
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((row) => mapRow(row as Raw)), total: Number(count.n) };
}

export type ApiKeyChange = Partial<
  Pick<
    ApiKeyRow,
    | "name"
    | "enabled"
    | "expiresAt"
    | "metadata"
    | "permissions"
    | "rateLimitEnabled"
    | "rateLimitTimeWindow"
    | "rateLimitMax"
    | "updatedAt"
  >
>;

export async function updateApiKey(db: DB, id: string, change: ApiKeyChange): Promise<void> {
  const { permissions, metadata, ...rest } = change;
  await db
    .updateTable("apiKey")
    .set({
      ...rest,
      ...(permissions !== undefined ? { permissions: json(permissions) } : {}),
      ...(metadata !== undefined ? { metadata: json(metadata) } : {}),
    })
    .where("id", "=", id)
    .execute();
}

export async function deleteApiKey(db: DB, id: string): Promise<boolean> {
  const result = await db.deleteFrom("apiKey").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Records a key's last use (batched by the caller: at most once a minute per key). */
export async function touchApiKey(db: DB, id: string, at: Date): Promise<void> {
  await db.updateTable("apiKey").set({ lastRequest: at }).where("id", "=", id).execute();
}

/** Records the addresses a key was used from (written only when a new one appears). */
export async function setKnownAddresses(db: DB, id: string, addresses: readonly string[]): Promise<void> {
  await db
    .updateTable("apiKey")
    .set({ knownAddresses: JSON.stringify(addresses) })
    .where("id", "=", id)
    .execute();
}

/**
 * Claims the key's first use from `address`: true for the one caller (on any instance) whose row
 * went in, false when the address was already known.
 */
export async function claimKeyAddress(db: DB, apiKeyId: string, address: string, at: Date): Promise<boolean> {
  const rows = await db
    .insertInto("apiKeyAddress")
    .values({ apiKeyId, address, firstSeenAt: at })
    .onConflict((conflict) => conflict.columns(["apiKeyId", "address"]).doNothing())
    .returning("apiKeyId")
    .execute();
  return rows.length > 0;
}

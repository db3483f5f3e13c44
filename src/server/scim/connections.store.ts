import type { DB } from "../store/db.js";
import { countAll } from "../store/organizations.js";
import { toBool, toDate } from "../store/values.js";

/** A SCIM connection as the protocol routes see it once its token matched. */
export interface ScimConnectionRow {
  id: string;
  providerId: string;
  organizationId: string;
  linkExistingMembers: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** Which connection's users: one organization's directory, named by its provider id. */
export interface ScimScope {
  organizationId: string;
  providerId: string;
}

function mapConnection(row: {
  id: string;
  providerId: string;
  organizationId: string;
  linkExistingMembers: boolean | number;
  createdAt: Date | string;
  lastUsedAt: Date | string | null;
}): ScimConnectionRow {
  return {
    id: row.id,
    providerId: row.providerId,
    organizationId: row.organizationId,
    linkExistingMembers: toBool(row.linkExistingMembers),
    createdAt: toDate(row.createdAt),
    lastUsedAt: row.lastUsedAt === null ? null : toDate(row.lastUsedAt),
  };
}

const CONNECTION_COLUMNS = [
  "id",
  "providerId",
  "organizationId",
  "linkExistingMembers",
  "createdAt",
  "lastUsedAt",
] as const;

export async function insertScimConnection(
  db: DB,
  row: ScimConnectionRow & { tokenHash: string; createdBy: string | null },
): Promise<void> {
  await db.insertInto("scimProvider").values(row).execute();
}

export async function findScimConnection(db: DB, providerId: string): Promise<ScimConnectionRow | null> {
  const row = await db
    .selectFrom("scimProvider")
    .select(CONNECTION_COLUMNS)
    .where("providerId", "=", providerId)
    .executeTakeFirst();
  return row ? mapConnection(row) : null;
}

/** The connection whose token has this digest: the protocol's only authentication read. */
export async function findScimConnectionByTokenHash(db: DB, tokenHash: string): Promise<ScimConnectionRow | null> {
  const row = await db
    .selectFrom("scimProvider")
    .select(CONNECTION_COLUMNS)
    .where("tokenHash", "=", tokenHash)
    .executeTakeFirst();
  return row ? mapConnection(row) : null;
}

/** The connections of every organization the user belongs to, each with the user's role there. */
export async function listScimConnectionsOfMember(
  db: DB,
  userId: string,
): Promise<(ScimConnectionRow & { role: string })[]> {
  const rows = await db
    .selectFrom("scimProvider")
    .innerJoin("member", (join) =>
      join.onRef("member.organizationId", "=", "scimProvider.organizationId").on("member.userId", "=", userId),
    )
    .select(CONNECTION_COLUMNS.map((column) => `scimProvider.${column}` as const))
    .select("member.role")
    .orderBy("scimProvider.createdAt")
    .orderBy("scimProvider.id")
    .execute();
  return rows.map((row) => ({ ...mapConnection(row), role: row.role }));
}

/** One organization's connections, oldest first (a setup link's view). */
export async function listScimConnectionsOfOrganization(db: DB, organizationId: string): Promise<ScimConnectionRow[]> {
  const rows = await db
    .selectFrom("scimProvider")
    .select(CONNECTION_COLUMNS)
    .where("organizationId", "=", organizationId)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
  return rows.map(mapConnection);
}

/** Records a directory call of the connection's token (the caller limits how often). */
export async function touchScimConnection(db: DB, id: string, now: Date): Promise<void> {
  await db.updateTable("scimProvider").set({ lastUsedAt: now }).where("id", "=", id).execute();
}

export async function setScimLinkExistingMembers(db: DB, id: string, linkExistingMembers: boolean): Promise<void> {
  await db.updateTable("scimProvider").set({ linkExistingMembers }).where("id", "=", id).execute();
}

export async function deleteScimConnection(db: DB, providerId: string): Promise<void> {
  await db.deleteFrom("scimProvider").where("providerId", "=", providerId).execute();
}

/** A provisioned user as a SCIM User shows them: `active` is whether they are a member now. */
export interface ScimUserRow {
  id: string;
  userName: string;
  email: string;
  name: string;
  externalId: string | null;
  active: boolean;
  /** The directory created the account (rather than linking an existing member): it owns the email. */
  createdUser: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** The attributes a list may be filtered on, each by equality (scim/filter.service.ts). */
export type ScimUserFilter = { attribute: "userName" | "externalId" | "id"; value: string };

function scimUsers(db: DB, scope: ScimScope) {
  return db
    .selectFrom("scimUser")
    .innerJoin("user", "user.id", "scimUser.userId")
    .leftJoin("member", (join) =>
      join
        .onRef("member.userId", "=", "scimUser.userId")
        .onRef("member.organizationId", "=", "scimUser.organizationId"),
    )
    .where("scimUser.organizationId", "=", scope.organizationId)
    .where("scimUser.providerId", "=", scope.providerId);
}

function mapScimUser(row: {
  id: string;
  userName: string;
  email: string;
  name: string;
  externalId: string | null;
  createdUser: boolean | number;
  memberId: string | null;
  createdAt: Date | string;
  userUpdatedAt: Date | string;
  linkUpdatedAt: Date | string;
}): ScimUserRow {
  const userUpdated = toDate(row.userUpdatedAt);
  const linkUpdated = toDate(row.linkUpdatedAt);
  return {
    id: row.id,
    userName: row.userName,
    email: row.email,
    name: row.name,
    externalId: row.externalId,
    active: row.memberId !== null,
    createdUser: toBool(row.createdUser),
    createdAt: toDate(row.createdAt),
    updatedAt: userUpdated > linkUpdated ? userUpdated : linkUpdated,
  };
}

const USER_COLUMNS = [
  "user.id",
  "scimUser.userName",
  "user.email",
  "user.name",
  "scimUser.externalId",
  "scimUser.createdUser",
  "member.id as memberId",
  "scimUser.createdAt",
  "user.updatedAt as userUpdatedAt",
  "scimUser.updatedAt as linkUpdatedAt",
] as const;

export async function findScimUser(db: DB, scope: ScimScope, userId: string): Promise<ScimUserRow | null> {
  const row = await scimUsers(db, scope).select(USER_COLUMNS).where("scimUser.userId", "=", userId).executeTakeFirst();
  return row ? mapScimUser(row) : null;
}

/** One page of the connection's users, oldest link first, with how many match in all. */
export async function listScimUsers(
  db: DB,
  scope: ScimScope,
  page: { filter: ScimUserFilter | null; offset: number; limit: number },
): Promise<{ total: number; users: ScimUserRow[] }> {
  let query = scimUsers(db, scope);
  const { filter } = page;
  if (filter?.attribute === "userName") {
    // userName is not case-exact (RFC 7643 section 4.1.1); a connection's users are few enough to scan.
    query = query.where((eb) => eb(eb.fn("lower", ["scimUser.userName"]), "=", filter.value.toLowerCase()));
  }
  if (filter?.attribute === "externalId") query = query.where("scimUser.externalId", "=", filter.value);
  if (filter?.attribute === "id") query = query.where("scimUser.userId", "=", filter.value);
  const counted = await query.select(countAll.as("total")).executeTakeFirstOrThrow();
  const total = Number(counted.total);
  if (page.limit === 0 || page.offset >= total) return { total, users: [] };
  const rows = await query
    .select(USER_COLUMNS)
    .orderBy("scimUser.createdAt")
    .orderBy("scimUser.id")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { total, users: rows.map(mapScimUser) };
}

export async function insertScimUserLink(
  db: DB,
  link: ScimScope & {
    id: string;
    userId: string;
    userName: string;
    externalId: string | null;
    createdUser: boolean;
    now: Date;
  },
): Promise<void> {
  await db
    .insertInto("scimUser")
    .values({
      id: link.id,
      organizationId: link.organizationId,
      providerId: link.providerId,
      userId: link.userId,
      userName: link.userName,
      externalId: link.externalId,
      createdUser: link.createdUser,
      createdAt: link.now,
      updatedAt: link.now,
    })
    .execute();
}

export async function updateScimUserLink(
  db: DB,
  scope: ScimScope,
  userId: string,
  change: { userName: string; externalId: string | null; now: Date },
): Promise<void> {
  await db
    .updateTable("scimUser")
    .set({ userName: change.userName, externalId: change.externalId, updatedAt: change.now })
    .where("organizationId", "=", scope.organizationId)
    .where("providerId", "=", scope.providerId)
    .where("userId", "=", userId)
    .execute();
}

export async function deleteScimUserLink(db: DB, scope: ScimScope, userId: string): Promise<void> {
  await db
    .deleteFrom("scimUser")
    .where("organizationId", "=", scope.organizationId)
    .where("providerId", "=", scope.providerId)
    .where("userId", "=", userId)
    .execute();
}

/** Every link of a connection (its revocation): the users and their memberships stay. */
export async function deleteScimUserLinks(db: DB, scope: ScimScope): Promise<void> {
  await db
    .deleteFrom("scimUser")
    .where("organizationId", "=", scope.organizationId)
    .where("providerId", "=", scope.providerId)
    .execute();
}

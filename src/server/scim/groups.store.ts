import type { DB } from "../store/db.js";
import { countAll } from "../store/organizations.js";
import { toDate } from "../store/values.js";
import type { ScimScope } from "./connections.store.js";

/** A group one SCIM connection pushed, with what its owner mapped it to (nothing, a role, or a team). */
export interface ScimGroupRow {
  id: string;
  displayName: string;
  externalId: string | null;
  role: string | null;
  teamId: string | null;
  teamRole: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A group member as a Group resource lists it: the user's id and the userName the directory gave. */
export interface ScimGroupMemberRow {
  groupId: string;
  userId: string;
  userName: string;
}

/** What a mapped group gives its members (scim/groups.service.ts reconciles a member with these). */
export interface ScimGrant {
  role: string | null;
  teamId: string | null;
  teamRole: string | null;
}

/** An equality on one attribute; with `member`, only a group that user is a member of matches. */
export type ScimGroupFilter = { attribute: "displayName" | "externalId" | "id"; value: string; member?: string };

const GROUP_COLUMNS = [
  "id",
  "displayName",
  "externalId",
  "role",
  "teamId",
  "teamRole",
  "createdAt",
  "updatedAt",
] as const;

function mapGroup(row: {
  id: string;
  displayName: string;
  externalId: string | null;
  role: string | null;
  teamId: string | null;
  teamRole: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
}): ScimGroupRow {
  return { ...row, createdAt: toDate(row.createdAt), updatedAt: toDate(row.updatedAt) };
}

function groupsOf(db: DB, scope: ScimScope) {
  return db
    .selectFrom("scimGroup")
    .where("organizationId", "=", scope.organizationId)
    .where("providerId", "=", scope.providerId);
}

export async function insertScimGroup(
  db: DB,
  scope: ScimScope,
  group: { id: string; displayName: string; externalId: string | null; now: Date },
): Promise<void> {
  await db
    .insertInto("scimGroup")
    .values({
      id: group.id,
      organizationId: scope.organizationId,
      providerId: scope.providerId,
      displayName: group.displayName,
      externalId: group.externalId,
      role: null,
      teamId: null,
      teamRole: null,
      createdAt: group.now,
      updatedAt: group.now,
    })
    .execute();
}

export async function findScimGroup(db: DB, scope: ScimScope, id: string): Promise<ScimGroupRow | null> {
  const row = await groupsOf(db, scope).select(GROUP_COLUMNS).where("id", "=", id).executeTakeFirst();
  return row ? mapGroup(row) : null;
}

/** One page of the connection's groups, oldest first, with how many match in all. */
export async function listScimGroups(
  db: DB,
  scope: ScimScope,
  page: { filter: ScimGroupFilter | null; offset: number; limit: number },
): Promise<{ total: number; groups: ScimGroupRow[] }> {
  let query = groupsOf(db, scope);
  const { filter } = page;
  if (filter?.attribute === "displayName") {
    // displayName is not case-exact (RFC 7643 section 4.2).
    query = query.where((eb) => eb(eb.fn("lower", ["displayName"]), "=", filter.value.toLowerCase()));
  }
  if (filter?.attribute === "externalId") query = query.where("externalId", "=", filter.value);
  if (filter?.attribute === "id") query = query.where("id", "=", filter.value);
  const member = filter?.member;
  if (member !== undefined) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom("scimGroupMember")
          .select("scimGroupMember.userId")
          .whereRef("scimGroupMember.groupId", "=", "scimGroup.id")
          .where("scimGroupMember.userId", "=", member),
      ),
    );
  }
  const counted = await query.select(countAll.as("total")).executeTakeFirstOrThrow();
  const total = Number(counted.total);
  if (page.limit === 0 || page.offset >= total) return { total, groups: [] };
  const rows = await query
    .select(GROUP_COLUMNS)
    .orderBy("createdAt")
    .orderBy("id")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { total, groups: rows.map(mapGroup) };
}

export async function updateScimGroup(
  db: DB,
  scope: ScimScope,
  id: string,
  change: { displayName: string; externalId: string | null; now: Date },
): Promise<void> {
  await db
    .updateTable("scimGroup")
    .set({ displayName: change.displayName, externalId: change.externalId, updatedAt: change.now })
    .where("organizationId", "=", scope.organizationId)
    .where("providerId", "=", scope.providerId)
    .where("id", "=", id)
    .execute();
}

export async function setScimGroupMapping(db: DB, id: string, grant: ScimGrant, now: Date): Promise<void> {
  await db
    .updateTable("scimGroup")
    .set({ role: grant.role, teamId: grant.teamId, teamRole: grant.teamRole, updatedAt: now })
    .where("id", "=", id)
    .execute();
}

export async function deleteScimGroup(db: DB, scope: ScimScope, id: string): Promise<void> {
  await db.deleteFrom("scimGroupMember").where("groupId", "=", id).execute();
  await db
    .deleteFrom("scimGroup")
    .where("organizationId", "=", scope.organizationId)
    .where("providerId", "=", scope.providerId)
    .where("id", "=", id)
    .execute();
}

/** The members of these groups (users still linked to the connection), by the order they joined. */
export async function listScimGroupMembers(
  db: DB,
  scope: ScimScope,
  groupIds: readonly string[],
): Promise<ScimGroupMemberRow[]> {
  if (groupIds.length === 0) return [];
  return db
    .selectFrom("scimGroupMember")
    .innerJoin("scimUser", (join) =>
      join
        .onRef("scimUser.userId", "=", "scimGroupMember.userId")
        .on("scimUser.organizationId", "=", scope.organizationId)
        .on("scimUser.providerId", "=", scope.providerId),
    )
    .select(["scimGroupMember.groupId", "scimGroupMember.userId", "scimUser.userName"])
    .where("scimGroupMember.groupId", "in", groupIds)
    .orderBy("scimGroupMember.createdAt")
    .orderBy("scimGroupMember.userId")
    .execute();
}

export async function insertScimGroupMembers(
  db: DB,
  groupId: string,
  userIds: readonly string[],
  now: Date,
): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .insertInto("scimGroupMember")
    .values(userIds.map((userId) => ({ groupId, userId, createdAt: now })))
    .onConflict((oc) => oc.columns(["groupId", "userId"]).doNothing())
    .execute();
}

export async function deleteScimGroupMembers(db: DB, groupId: string, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  await db.deleteFrom("scimGroupMember").where("groupId", "=", groupId).where("userId", "in", userIds).execute();
}

/** Which of these ids are users of the connection (a group's members must be). */
export async function connectionUserIds(db: DB, scope: ScimScope, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom("scimUser")
    .select("userId")
    .where("organizationId", "=", scope.organizationId)
    .where("providerId", "=", scope.providerId)
    .where("userId", "in", userIds)
    .execute();
  return new Set(rows.map((row) => row.userId));
}

/** The mapped groups of the organization (any connection) the user is in. */
export async function grantsOfUser(db: DB, organizationId: string, userId: string): Promise<ScimGrant[]> {
  return db
    .selectFrom("scimGroupMember")
    .innerJoin("scimGroup", "scimGroup.id", "scimGroupMember.groupId")
    .select(["scimGroup.role", "scimGroup.teamId", "scimGroup.teamRole"])
    .where("scimGroupMember.userId", "=", userId)
    .where("scimGroup.organizationId", "=", organizationId)
    .where((eb) => eb.or([eb("scimGroup.role", "is not", null), eb("scimGroup.teamId", "is not", null)]))
    .execute();
}

/** The groups of the connection the user is in (a user the directory deletes leaves them). */
export async function scimGroupIdsOfUser(db: DB, scope: ScimScope, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("scimGroupMember")
    .innerJoin("scimGroup", "scimGroup.id", "scimGroupMember.groupId")
    .select("scimGroup.id")
    .where("scimGroupMember.userId", "=", userId)
    .where("scimGroup.organizationId", "=", scope.organizationId)
    .where("scimGroup.providerId", "=", scope.providerId)
    .execute();
  return rows.map((row) => row.id);
}

export async function countScimGroupMembers(db: DB, groupIds: readonly string[]): Promise<Map<string, number>> {
  if (groupIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("scimGroupMember")
    .select(["groupId", countAll.as("n")])
    .where("groupId", "in", groupIds)
    .groupBy("groupId")
    .execute();
  return new Map(rows.map((row) => [row.groupId, Number(row.n)]));
}

/** Every group of a connection (its revocation): members lose what the groups gave when reconciled. */
export async function deleteScimGroupsOf(db: DB, scope: ScimScope): Promise<void> {
  const ids = groupsOf(db, scope).select("id");
  await db.deleteFrom("scimGroupMember").where("groupId", "in", ids).execute();
  await db
    .deleteFrom("scimGroup")
    .where("organizationId", "=", scope.organizationId)
    .where("providerId", "=", scope.providerId)
    .execute();
}

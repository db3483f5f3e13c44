import { type ExpressionBuilder, type Selectable, sql } from "kysely";
import type { Organization } from "../../contract/models.js";
import { copyFields, NO_FIELDS, storedValues, type TableFields } from "./additional-fields.js";
import type { DB } from "./db.js";
import type { DialectName } from "./dialect.js";
import { type CallerSessionRead, readCallerList, readPrecompiled } from "./reads/index.js";
import type { Database, OrganizationTable } from "./schema.js";
import { isoTimestamp, type TimeOf, toDate, type WithTimes } from "./values.js";

export type OrganizationRow = Selectable<OrganizationTable>;

function parseMetadata(text: string | null): Record<string, unknown> | null {
  if (text === null || text === "") return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The wire Organization; with `fields`, also the app's own returned fields. */
export function mapOrganization(row: OrganizationRow, time?: TimeOf<Date>, fields?: TableFields): Organization;
export function mapOrganization<T>(
  row: OrganizationRow,
  time: TimeOf<T>,
  fields?: TableFields,
): WithTimes<Organization, T>;
export function mapOrganization(
  row: OrganizationRow,
  time: TimeOf<unknown> = toDate,
  fields: TableFields = NO_FIELDS,
): WithTimes<Organization, unknown> {
  const organization = {
    id: row.id,
    name: row.name,
    slug: row.slug,
    logo: row.logo,
    metadata: parseMetadata(row.metadata),
    createdAt: time(row.createdAt),
  };
  if (fields.returned.length > 0) copyFields(organization, row as unknown as Record<string, unknown>, fields, time);
  return organization;
}

/** The app's own fields of a write: which they are, and the checked values to store. */
export interface FieldValues {
  spec: TableFields;
  values: Readonly<Record<string, unknown>>;
}

export const metadataText = (value: Record<string, unknown> | null | undefined) =>
  value === null || value === undefined ? null : JSON.stringify(value);

export async function insertOrganization(
  db: DB,
  org: {
    id: string;
    name: string;
    slug: string;
    logo: string | null;
    metadata: string | null;
    now: Date;
    fields?: FieldValues;
  },
): Promise<Organization> {
  const row = await db
    .insertInto("organization")
    .values({
      id: org.id,
      name: org.name,
      slug: org.slug,
      logo: org.logo,
      metadata: org.metadata,
      createdAt: org.now,
      ...(org.fields ? storedValues(org.fields.spec, org.fields.values) : {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return mapOrganization(row, toDate, org.fields?.spec);
}

export async function findOrganization(
  db: DB,
  by: { id?: string; slug?: string },
  fields?: TableFields,
): Promise<Organization | null> {
  let query = db.selectFrom("organization").selectAll();
  if (by.id !== undefined) query = query.where("id", "=", by.id);
  else if (by.slug !== undefined) query = query.where("slug", "=", by.slug);
  else return null;
  const row = await query.executeTakeFirst();
  return row ? mapOrganization(row, toDate, fields) : null;
}

export async function slugExists(db: DB, slug: string): Promise<boolean> {
  const row = await db.selectFrom("organization").select("id").where("slug", "=", slug).executeTakeFirst();
  return row !== undefined;
}

/** The organization columns an update may change (metadata as JSON text, as stored). */
export interface OrganizationPatch {
  name?: string;
  slug?: string;
  logo?: string | null;
  metadata?: string | null;
}

export async function updateOrganizationRow(
  db: DB,
  id: string,
  patch: OrganizationPatch,
  fields?: FieldValues,
): Promise<Organization | null> {
  const set = { ...patch, ...(fields ? storedValues(fields.spec, fields.values) : {}) };
  if (Object.keys(set).length === 0) return findOrganization(db, { id }, fields?.spec);
  const row = await db.updateTable("organization").set(set).where("id", "=", id).returningAll().executeTakeFirst();
  return row ? mapOrganization(row, toDate, fields?.spec) : null;
}

/**
 * The organization with its teams (and their members), invitations and memberships; `db` is the
 * caller's transaction. Answers the organization as it was (for organization.deleted), or null.
 */
export async function deleteOrganizationWithContents(db: DB, id: string): Promise<Organization | null> {
  await db
    .deleteFrom("teamMember")
    .where("teamId", "in", (eb) => eb.selectFrom("team").select("team.id").where("team.organizationId", "=", id))
    .execute();
  await db
    .deleteFrom("scimGroupMember")
    .where("groupId", "in", (eb) => eb.selectFrom("scimGroup").select("scimGroup.id").where("organizationId", "=", id))
    .execute();
  await db.deleteFrom("scimGroup").where("organizationId", "=", id).execute();
  await db.deleteFrom("team").where("organizationId", "=", id).execute();
  await db.deleteFrom("invitation").where("organizationId", "=", id).execute();
  await db.deleteFrom("member").where("organizationId", "=", id).execute();
  await db.deleteFrom("scimUser").where("organizationId", "=", id).execute();
  await db.deleteFrom("scimProvider").where("organizationId", "=", id).execute();
  const row = await db.deleteFrom("organization").where("id", "=", id).returningAll().executeTakeFirst();
  return row ? mapOrganization(row) : null;
}

/**
 * Serializes membership changes of one organization inside a transaction: on PostgreSQL a row lock
 * (`FOR UPDATE`) on the organization, so "last owner", membership-limit and last-team checks see
 * each other's commits. SQLite has one writer at a time (and Kysely one connection), so a plain read
 * suffices there. Returns false when the organization does not exist.
 */
export async function lockOrganization(trx: DB, dialect: DialectName, id: string): Promise<boolean> {
  const query = trx.selectFrom("organization").select("id").where("id", "=", id);
  const row = await (dialect === "postgres" ? query.forUpdate() : query).executeTakeFirst();
  return row !== undefined;
}

/** Organizations the user is a member of, oldest membership first. */
export async function listUserOrganizations(db: DB, userId: string): Promise<Organization[]> {
  const rows = await readPrecompiled(db, "userOrganizations", [userId], ([user]) =>
    db
      .selectFrom("organization")
      .innerJoin("member", "member.organizationId", "organization.id")
      .selectAll("organization")
      .where("member.userId", "=", user as string)
      .orderBy("member.createdAt", "asc"),
  );
  return rows.map((row) => mapOrganization(row));
}

/**
 * The same organizations read with the caller's session, in the lookup's statement
 * (store/caller-reads.ts), as the reply has them: timestamps as text (see isoTimestamp).
 */
export function readCallerOrganizations(
  dialect: DialectName,
  fields: TableFields,
  fieldsKey: string,
): CallerSessionRead<WithTimes<Organization, string>[]> {
  return readCallerList(
    dialect,
    `organizations${fieldsKey}`,
    [],
    (eb) =>
      eb
        .selectFrom("organization")
        .innerJoin("member", "member.organizationId", "organization.id")
        .select([
          "organization.id",
          "organization.name",
          "organization.slug",
          "organization.logo",
          "organization.metadata",
          "organization.createdAt",
          ...fields.returned.map((f) => sql.ref<unknown>(`organization.${f.name}`).as(f.name)),
        ])
        .whereRef("member.userId", "=", "callerSession.userId")
        .orderBy("member.createdAt", "asc"),
    (row: OrganizationRow) => mapOrganization(row, isoTimestamp, fields),
  );
}

/** SQL predicate: the comma-separated role column holds `role`. */
export function roleColumnHas(eb: ExpressionBuilder<Database, "member">, role: string) {
  return eb.or([
    eb("member.role", "=", role),
    eb("member.role", "like", `${role},%`),
    eb("member.role", "like", `%,${role}`),
    eb("member.role", "like", `%,${role},%`),
  ]);
}

// ---- the session's active organization and team ---------------------------------------------------

export async function setSessionActive(
  db: DB,
  sessionId: string,
  active: { activeOrganizationId?: string | null; activeTeamId?: string | null },
  now: Date,
): Promise<void> {
  await db
    .updateTable("session")
    .set({ ...active, updatedAt: now })
    .where("id", "=", sessionId)
    .execute();
}

/** Clears the active organization and team on every session of `userId` that points at the organization. */
export async function clearUserActiveOrganization(db: DB, userId: string, organizationId: string): Promise<void> {
  await db
    .updateTable("session")
    .set({ activeOrganizationId: null, activeTeamId: null })
    .where("userId", "=", userId)
    .where("activeOrganizationId", "=", organizationId)
    .execute();
}

/** Clears the active organization and team on every session (of anyone) that points at the organization. */
export async function clearActiveOrganizationEverywhere(db: DB, organizationId: string): Promise<void> {
  await db
    .updateTable("session")
    .set({ activeOrganizationId: null, activeTeamId: null })
    .where("activeOrganizationId", "=", organizationId)
    .execute();
}

/** Clears an active team on the sessions that point at it (all users, or one). */
export async function clearActiveTeam(db: DB, teamId: string, userId?: string): Promise<void> {
  let query = db.updateTable("session").set({ activeTeamId: null }).where("activeTeamId", "=", teamId);
  if (userId !== undefined) query = query.where("userId", "=", userId);
  await query.execute();
}

export const countAll = sql<number>`count(*)`;

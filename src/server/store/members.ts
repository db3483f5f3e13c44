import { type Expression, type InferResult, type Selectable, type SelectQueryBuilder, type SqlBool, sql } from "kysely";
import type { Member, MemberWithUser } from "../../contract/models.js";
import type { DB } from "./db.js";
import type { DialectName } from "./dialect.js";
import { countAll, roleColumnHas } from "./organizations.js";
import {
  type CallerSessionRead,
  type callerSessionQuery,
  jsonRows,
  type MemberPageCache,
  type MembersReply,
  parseJsonRows,
  type ReadOptions,
  readOnePrecompiled,
  readPrecompiled,
  readWithCallerSession,
} from "./reads/index.js";
import type { Database, MemberTable } from "./schema.js";
import { isoTimestamp, type TimeOf, toDate, type WithTimes } from "./values.js";

export type MemberRow = Selectable<MemberTable>;

export function mapMember(row: Pick<MemberRow, "id" | "organizationId" | "userId" | "role" | "createdAt">): Member {
  return {
    id: row.id,
    organizationId: row.organizationId,
    userId: row.userId,
    role: row.role,
    createdAt: toDate(row.createdAt),
  };
}

/**
 * A member row with its user, as every read of members selects it: the one list to extend (with
 * mapMemberWithUser) to show another field. Migration 0014's triggers must watch each user column
 * here (test/member-pages.test.ts checks it).
 */
export const memberWithUserColumns = [
  "member.id",
  "member.organizationId",
  "member.userId",
  "member.role",
  "member.createdAt",
  "user.name as userName",
  "user.email as userEmail",
  "user.image as userImage",
  "member.invitedBy",
] as const;

interface MemberUserRow {
  id: string;
  organizationId: string;
  userId: string;
  role: string;
  createdAt: Date | string;
  userName: string;
  userEmail: string;
  userImage: string | null;
  invitedBy: string | null;
}

function mapMemberWithUser(row: MemberUserRow): MemberWithUser;
function mapMemberWithUser<T>(row: MemberUserRow, time: TimeOf<T>): WithTimes<MemberWithUser, T>;
function mapMemberWithUser(row: MemberUserRow, time: TimeOf<unknown> = toDate): WithTimes<MemberWithUser, unknown> {
  // Field by field (not a spread of mapMember's): on the list routes the row is parsed JSON.
  return {
    id: row.id,
    organizationId: row.organizationId,
    userId: row.userId,
    role: row.role,
    createdAt: time(row.createdAt),
    user: { id: row.userId, name: row.userName, email: row.userEmail, image: row.userImage },
    invitedBy: row.invitedBy,
  };
}

/** A member with their user as list-members and get-active-member reply: timestamps as text. */
export type MemberWithUserText = WithTimes<MemberWithUser, string>;

export async function insertMember(
  db: DB,
  member: { id: string; organizationId: string; userId: string; role: string; now: Date; invitedBy?: string | null },
): Promise<Member> {
  const row = await db
    .insertInto("member")
    .values({
      id: member.id,
      organizationId: member.organizationId,
      userId: member.userId,
      role: member.role,
      teamId: null,
      createdAt: member.now,
      invitedBy: member.invitedBy ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return mapMember(row);
}

/** The user's membership of the organization: one lookup on the (organizationId, userId) key. */
export async function findMember(db: DB, organizationId: string, userId: string): Promise<Member | null> {
  const row = await db
    .selectFrom("member")
    .selectAll()
    .where("organizationId", "=", organizationId)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return row ? mapMember(row) : null;
}

/** The user's membership of the organization named by slug (one join). */
export async function findMemberBySlug(
  db: DB,
  slug: string,
  userId: string,
): Promise<{ member: Member | null; organizationId: string } | null> {
  const row = await db
    .selectFrom("organization")
    .leftJoin("member", (join) =>
      join.onRef("member.organizationId", "=", "organization.id").on("member.userId", "=", userId),
    )
    .select([
      "organization.id as orgId",
      "member.id",
      "member.organizationId",
      "member.userId",
      "member.role",
      "member.createdAt",
    ])
    .where("organization.slug", "=", slug)
    .executeTakeFirst();
  if (!row) return null;
  const member =
    row.id && row.organizationId && row.userId && row.role && row.createdAt
      ? mapMember({
          id: row.id,
          organizationId: row.organizationId,
          userId: row.userId,
          role: row.role,
          createdAt: row.createdAt,
        })
      : null;
  return { member, organizationId: row.orgId };
}

export async function findMemberWithUser(
  db: DB,
  organizationId: string,
  by: { memberId?: string; userId?: string; email?: string },
): Promise<MemberWithUser | null> {
  const [key, column, value] =
    by.memberId !== undefined
      ? (["memberWithUser.id", "member.id", by.memberId] as const)
      : by.userId !== undefined
        ? (["memberWithUser.userId", "member.userId", by.userId] as const)
        : by.email !== undefined
          ? (["memberWithUser.email", "user.email", by.email.toLowerCase()] as const)
          : [];
  if (key === undefined) return null;
  const row = await readOnePrecompiled(db, key, [organizationId, value], ([organization, needle]) =>
    db
      .selectFrom("member")
      .innerJoin("user", "user.id", "member.userId")
      .select(memberWithUserColumns)
      .where("member.organizationId", "=", organization as string)
      .where(column, "=", needle as string),
  );
  return row ? mapMemberWithUser(row) : null;
}

/**
 * With the caller's session, their member row (and user) in the organization named, else in the
 * session's active one: findMemberWithUser by user id, in the lookup's statement.
 */
export function readCallerActiveMember(organizationId: string | null): CallerSessionRead<MemberWithUserText | null> {
  return readWithCallerSession(
    "activeMember",
    [organizationId],
    (base, [named]) =>
      base
        .leftJoin("member", (join) =>
          join
            .onRef("member.userId", "=", "callerSession.userId")
            .on("member.organizationId", "=", namedOrActive(named as string | null)),
        )
        .leftJoin("user", "user.id", "member.userId")
        .select(memberWithUserColumns),
    ([row]) => (row?.id ? mapMemberWithUser(row as MemberUserRow, isoTimestamp) : null),
  );
}

/** The organization id given, else the caller's session's active one (in a statement on callerSession). */
function namedOrActive(named: string | null) {
  return sql<string>`coalesce(${named}, ${sql.ref("callerSession.activeOrganizationId")})`;
}

/** Member rows that `narrow` keeps. */
async function countMemberRows(
  db: DB,
  narrow: (query: SelectQueryBuilder<Database, "member", object>) => SelectQueryBuilder<Database, "member", object>,
): Promise<number> {
  const row = await narrow(db.selectFrom("member")).select(countAll.as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

export function countMembers(db: DB, organizationId: string): Promise<number> {
  return countMemberRows(db, (query) => query.where("organizationId", "=", organizationId));
}

export function countMembersWithRole(db: DB, organizationId: string, role: string): Promise<number> {
  return countMemberRows(db, (query) =>
    query.where("organizationId", "=", organizationId).where((eb) => roleColumnHas(eb, role)),
  );
}

export function countUserMemberships(db: DB, userId: string): Promise<number> {
  return countMemberRows(db, (query) => query.where("userId", "=", userId));
}

export async function updateMemberRoleRow(db: DB, memberId: string, role: string): Promise<Member | null> {
  const row = await db.updateTable("member").set({ role }).where("id", "=", memberId).returningAll().executeTakeFirst();
  return row ? mapMember(row) : null;
}

/** Removes the membership and the user's places in the organization's teams. */
export async function deleteMemberWithTeams(db: DB, member: Member): Promise<void> {
  await db
    .deleteFrom("teamMember")
    .where("userId", "=", member.userId)
    .where("teamId", "in", (eb) =>
      eb.selectFrom("team").select("team.id").where("team.organizationId", "=", member.organizationId),
    )
    .execute();
  await db.deleteFrom("member").where("id", "=", member.id).execute();
}

/** Members with their user, oldest first, at most `limit` (get-full-organization). */
export async function listMembersWithUsers(db: DB, organizationId: string, limit: number): Promise<MemberWithUser[]> {
  const rows = await db
    .selectFrom("member")
    .innerJoin("user", "user.id", "member.userId")
    .select(memberWithUserColumns)
    .where("member.organizationId", "=", organizationId)
    .orderBy("member.createdAt", "asc")
    .orderBy("member.id", "asc")
    .limit(limit)
    .execute();
  return rows.map((row) => mapMemberWithUser(row));
}

// ---- list-members: the caller's membership, one page and the total in one round trip -------------

export type MemberField = "id" | "userId" | "role" | "createdAt" | "name" | "email";
export type MemberFilter =
  | { field: MemberField; operator: "eq" | "ne" | "lt" | "lte" | "gt" | "gte"; value: string | Date }
  | { field: MemberField; operator: "in" | "not_in"; value: (string | Date)[] }
  | { field: MemberField; operator: "contains" | "starts_with" | "ends_with"; value: string };

export interface MemberPageQuery {
  organization: { id: string } | { slug: string };
  /** Null: the caller is no member (an organization's API key, already checked): any member row anchors the page. */
  callerUserId: string | null;
  limit: number;
  offset: number;
  sortBy: MemberField;
  sortDirection: "asc" | "desc";
  filter?: MemberFilter;
}

/** A page of list-members as it is answered: timestamps as text, `total` counting every page. */
export type { MembersReply };

/** A page and who the caller is in its organization. */
export interface MemberPage {
  /** Null when the caller is not a member (or the organization does not exist). */
  caller: { organizationId: string; role: string } | null;
  /** Empty when the caller is not a member. A kept page's reply is frozen: the same object each time. */
  reply: MembersReply;
}

const columnOf: Record<MemberField, string> = {
  id: "member.id",
  userId: "member.userId",
  role: "member.role",
  createdAt: "member.createdAt",
  name: "user.name",
  email: "user.email",
};

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (ch) => `\\${ch}`);

function filterExpression(filter: MemberFilter): Expression<SqlBool> {
  const column = sql.ref(columnOf[filter.field]);
  switch (filter.operator) {
    case "eq":
      return sql<SqlBool>`${column} = ${filter.value}`;
    case "ne":
      return sql<SqlBool>`${column} <> ${filter.value}`;
    case "lt":
      return sql<SqlBool>`${column} < ${filter.value}`;
    case "lte":
      return sql<SqlBool>`${column} <= ${filter.value}`;
    case "gt":
      return sql<SqlBool>`${column} > ${filter.value}`;
    case "gte":
      return sql<SqlBool>`${column} >= ${filter.value}`;
    case "in":
    case "not_in": {
      if (filter.value.length === 0) return filter.operator === "in" ? sql<SqlBool>`1 = 0` : sql<SqlBool>`1 = 1`;
      const list = sql.join(filter.value.map((v) => sql`${v}`));
      return filter.operator === "in" ? sql<SqlBool>`${column} in (${list})` : sql<SqlBool>`${column} not in (${list})`;
    }
    default: {
      const needle = escapeLike(filter.value.toLowerCase());
      const pattern =
        filter.operator === "contains"
          ? `%${needle}%`
          : filter.operator === "starts_with"
            ? `${needle}%`
            : `%${needle}`;
      return sql<SqlBool>`lower(${column}) like ${pattern} escape '\\'`;
    }
  }
}

/** The id of the organization with this slug, as a subquery of the statement it is put in. */
function organizationIdBySlug(slug: unknown) {
  return sql<string>`(select ${sql.ref("organization.id")} from ${sql.table("organization")} where ${sql.ref("organization.slug")} = ${slug})`;
}

/** `<column> = <the organization's id>`, the id given or looked up by slug inside the same statement. */
function inOrganization(column: string, org: MemberPageQuery["organization"]) {
  const target = "id" in org ? sql`${org.id}` : organizationIdBySlug(org.slug);
  return sql<SqlBool>`${sql.ref(column)} = ${target}`;
}

/**
 * One query: the caller's membership row LEFT JOINed to the requested page of members with their
 * users, plus the filtered total. Not a member -> no row at all.
 */
export function membersPageQuery(db: DB, q: MemberPageQuery) {
  const direction = q.sortDirection;
  return (
    db
      .with("page", (qb) =>
        qb
          .selectFrom("member")
          .innerJoin("user", "user.id", "member.userId")
          .select([...memberWithUserColumns, sql<string>`${sql.ref(columnOf[q.sortBy])}`.as("sortKey")])
          .where(inOrganization("member.organizationId", q.organization))
          .$if(q.filter !== undefined, (qb2) => qb2.where(filterExpression(q.filter!)))
          .orderBy(sql.ref(columnOf[q.sortBy]), direction)
          .orderBy("member.id", direction)
          .limit(q.limit)
          .offset(q.offset),
      )
      .selectFrom("member as caller")
      .leftJoin("page", (join) => join.on(sql<SqlBool>`1 = 1`))
      .select(["caller.organizationId as callerOrganizationId", "caller.role as callerRole"])
      // The filtered total as a scalar subquery: an index-only count unless the filter is on the
      // user's name or email (a window function would build every matching row before LIMIT).
      .select((eb) => {
        const filter = q.filter;
        const inOrg = inOrganization("member.organizationId", q.organization);
        if (filter && (filter.field === "name" || filter.field === "email")) {
          return eb
            .selectFrom("member")
            .innerJoin("user", "user.id", "member.userId")
            .select(countAll.as("n"))
            .where(inOrg)
            .where(filterExpression(filter))
            .as("total");
        }
        return eb
          .selectFrom("member")
          .select(countAll.as("n"))
          .where(inOrg)
          .$if(filter !== undefined, (qb) => qb.where(filterExpression(filter!)))
          .as("total");
      })
      .selectAll("page")
      .where(inOrganization("caller.organizationId", q.organization))
      .where((eb) =>
        q.callerUserId !== null
          ? eb("caller.userId", "=", q.callerUserId)
          : eb(
              "caller.id",
              "=",
              eb
                .selectFrom("member as anchor")
                .select((a) => a.fn.min<string>("anchor.id").as("id"))
                .where(inOrganization("anchor.organizationId", q.organization)),
            ),
      )
      .orderBy("page.sortKey", direction)
      .orderBy("page.id", direction)
  );
}

const unfilteredPageColumns = [
  "caller.organizationId as callerOrganizationId",
  "caller.role as callerRole",
  ...memberWithUserColumns,
] as const;

/**
 * The unfiltered page, cheaper to run: the caller's membership row joined straight to the members,
 * in index order, with no materialised page to sort again. The caller is one of the members, so an
 * empty answer means "not a member" unless the page starts past the end (listMembersPage then asks
 * membersPageQuery). Its SQL depends only on how the organization is named and on the order.
 */
function unfilteredPageQuery(db: DB, q: MemberPageQuery) {
  const direction = q.sortDirection;
  const total = db
    .selectFrom("member as counted")
    .select(countAll.as("n"))
    .where(inOrganization("counted.organizationId", q.organization))
    .as("total");
  if (q.sortBy === "name" || q.sortBy === "email") {
    return db
      .selectFrom("member as caller")
      .innerJoin("member", "member.organizationId", "caller.organizationId")
      .innerJoin("user", "user.id", "member.userId")
      .select(unfilteredPageColumns)
      .select(total)
      .where(inOrganization("caller.organizationId", q.organization))
      .where("caller.userId", "=", q.callerUserId as string)
      .orderBy(sql.ref(columnOf[q.sortBy]), direction)
      .orderBy("member.id", direction)
      .limit(q.limit)
      .offset(q.offset);
  }
  // Ordered by a member column: the page's ids first, skipping the offset within the member index
  // alone, then only those members joined to their users. Joined before the offset, a page at
  // offset n looked up n users, and its time grew with the user table (bench/README.md, issue 36).
  const page = db
    .selectFrom("member as paged")
    .select("paged.id")
    .where(inOrganization("paged.organizationId", q.organization))
    .orderBy(sql.ref(`paged.${q.sortBy}`), direction)
    .orderBy("paged.id", direction)
    .limit(q.limit)
    .offset(q.offset);
  return db
    .selectFrom("member as caller")
    .innerJoin("member", (join) => join.on("member.id", "in", page))
    .innerJoin("user", "user.id", "member.userId")
    .select(unfilteredPageColumns)
    .select(total)
    .where(inOrganization("caller.organizationId", q.organization))
    .where("caller.userId", "=", q.callerUserId as string)
    .orderBy(sql.ref(columnOf[q.sortBy]), direction)
    .orderBy("member.id", direction);
}

/** A row of either page query (the unfiltered one has no sort key column, which nothing reads). */
type PageRow = Omit<InferResult<ReturnType<typeof membersPageQuery>>[number], "sortKey">;

/** A page of members is a large answer: it is not coalesced with other reads (see ReadOptions). */
const PAGE_READ: ReadOptions = { coalesce: false };

async function readUnfilteredPage(db: DB, q: MemberPageQuery): Promise<PageRow[]> {
  const byId = "id" in q.organization;
  const rows = await readPrecompiled(
    db,
    `membersPage.${byId ? "id" : "slug"}.${q.sortBy}.${q.sortDirection}`,
    [
      byId ? (q.organization as { id: string }).id : (q.organization as { slug: string }).slug,
      q.callerUserId,
      q.limit,
      q.offset,
    ],
    ([organization, callerUserId, limit, offset]) =>
      unfilteredPageQuery(db, {
        ...q,
        organization: byId ? { id: organization as string } : { slug: organization as string },
        callerUserId: callerUserId as string,
        limit: limit as number,
        offset: offset as number,
      }),
    PAGE_READ,
  );
  if (rows.length > 0 || (q.offset === 0 && q.limit > 0)) return rows;
  // Past the end of the list: whether the caller is a member takes the page query's left join.
  return membersPageQuery(db, q).execute();
}

/** A first page (offset 0) of unfiltered members, asked of the caller's own session. */
export interface CallerPageQuery {
  /** By slug, or by id where null means the session's active organization. */
  organization: { id: string | null } | { slug: string };
  limit: number;
  /** The configured page size (membershipLimit): a limit of this size is written into the SQL. */
  pageSize: number;
  sortBy: MemberField;
  sortDirection: "asc" | "desc";
}

/** A page read with the caller's session. */
export type CallerMembersPage = MemberPage;

const NO_PAGE: MembersReply = Object.freeze({ members: [], total: 0 });

/**
 * With the caller's session, an unfiltered first page: the caller's membership, the page and the
 * total, or, when `pages` holds this page at the organization's current member-list version, the
 * membership alone (the kept page is answered).
 */
export function readCallerMembersPage(
  dialect: DialectName,
  q: CallerPageQuery,
  pages: MemberPageCache,
): CallerSessionRead<CallerMembersPage> {
  const byId = "id" in q.organization;
  const named = byId ? (q.organization as { id: string | null }).id : (q.organization as { slug: string }).slug;
  // SQLite runs the page's subquery far slower with its LIMIT bound than written in (bench/README.md):
  // the usual page, of the configured size, is a statement of its own with the number written in.
  const literalLimit = q.limit === q.pageSize;
  const shape = `membersPage.${byId ? "id" : "slug"}.${q.sortBy}.${q.sortDirection}.${literalLimit ? q.limit : "bound"}`;
  const page = `${q.sortBy}.${q.sortDirection}.${q.limit}`;
  return (db, readDialect, tokenHash, fields, rules) => {
    const naming = !byId ? `slug ${named}` : named === null ? `active ${tokenHash}` : `id ${named}`;
    const known = pages.known(naming, page);
    const read = readWithCallerSession(
      shape,
      [named, known?.organizationId ?? null, known?.version ?? null, ...(literalLimit ? [] : [q.limit])],
      (base, [organization, knownOrganization, knownVersion, limit]) =>
        joinCallerPage(base, dialect, q, {
          organization: byId ? namedOrActive(organization as string | null) : organizationIdBySlug(organization),
          limit: literalLimit ? sql.lit(q.limit) : sql<number>`${limit}`,
          unchanged: sql<SqlBool>`${sql.ref("caller.organizationId")} = ${knownOrganization} and ${sql.ref("pageVersion.version")} = ${knownVersion}`,
        }),
      ([row]): CallerMembersPage => {
        if (!row?.callerOrganizationId || !row.callerRole) return { caller: null, reply: NO_PAGE };
        const caller = { organizationId: row.callerOrganizationId, role: row.callerRole };
        const version = row.pageVersion === null ? null : Number(row.pageVersion);
        // The statement's own test: this is the page held, so the statement left the page out.
        if (known && known.organizationId === caller.organizationId && known.version === version) {
          pages.counts.hits += 1;
          return { caller, reply: known.reply };
        }
        pages.counts.misses += 1;
        const members = parseJsonRows<MemberUserRow>(row.rows).map((member) => mapMemberWithUser(member, isoTimestamp));
        const reply = Object.freeze({ members, total: Number(row.total ?? 0) });
        pages.remember(naming, page, { organizationId: caller.organizationId, version, reply });
        return { caller, reply };
      },
    );
    return read(db, readDialect, tokenHash, fields, rules);
  };
}

/**
 * The caller's membership of `organization`, its member-list version and, unless `unchanged`, the
 * page (as JSON rows) and the total, joined to the caller's session.
 */
function joinCallerPage(
  base: ReturnType<typeof callerSessionQuery>,
  dialect: DialectName,
  q: CallerPageQuery,
  parts: { organization: Expression<string | null>; limit: Expression<number>; unchanged: Expression<SqlBool> },
) {
  // The caller's membership is joined once; the subqueries read its `caller.organizationId`.
  return base
    .leftJoin("member as caller", (join) =>
      join.onRef("caller.userId", "=", "callerSession.userId").on("caller.organizationId", "=", parts.organization),
    )
    .leftJoin("memberListVersion as pageVersion", "pageVersion.organizationId", "caller.organizationId")
    .select((eb) => [
      "caller.organizationId as callerOrganizationId",
      "caller.role as callerRole",
      "pageVersion.version as pageVersion",
      sql<unknown>`case when ${parts.unchanged} then null else ${jsonRows(
        dialect,
        eb
          .selectFrom("member")
          .innerJoin("user", "user.id", "member.userId")
          .select(memberWithUserColumns)
          .whereRef("member.organizationId", "=", "caller.organizationId")
          .orderBy(sql.ref(columnOf[q.sortBy]), q.sortDirection)
          .orderBy("member.id", q.sortDirection)
          .limit(parts.limit),
      )} end`.as("rows"),
      sql<number | string | null>`case when ${parts.unchanged} then null else ${eb
        .selectFrom("member as counted")
        .select(countAll.as("n"))
        .whereRef("counted.organizationId", "=", "caller.organizationId")} end`.as("total"),
    ]);
}

export async function listMembersPage(db: DB, q: MemberPageQuery): Promise<MemberPage> {
  const rows =
    q.filter || q.callerUserId === null ? await membersPageQuery(db, q).execute() : await readUnfilteredPage(db, q);
  const first = rows[0];
  if (!first) return { caller: null, reply: NO_PAGE };
  const members: MemberWithUserText[] = [];
  for (const row of rows) {
    // The caller's row with no page row beside it (a page past the end of the list).
    if (row.id === null || row.userId === null) continue;
    members.push(mapMemberWithUser(row as MemberUserRow, isoTimestamp));
  }
  const reply = { members, total: Number(first.total ?? 0) };
  return { caller: { organizationId: first.callerOrganizationId, role: first.callerRole }, reply };
}

/** Members whose role string names `role` (a comma list may hold it), with their addresses: whom to tell. */
export async function listMemberEmailsWithRole(
  db: DB,
  organizationId: string,
  role: string,
): Promise<{ role: string; email: string }[]> {
  return db
    .selectFrom("member")
    .innerJoin("user", "user.id", "member.userId")
    .select(["member.role", "user.email"])
    .where("member.organizationId", "=", organizationId)
    .where("member.role", "like", `%${role}%`)
    .execute();
}

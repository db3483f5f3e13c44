import type { Updateable } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashSessionToken } from "../src/server/services/sessions.js";
import { readCaller } from "../src/server/store/caller-reads.js";
import { type DB, migrateToLatest, type OpenedDatabase, openDatabase } from "../src/server/store/database.js";
import { type CallerPageQuery, type MembersReply, memberWithUserColumns } from "../src/server/store/members.js";
import { MemberPageCache } from "../src/server/store/reads/index.js";
import type { UserTable } from "../src/server/store/schema.js";
import { dialectUnderTest, freshDatabaseUrl } from "./helpers/database.js";

/**
 * The member-list version (migration 0014) moves, in the writing transaction, with everything a page
 * of list-members shows, and nothing else; a kept page is sent again only while it holds.
 */
const dialect = dialectUnderTest();
let database: { url: string; drop(): Promise<void> };
let opened: OpenedDatabase;
let db: DB;
const at = new Date(Date.UTC(2026, 10, 25, 12, 0, 0));
const tokenOf = (userId: string) => `member-pages-token-${userId}-0123456789`;

async function addUser(id: string, name: string, activeOrganizationId: string | null = "o1") {
  await db
    .insertInto("user")
    .values({
      id,
      name,
      email: `${id}@example.com`,
      emailVerified: true,
      image: null,
      isAnonymous: false,
      banned: false,
      createdAt: at,
      updatedAt: at,
    })
    .execute();
  await db
    .insertInto("session")
    .values({
      id: `s-${id}`,
      tokenHash: hashSessionToken(tokenOf(id)),
      userId: id,
      expiresAt: new Date(Date.UTC(2999, 0, 1)),
      ipAddress: null,
      userAgent: null,
      activeOrganizationId,
      activeTeamId: null,
      impersonatedBy: null,
      createdAt: at,
      updatedAt: at,
    })
    .execute();
}

const addMember = (id: string, userId: string, role: string, invitedBy: string | null = null) =>
  db
    .insertInto("member")
    .values({ id, organizationId: "o1", userId, role, teamId: null, createdAt: at, invitedBy })
    .execute();

async function versionOf(organizationId: string): Promise<number | null> {
  const row = await db
    .selectFrom("memberListVersion")
    .select("version")
    .where("organizationId", "=", organizationId)
    .executeTakeFirst();
  return row ? Number(row.version) : null;
}

beforeAll(async () => {
  database = await freshDatabaseUrl();
  opened = openDatabase(database.url);
  db = opened.db;
  await migrateToLatest(db, opened.dialect);
  for (const [id, name] of [
    ["u1", "Ada"],
    ["u2", "Bea"],
    ["u3", "Cy"],
    ["u4", "Dee"],
  ] as const)
    await addUser(id, name);
  await db
    .insertInto("organization")
    .values({ id: "o1", name: "Org", slug: "org", logo: null, metadata: null, createdAt: at })
    .execute();
});

afterAll(async () => {
  await opened?.close();
  await database?.drop();
});

describe("the member-list version", () => {
  it("moves with every change a page shows, cascades included, and with nothing else", async () => {
    const setUser = (id: string, values: Updateable<UserTable>) => () =>
      db.updateTable("user").set(values).where("id", "=", id).execute();
    const steps: [string, () => Promise<unknown>, boolean][] = [
      ["a member joins", () => addMember("m1", "u1", "owner"), true],
      ["another joins, invited", () => addMember("m2", "u2", "member", "u3"), true],
      ["a role changes", () => db.updateTable("member").set({ role: "admin" }).where("id", "=", "m2").execute(), true],
      ["a member's name changes", setUser("u2", { name: "Beatrice" }), true],
      ["a member's email changes", setUser("u2", { email: "b@example.com" }), true],
      ["a member's image is set", setUser("u2", { image: "https://x/b.png" }), true],
      ["the same name written again", setUser("u2", { name: "Beatrice" }), false],
      ["a member's other columns change", setUser("u2", { emailVerified: false, updatedAt: new Date() }), false],
      ["a non-member is renamed", setUser("u4", { name: "Dee Dee" }), false],
      [
        "a session changes",
        () => db.updateTable("session").set({ updatedAt: new Date() }).where("userId", "=", "u1").execute(),
        false,
      ],
      // The inviter's account goes: ON DELETE SET NULL clears invitedBy, which the page shows.
      ["the inviter (no member) is deleted", () => db.deleteFrom("user").where("id", "=", "u3").execute(), true],
      // A member's account goes: ON DELETE CASCADE takes the membership.
      ["a member's account is deleted", () => db.deleteFrom("user").where("id", "=", "u2").execute(), true],
    ];
    let version = await versionOf("o1");
    expect(version).toBe(1);
    for (const [what, change, moves] of steps) {
      await change();
      const now = await versionOf("o1");
      expect([what, now! > version!]).toEqual([what, moves]);
      version = now;
    }
    expect(await db.selectFrom("member").select("invitedBy").execute()).toEqual([{ invitedBy: null }]);
    // A failed change moves nothing: the version goes with the transaction.
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.updateTable("member").set({ role: "member" }).where("id", "=", "m1").execute();
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await versionOf("o1")).toBe(version);

    await db
      .insertInto("organization")
      .values({ id: "o2", name: "Two", slug: "two", logo: null, metadata: null, createdAt: at })
      .execute();
    expect(await versionOf("o2")).toBe(1);
    await db.deleteFrom("organization").where("id", "=", "o2").execute();
    expect(await versionOf("o2")).toBeNull();
  });
});

describe("the member-list version and the page's columns", () => {
  /** A value other than `value`, of its kind (text, flag, timestamp). */
  const another = (value: unknown): unknown => {
    if (value === null) return "changed";
    if (typeof value === "boolean" || value === 0 || value === 1) return !value;
    if (value instanceof Date) return new Date(value.getTime() + 1000);
    if (typeof value === "string" && !Number.isNaN(Date.parse(value)) && /^\d{4}-/.test(value)) {
      return new Date(Date.parse(value) + 1000);
    }
    return `${String(value)}-changed`;
  };
  // The keys a member row is found by cannot take any other value; every member update moves it anyway.
  const keys = new Set(["member.id", "member.organizationId", "member.userId"]);
  const shown = memberWithUserColumns.map((column) => column.split(" as ")[0]!).filter((c) => !keys.has(c));

  it.each(shown)("moves when a member's %s changes", async (column) => {
    const [table, name] = column.split(".") as ["member" | "user", string];
    const userId = `u-${name}-${table}`;
    await addUser(userId, "Column");
    await addMember(`m-${name}-${table}`, userId, "member");
    const id = table === "user" ? userId : `m-${name}-${table}`;
    const before = await versionOf("o1");
    const current = await db
      .selectFrom(table)
      .select(name as "id")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    await db
      .updateTable(table)
      // invitedBy names a user: the member's own id is one that exists.
      .set({ [name]: name === "invitedBy" ? userId : another((current as Record<string, unknown>)[name]) })
      .where("id", "=", id)
      .execute();
    expect(await versionOf("o1")).toBeGreaterThan(before!);
    await db.deleteFrom("user").where("id", "=", userId).execute();
  });
});

describe.runIf(dialect === "postgres")("the member-list version under concurrent changes", () => {
  it("two users who share organizations, deleted at once, both go: no deadlock", async () => {
    // Memberships made in opposite orders, so that changes taken row by row in the order found would
    // lock the shared versions in opposite orders (this failed in 8 of 30 rounds before).
    const organizations = Array.from({ length: 40 }, (_, i) => `shared-${i}`);
    await db
      .insertInto("organization")
      .values(organizations.map((id) => ({ id, name: id, slug: id, logo: null, metadata: null, createdAt: at })))
      .execute();
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    try {
      const failures: string[] = [];
      for (let round = 0; round < 30; round++) {
        const pair = [`first-${round}`, `second-${round}`];
        for (const [i, userId] of pair.entries()) {
          await addUser(userId, userId, null);
          const order = i === 0 ? organizations : [...organizations].reverse();
          await db
            .insertInto("member")
            .values(
              order.map((organizationId) => ({
                id: `${userId}-${organizationId}`,
                organizationId,
                userId,
                role: "member",
                teamId: null,
                createdAt: at,
                invitedBy: null,
              })),
            )
            .execute();
        }
        const before = await versionOf("shared-0");
        const deleted = await Promise.allSettled(
          pair.map((id) => pool.query(`delete from "user" where "id" = $1`, [id])),
        );
        for (const result of deleted) if (result.status === "rejected") failures.push(String(result.reason));
        expect(await versionOf("shared-0")).toBe(before! + 2);
      }
      expect(failures).toEqual([]);
    } finally {
      await pool.end();
    }
  });
});

describe("a kept page", () => {
  const query: CallerPageQuery = {
    organization: { id: null },
    limit: 10,
    pageSize: 10,
    sortBy: "createdAt",
    sortDirection: "asc",
  };
  const read = (pages: MemberPageCache, userId: string, q: CallerPageQuery = query) =>
    readCaller(
      db,
      dialect,
      hashSessionToken(tokenOf(userId)),
      tokenOf(userId),
      { rows: "membersPage", page: q },
      pages,
    );
  const namesIn = (reply: MembersReply | undefined) => reply?.members.map((m) => m.user.name);

  it("is sent again only while its organization's version holds, and only to a member", async () => {
    await addUser("u5", "Eve");
    await addMember("m5", "u5", "member");
    const pages = new MemberPageCache();
    const first = (await read(pages, "u1")).rows;
    expect(namesIn(first?.reply)).toEqual(["Ada", "Eve"]);
    const page = "createdAt.asc.10";
    const kept = pages.known(`active ${hashSessionToken(tokenOf("u1"))}`, page);
    expect(kept).toEqual({ organizationId: "o1", version: await versionOf("o1"), reply: first!.reply });

    // A marked page kept at the same version: sent as it is, so the statement left the page out.
    const marked = Object.freeze({ members: [], total: -1 });
    const planted = new MemberPageCache();
    planted.remember(`active ${hashSessionToken(tokenOf("u1"))}`, page, { ...kept!, reply: marked });
    expect((await read(planted, "u1")).rows).toEqual({
      caller: { organizationId: "o1", role: "owner" },
      reply: marked,
    });
    // Another page (sort, size) of the same organization is a page of its own.
    const byName = { ...query, sortBy: "name" as const };
    expect(namesIn((await read(planted, "u1", byName)).rows?.reply)).toEqual(["Ada", "Eve"]);

    // Named by id by someone else: the membership is still checked in the statement.
    planted.remember("id o1", page, { ...kept!, reply: marked });
    await addUser("u6", "Stranger");
    const stranger = await read(planted, "u6", { ...query, organization: { id: "o1" } });
    expect(stranger.rows).toEqual({ caller: null, reply: { members: [], total: 0 } });
    expect(stranger.found?.user.id).toBe("u6");

    // The version moves: the page is read again, and kept at its new version.
    await db.updateTable("user").set({ name: "Evelyn" }).where("id", "=", "u5").execute();
    const after = (await read(pages, "u1")).rows;
    expect(namesIn(after?.reply)).toEqual(["Ada", "Evelyn"]);
    expect(pages.known(`active ${hashSessionToken(tokenOf("u1"))}`, page)?.version).toBe(await versionOf("o1"));
  });

  it("is not kept where the organization has no version row (a database changed by hand)", async () => {
    await db.deleteFrom("memberListVersion").where("organizationId", "=", "o1").execute();
    const pages = new MemberPageCache();
    const row = (await read(pages, "u1")).rows;
    expect(namesIn(row?.reply)).toContain("Ada");
    expect(pages.known(`active ${hashSessionToken(tokenOf("u1"))}`, "createdAt.asc.10")).toBeUndefined();
  });
});

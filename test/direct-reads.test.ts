import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashSessionToken } from "../src/server/services/sessions.js";
import { type CallerRead, callerAsText, type FoundCaller, readCaller } from "../src/server/store/caller-reads.js";
import { type DB, migrateToLatest, type OpenedDatabase, openDatabase } from "../src/server/store/database.js";
import { findMemberWithUser } from "../src/server/store/members.js";
import { listUserOrganizations } from "../src/server/store/organizations.js";
import { MemberPageCache } from "../src/server/store/reads/index.js";
import { listActiveUserSessions, mapSession } from "../src/server/store/sessions.js";
import { listUserAccounts } from "../src/server/store/social-accounts.js";
import { dialectUnderTest, freshDatabaseUrl } from "./helpers/database.js";

/**
 * The hot reads run straight on the database (on PostgreSQL each row comes back as one JSON column,
 * timestamps as text) and, inside a transaction, through Kysely (timestamps as Dates). Both must map
 * to the same answers, to the millisecond, whatever the database's time zone.
 */
const dialect = dialectUnderTest();
let database: { url: string; drop(): Promise<void> };
let opened: OpenedDatabase;
const at = (ms: number) => new Date(Date.UTC(2026, 10, 26, 15, 7, 45, ms));
const token = "direct-reads-token-0123456789abcdef";
const tokenHash = hashSessionToken(token);

beforeAll(async () => {
  database = await freshDatabaseUrl();
  if (dialect === "postgres") {
    // Timestamps then come back with a +05:30 offset, not +00:00.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query(`ALTER DATABASE ${new URL(database.url).pathname.slice(1)} SET timezone TO 'Asia/Kolkata'`);
    await client.end();
  }
  opened = openDatabase(database.url);
  const { db } = opened;
  await migrateToLatest(db, opened.dialect);
  await db
    .insertInto("user")
    .values(
      [
        { id: "u1", name: "Ada", email: "ada@example.com", emailVerified: true, image: null, isAnonymous: false },
        {
          id: "u2",
          name: "Bea",
          email: "bea@example.com",
          emailVerified: false,
          image: "https://x/b.png",
          isAnonymous: false,
        },
      ].map((user, i) => ({
        ...user,
        banned: false,
        banExpires: i ? null : at(999),
        createdAt: at(i),
        updatedAt: at(7),
      })),
    )
    .execute();
  await db
    .insertInto("session")
    .values(
      [tokenHash, hashSessionToken("other")].map((hash, i) => ({
        id: `s${i}`,
        tokenHash: hash,
        userId: "u1",
        expiresAt: new Date(Date.UTC(2999, 0, 1, 0, 0, 0, 5)),
        ipAddress: i ? null : "127.0.0.1",
        userAgent: "test",
        activeOrganizationId: "o1",
        activeTeamId: null,
        impersonatedBy: null,
        createdAt: at(100 + i),
        updatedAt: at(200),
      })),
    )
    .execute();
  await db
    .insertInto("organization")
    .values({ id: "o1", name: "Org", slug: "org", logo: null, metadata: '{"plan":"pro"}', createdAt: at(300) })
    .execute();
  await db
    .insertInto("member")
    .values(
      ["u1", "u2"].map((userId, i) => ({
        id: `m${i}`,
        organizationId: "o1",
        userId,
        role: i ? "member" : "owner",
        teamId: null,
        createdAt: at(400 + i),
      })),
    )
    .execute();
  await db
    .insertInto("account")
    .values({
      id: "a1",
      userId: "u1",
      providerId: "github",
      accountId: "42",
      accessTokenExpiresAt: at(500),
      refreshTokenExpiresAt: null,
      createdAt: at(600),
      updatedAt: at(601),
    })
    .execute();
});

afterAll(async () => {
  await opened?.close();
  await database?.drop();
});

/** A read's session and rows, without the raw rows they were made from (their form differs by driver). */
const foundAndRows = <Row>({ found, rows }: Pick<FoundCaller<Row>, "found" | "rows">) => ({ found, rows });

/** What each hot read answers, mapped as the routes map it. */
async function answers(db: DB) {
  const read = <R extends CallerRead>(what: R) =>
    readCaller(db, dialect, tokenHash, token, what, new MemberPageCache());
  const page = {
    organization: { id: null },
    limit: 10,
    pageSize: 10,
    sortBy: "createdAt",
    sortDirection: "asc",
  } as const;
  return {
    session: await read({ rows: "none" }).then(({ found, rows, read }) => ({
      ...foundAndRows({ found, rows }),
      // The reply made from the row's text is what JSON makes of the mapped session, Dates included.
      asText: read ? callerAsText(read, token) : undefined,
      asJson: JSON.parse(JSON.stringify(found)),
    })),
    sessions: (await read({ rows: "sessions", now: at(0) })).rows,
    organizations: foundAndRows(await read({ rows: "organizations" })),
    accounts: foundAndRows(await read({ rows: "accounts" })),
    activeMember: foundAndRows(await read({ rows: "activeMember", organizationId: null })),
    members: [await read({ rows: "membersPage", page })].map(({ rows }) => ({ caller: rows?.caller, ...rows?.reply })),
    userSessions: (await listActiveUserSessions(db, "u1", at(0))).map((r) => mapSession(r, r.id)),
    userOrganizations: await listUserOrganizations(db, "u1"),
    userAccounts: await listUserAccounts(db, "u1"),
    memberWithUser: await findMemberWithUser(db, "o1", { email: "bea@example.com" }),
  };
}

describe("direct reads", () => {
  it("map to the same answers as the same reads through Kysely, timestamps to the millisecond", async () => {
    const direct = await answers(opened.db);
    const throughKysely = await opened.db.transaction().execute((trx) => answers(trx));
    expect(direct).toEqual(throughKysely);
    expect(direct.session.asText).toEqual(direct.session.asJson);
    expect(direct.session.asText?.user.banExpires).toBe(at(999).toISOString());

    expect(direct.session.found?.user).toMatchObject({ emailVerified: true, banExpires: at(999), createdAt: at(0) });
    expect(direct.session.found?.session).toMatchObject({ ipAddress: "127.0.0.1", createdAt: at(100) });
    expect(direct.sessions?.map((s) => [s.id, s.token, s.createdAt])).toEqual([
      ["s1", "s1", at(101).toISOString()],
      ["s0", "s0", at(100).toISOString()],
    ]);
    // The lists read with the caller's session are as the replies have them: timestamps as the text
    // JSON makes of the Dates the same rows map to elsewhere.
    const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value));
    expect(direct.organizations.rows).toEqual([
      { id: "o1", name: "Org", slug: "org", logo: null, metadata: { plan: "pro" }, createdAt: at(300).toISOString() },
    ]);
    expect(direct.organizations.rows).toEqual(asJson(direct.userOrganizations));
    expect(direct.accounts.rows).toEqual(
      asJson(
        direct.userAccounts.map(({ id, userId, providerId, accountId, scope, createdAt, updatedAt }) => ({
          id,
          userId,
          providerId,
          accountId,
          scope,
          createdAt,
          updatedAt,
        })),
      ),
    );
    expect(direct.accounts.rows).toMatchObject([
      { createdAt: at(600).toISOString(), updatedAt: at(601).toISOString() },
    ]);
    expect(direct.members[0]).toMatchObject({ total: 2, caller: { role: "owner" } });
    expect(direct.members[0]?.members?.map((m) => [m.user.name, m.createdAt])).toEqual([
      ["Ada", at(400).toISOString()],
      ["Bea", at(401).toISOString()],
    ]);
    expect(direct.members[0]?.members?.[1]).toEqual(asJson(direct.memberWithUser));
    expect(direct.activeMember.rows).toMatchObject({ user: { name: "Ada" }, createdAt: at(400).toISOString() });
    expect(direct.memberWithUser).toMatchObject({
      user: { image: "https://x/b.png" },
      createdAt: at(401),
    });
  });

  it("keep answering, with the new column, after another instance's migration changes a table under them", async () => {
    const before = await listActiveUserSessions(opened.db, "u1", at(0)); // prepared as `select *`
    expect(before).toHaveLength(2);
    await opened.db.schema.alterTable("session").addColumn("directReadsExtra", "text").execute();
    try {
      const count = opened.queryCount();
      const after = await listActiveUserSessions(opened.db, "u1", at(0));
      expect(opened.queryCount() - count).toBe(1);
      expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
      expect(after[0]).toHaveProperty("directReadsExtra", null);
    } finally {
      await opened.db.schema.alterTable("session").dropColumn("directReadsExtra").execute();
    }
  });
});

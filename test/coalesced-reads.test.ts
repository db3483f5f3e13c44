import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashSessionToken } from "../src/server/services/sessions.js";
import { readCaller } from "../src/server/store/caller-reads.js";
import { migrateToLatest, type OpenedDatabase, openDatabase, readRowsDirect } from "../src/server/store/database.js";
import { MemberPageCache } from "../src/server/store/reads/index.js";
import { listActiveUserSessions } from "../src/server/store/sessions.js";
import { dialectUnderTest, freshDatabaseUrl } from "./helpers/database.js";

/**
 * Hot reads issued together (as concurrent requests issue them) answer exactly what each answers
 * alone; on PostgreSQL, reads of one statement in one turn share a round trip, and a read that
 * PostgreSQL refuses fails alone.
 */
const dialect = dialectUnderTest();
const coalesces = dialect === "postgres";
let database: { url: string; drop(): Promise<void> };
let opened: OpenedDatabase;
const USERS = 12;
const at = (minute: number) => new Date(Date.UTC(2026, 10, 25, 12, minute));
const tokenOf = (user: number, session: number) => `coalesced-token-${user}-${session}`;
const readCallerSession = (token: string) =>
  readCaller(opened.db, dialect, hashSessionToken(token), token, { rows: "none" }, new MemberPageCache());

/** Round trips `work` took. */
async function roundTrips(work: () => Promise<unknown>): Promise<number> {
  const before = opened.queryCount();
  await work();
  return opened.queryCount() - before;
}

beforeAll(async () => {
  database = await freshDatabaseUrl();
  opened = openDatabase(database.url);
  const { db } = opened;
  await migrateToLatest(db, opened.dialect);
  const users = Array.from({ length: USERS }, (_, u) => u);
  await db
    .insertInto("user")
    .values(
      users.map((u) => ({
        id: `u${u}`,
        name: `User ${u}`,
        email: `u${u}@example.com`,
        emailVerified: u % 2 === 0,
        image: null,
        isAnonymous: false,
        banned: false,
        createdAt: at(u),
        updatedAt: at(u),
      })),
    )
    .execute();
  // User u has u % 3 + 1 sessions, created a minute apart.
  await db
    .insertInto("session")
    .values(
      users.flatMap((u) =>
        Array.from({ length: (u % 3) + 1 }, (_, s) => ({
          id: `s${u}-${s}`,
          tokenHash: hashSessionToken(tokenOf(u, s)),
          userId: `u${u}`,
          expiresAt: new Date(Date.UTC(2999, 0, 1)),
          ipAddress: null,
          userAgent: `agent ${u}-${s}`,
          activeOrganizationId: null,
          activeTeamId: null,
          impersonatedBy: null,
          createdAt: at(10 + s),
          updatedAt: at(10 + s),
        })),
      ),
    )
    .execute();
});

afterAll(async () => {
  await opened?.close();
  await database?.drop();
});

describe("hot reads issued together", () => {
  it("each answer their own rows, in order, as alone; on PostgreSQL in a round trip per eight at most", async () => {
    const { db } = opened;
    const lookups = [...Array.from({ length: USERS }, (_, u) => tokenOf(u, 0)), "no-such-token", tokenOf(5, 2)];
    const alone: Awaited<ReturnType<typeof readCallerSession>>[] = [];
    for (const token of lookups) alone.push(await readCallerSession(token));
    let together: Awaited<ReturnType<typeof readCallerSession>>[] = [];
    const taken = await roundTrips(async () => {
      together = await Promise.all(lookups.map((token) => readCallerSession(token)));
    });
    const found = (reads: typeof alone) => reads.map((read) => read.found);
    expect(found(together)).toEqual(found(alone));
    expect(together.map((read) => read.found?.user.id ?? null)).toEqual([
      ...Array.from({ length: USERS }, (_, u) => `u${u}`),
      null,
      "u5",
    ]);
    // Fourteen reads: statements of 8, 4 and 2 (see batchSize).
    expect(lookups).toHaveLength(14);
    expect(taken).toBe(coalesces ? 3 : 14);

    // Several rows per read, each read's in its own order (newest first).
    const sessions = await Promise.all(
      Array.from({ length: USERS }, (_, u) => listActiveUserSessions(db, `u${u}`, at(0))),
    );
    sessions.forEach((rows, u) => {
      expect(rows.map((row) => row.id)).toEqual(Array.from({ length: (u % 3) + 1 }, (_, s) => `s${u}-${s}`).reverse());
    });
  });

  it("fail alone when the database refuses one read's value; the others answer", async () => {
    const { db } = opened;
    const reads = await Promise.allSettled([
      listActiveUserSessions(db, "u2", at(0)),
      listActiveUserSessions(db, "u\u0000", at(0)), // PostgreSQL takes no NUL in text; SQLite finds none
      listActiveUserSessions(db, "u3", at(0)),
    ]);
    expect(reads.map((read) => read.status)).toEqual(
      coalesces ? ["fulfilled", "rejected", "fulfilled"] : ["fulfilled", "fulfilled", "fulfilled"],
    );
    const rows = reads.map((read) => (read.status === "fulfilled" ? read.value.map((row) => row.id) : null));
    expect(rows[0]).toEqual(["s2-2", "s2-1", "s2-0"]);
    expect(rows[2]).toEqual(["s3-0"]);
    // Afterwards the statement still coalesces.
    const four = () => Promise.all([1, 2, 3, 4].map((u) => listActiveUserSessions(db, `u${u}`, at(0))));
    expect(await roundTrips(four)).toBe(coalesces ? 1 : 4);
  });

  it("are refused once their database is closed, even if only the direct reads ever used it", async () => {
    const other = openDatabase(database.url);
    const read = async () => readRowsDirect(other.db, "select 1 as one", []);
    expect(await read()).toEqual([{ one: 1 }]);
    await other.close();
    await expect(read()).rejects.toThrow();
  });

  it.runIf(coalesces)("fail together, without a retry each, when the server cannot be reached", async () => {
    const unreachable = openDatabase("postgres://postgres@127.0.0.1:1/none"); // nothing listens on port 1
    try {
      const reads = await Promise.allSettled(
        [1, 2, 3, 4].map((u) => listActiveUserSessions(unreachable.db, `u${u}`, at(0))),
      );
      expect(reads.map((read) => read.status)).toEqual(["rejected", "rejected", "rejected", "rejected"]);
      expect(unreachable.queryCount()).toBe(1); // the one coalesced attempt
    } finally {
      await unreachable.close();
    }
  });

  it("keep a `$` inside a quoted literal as written: such a statement is never coalesced", async () => {
    const sqlText = coalesces
      ? `select '$1 and $2' as quoted, $1::text as bound`
      : `select '$1 and $2' as quoted, ? as bound`;
    let answers: unknown[][] = [];
    const taken = await roundTrips(async () => {
      answers = await Promise.all(["a", "b", "c"].map((value) => readRowsDirect(opened.db, sqlText, [value])!));
    });
    expect(answers).toEqual(["a", "b", "c"].map((bound) => [{ quoted: "$1 and $2", bound }]));
    expect(taken).toBe(3);
  });
});

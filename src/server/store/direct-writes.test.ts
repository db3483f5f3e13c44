import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendAuditEntry, type NewAuditEntry, verifyAuditChain } from "./audit-trail.js";
import { migrateToLatest, type OpenedDatabase, openDatabase } from "./database.js";
import { directWriterIn } from "./direct-writes.js";

const entry = (id: string): NewAuditEntry => ({
  id,
  createdAt: new Date("2026-11-27T12:00:00.000Z"),
  action: "user.updated",
  outcome: "success",
  actorType: "user",
  actorId: "u1",
  subjectId: "u1",
  organizationId: null,
  ipAddress: "127.0.0.1",
  userAgent: "test",
  requestId: null,
  details: null,
});

/** The SQLite append runs its statements straight on the connection, in the caller's transaction. */
describe("direct writes on SQLite", () => {
  let opened: OpenedDatabase;
  beforeAll(async () => {
    opened = openDatabase("sqlite::memory:");
    await migrateToLatest(opened.db, opened.dialect);
  });
  afterAll(() => opened.close());

  it("are offered only inside a transaction on that database", async () => {
    const { db } = opened;
    expect(directWriterIn(db, db)).toBeUndefined();
    await db.transaction().execute(async (trx) => {
      expect(directWriterIn(db, trx)).toBeDefined();
    });
  });

  it("commit and roll back with the transaction, are counted, and chain as through Kysely", async () => {
    const { db, dialect } = opened;
    const before = opened.queryCount();
    const first = await db.transaction().execute((trx) => appendAuditEntry(trx, dialect, entry("e1"), db));
    // Head read, insert, head update, besides BEGIN and COMMIT.
    expect(opened.queryCount() - before).toBe(5);
    const rolledBack = db.transaction().execute(async (trx) => {
      await appendAuditEntry(trx, dialect, entry("e2"), db);
      throw new Error("the change failed");
    });
    await expect(rolledBack).rejects.toThrow("the change failed");
    // Without the database, through Kysely: the same chain goes on from the committed head.
    const second = await db.transaction().execute((trx) => appendAuditEntry(trx, dialect, entry("e3")));
    expect(second.seq).toBe(first.seq + 1);
    const ids = await db.selectFrom("auditTrail").select("id").orderBy("seq").execute();
    expect(ids.map((row) => row.id)).toEqual(["e1", "e3"]);
    const check = await verifyAuditChain(db);
    expect(check.ok).toBe(true);
    expect(check.checked).toBe(2);
  });

  it("take dates and booleans as the statements through Kysely do", async () => {
    const { db } = opened;
    const at = new Date("2026-12-01T00:00:00.000Z");
    await db.transaction().execute(async (trx) => {
      directWriterIn(db, trx)?.run(
        `insert into "user" ("id", "name", "email", "emailVerified", "createdAt", "updatedAt") values (?, ?, ?, ?, ?, ?)`,
        ["u-direct", "Direct", "direct@example.com", true, at, at],
      );
    });
    const row = await db
      .selectFrom("user")
      .select(["emailVerified", "createdAt"])
      .where("id", "=", "u-direct")
      .executeTakeFirst();
    expect(row).toEqual({ emailVerified: 1, createdAt: at.toISOString() });
  });
});

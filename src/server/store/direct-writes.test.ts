import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NewAuditEntry, writeAuditEntry } from "../audit/entry.store.js";
import { sealAuditBatch, verifyAuditChain } from "../audit/trail.store.js";
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

  it("commit and roll back with the transaction, are counted, and seal as through Kysely", async () => {
    const { db, dialect } = opened;
    const before = opened.queryCount();
    await db.transaction().execute((trx) => writeAuditEntry(entry("e1"), { transaction: trx, dialect, db }));
    // The insert alone, besides BEGIN and COMMIT: no head is read or moved.
    expect(opened.queryCount() - before).toBe(3);
    const rolledBack = db.transaction().execute(async (trx) => {
      await writeAuditEntry(entry("e2"), { transaction: trx, dialect, db });
      throw new Error("the change failed");
    });
    await expect(rolledBack).rejects.toThrow("the change failed");
    // Without the database, through Kysely: the same row as straight on the connection.
    await db.transaction().execute((trx) => writeAuditEntry(entry("e3"), { transaction: trx, dialect }));
    const sealed = await db
      .transaction()
      .execute((trx) =>
        sealAuditBatch(trx, dialect, { sealerId: "s", nowMs: Date.now(), leaseMs: 1000, wait: true, limit: 10 }),
      );
    expect(sealed?.entries().map((e) => [e.id, e.seq])).toEqual([
      ["e1", 1],
      ["e3", 2],
    ]);
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

import { Readable } from "node:stream";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runCommand } from "../src/cli/run.js";
import { writeAuditEntry } from "../src/server/audit/entry.store.js";
import { AuditSealer } from "../src/server/audit/sealer.service.js";
import { sealAuditBatch, verifyAuditChain } from "../src/server/audit/trail.store.js";
import { refuseWrites } from "./helpers/faults.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/**
 * Issue 50: audit entries are inserted unsealed, with no lock shared by audited writes, and sealed
 * (numbered, hash-chained) after commit by one sealer at a time across instances.
 */
let server: TestServer;
/** PostgreSQL: a second instance on the same database, with a sealer of its own. */
let second: TestServer | null = null;

beforeAll(async () => {
  server = await startTestServer({
    options: { audit: { enabled: true }, metrics: { enabled: true } },
    shareable: true,
  });
});
afterAll(async () => {
  await second?.close();
  await server?.close();
});
afterEach(() => expect(server.loggedErrors).toEqual([]));

const db = () => server.auth.database.db;
const postgres = () => server.auth.database.dialect === "postgres";

async function unsealedIds(): Promise<string[]> {
  const rows = await db().selectFrom("auditTrail").select("id").where("seq", "is", null).execute();
  return rows.map((row) => row.id);
}

async function sealedRows() {
  const rows = await db().selectFrom("auditTrail").select(["id", "seq"]).where("seq", "is not", null).execute();
  return rows.map((row) => ({ id: row.id, seq: Number(row.seq) }));
}

/** SQLite: no sealer holds the lease (the server's own took it at its last seal), as when it stopped. */
async function leaseLapsed(): Promise<void> {
  await db().updateTable("auditChain").set({ sealerId: null, sealerUntil: null }).execute();
}

async function headSeq(): Promise<number> {
  const head = await db().selectFrom("auditChain").select("headSeq").executeTakeFirstOrThrow();
  return Number(head.headSeq);
}

/** Every sealed entry has one number, the numbers run from the anchor to the head without a gap. */
async function expectWholeChain(): Promise<void> {
  const rows = await sealedRows();
  const chain = await db().selectFrom("auditChain").selectAll().executeTakeFirstOrThrow();
  const numbers = rows.map((row) => row.seq).sort((a, b) => a - b);
  const from = Number(chain.anchorSeq) + 1;
  expect(numbers).toEqual(Array.from({ length: Number(chain.headSeq) - from + 1 }, (_, i) => from + i));
  expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
  expect(await verifyAuditChain(db())).toMatchObject({ ok: true, firstBad: null });
}

async function verifyCommand(): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCommand(["audit", "verify"], {
    env: { DATABASE_URL: server.databaseUrl },
    stdin: Object.assign(Readable.from([]), { isTTY: false }),
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

async function scrape(name: string): Promise<number> {
  const text = await (await fetch(`${server.origin}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return Number(line?.split(" ")[1]);
}

describe("an audited write", () => {
  it("commits its entry unsealed, and the sealer numbers and chains it", async () => {
    await server.sealAudit();
    const user = await signUp(server);
    expect((await user.browser.post("/update-user", { name: "Unsealed" })).status).toBe(200);
    const waiting = await db().selectFrom("auditTrail").selectAll().where("seq", "is", null).execute();
    expect(waiting.map((row) => [row.action, row.hash])).toEqual([
      ["user.sign_up", null],
      ["user.updated", null],
    ]);
    const head = await headSeq();
    expect(await server.sealAudit()).toBe(2);
    expect(await unsealedIds()).toEqual([]);
    expect(await headSeq()).toBe(head + 2);
    await expectWholeChain();
  });

  it.skipIf(process.env.TEST_DIALECT !== "postgres")(
    "does not wait for a sealer holding the chain's head (PostgreSQL)",
    async () => {
      const user = await signUp(server);
      await server.sealAudit();
      await db()
        .transaction()
        .execute(async (trx) => {
          // Another instance's batch in flight: the head row locked until it commits.
          await sql`select "headSeq" from "auditChain" where "id" = 1 for update`.execute(trx);
          const rename = user.browser.post("/update-user", { name: "While sealing" });
          const outcome = await Promise.race([
            rename.then((answer) => answer.status),
            new Promise((resolve) => setTimeout(() => resolve("waited on the head"), 3000)),
          ]);
          expect(outcome).toBe(200);
          // A sealer that does not wait leaves the work to the one holding the head.
          expect(await server.auth.auditSealer?.sealNow({ wait: false })).toBe(0);
        });
      expect(await server.sealAudit()).toBe(1);
      await expectWholeChain();
    },
  );
});

describe("sealing", () => {
  it("two sealers racing seal each entry once, while writes go on", async () => {
    // PostgreSQL: a second instance with its own pool. SQLite: one writer per database, so a second
    // sealer on the same database (its own lease id).
    let other: { sealNow(options?: { wait?: boolean }): Promise<number>; stop?(): Promise<void> };
    if (postgres()) {
      second = await startTestServer({ shareDatabaseWith: server, options: { audit: { enabled: true } } });
      other = second.auth.auditSealer!;
    } else {
      other = new AuditSealer(server.auth.context, { intervalMs: 0 });
    }
    const mine = server.auth.auditSealer!;
    await mine.sealNow();
    const before = await sealedRows();
    const users = await Promise.all(Array.from({ length: 4 }, () => signUp(server)));
    let writing = true;
    const sealedCounts: number[] = [];
    const race = async (sealer: typeof other, wait: boolean) => {
      while (writing) {
        sealedCounts.push(await sealer.sealNow({ wait }));
        // SQLite answers without I/O: let the requests in between.
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const racers = [race(mine, false), race(other, false), race(mine, true), race(other, true)];
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => users[i % users.length]!.browser.post("/update-user", { name: `R${i}` })),
    );
    writing = false;
    await Promise.all(racers);
    sealedCounts.push(await other.sealNow(), await mine.sealNow());
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(await unsealedIds()).toEqual([]);
    const after = await sealedRows();
    // 4 sign-ups and 60 renames, each sealed by exactly one of the calls.
    expect(after.length - before.length).toBe(64);
    expect(sealedCounts.reduce((a, b) => a + b, 0)).toBe(64);
    await expectWholeChain();
    await other.stop?.();
  });

  it("SQLite: a sealer leaves the work to the one holding the lease until it stops", async () => {
    if (postgres()) return;
    const holder = new AuditSealer(server.auth.context, { intervalMs: 0 });
    const waiting = new AuditSealer(server.auth.context, { intervalMs: 0 });
    await leaseLapsed();
    await signUp(server);
    expect(await holder.sealNow({ wait: false })).toBe(1);
    await signUp(server);
    expect(await waiting.sealNow({ wait: false })).toBe(0);
    await holder.stop();
    expect(await waiting.sealNow({ wait: false })).toBe(1);
    await waiting.stop();
    await expectWholeChain();
  });

  it("SQLite: with the head's row deleted, entries after it are still sealed (the check reports the deletion)", async () => {
    if (postgres()) return;
    const own = await startTestServer({
      options: { audit: { enabled: true } },
      extra: { auditSealer: { intervalMs: 0 } },
    });
    try {
      await signUp(own);
      await own.sealAudit();
      const { db: ownDb } = own.auth.database;
      const head = await ownDb.selectFrom("auditChain").select("headSeq").executeTakeFirstOrThrow();
      await ownDb.deleteFrom("auditTrail").where("seq", "=", Number(head.headSeq)).execute();
      await signUp(own);
      const waiting = await ownDb.selectFrom("auditTrail").select("id").where("seq", "is", null).execute();
      expect(waiting.length).toBeGreaterThan(0);
      expect(await own.sealAudit()).toBe(waiting.length);
      expect(await ownDb.selectFrom("auditTrail").select("id").where("seq", "is", null).execute()).toEqual([]);
      expect((await verifyAuditChain(ownDb)).ok).toBe(false);
    } finally {
      await own.close();
    }
  });

  it("SQLite: rows renumbered in order (a table rebuilt, a VACUUM) are still sealed each once", async () => {
    if (postgres()) return;
    await server.sealAudit();
    await signUp(server);
    await signUp(server);
    // Every rowid moves, order kept, as a rebuild copying the table in rowid order does: the sealer
    // finds the head's row by its number each time, so nothing it remembered points past the tail.
    const before = await sql<{ last: number }>`select max(rowid) as "last" from "auditTrail"`.execute(db());
    await sql`update "auditTrail" set rowid = rowid - 1000000`.execute(db());
    const after = await sql<{ last: number }>`select max(rowid) as "last" from "auditTrail"`.execute(db());
    expect(after.rows[0]?.last).toBe((before.rows[0]?.last ?? 0) - 1000000);
    await signUp(server);
    const waiting = (await unsealedIds()).length;
    expect(waiting).toBeGreaterThanOrEqual(3);
    expect(await server.sealAudit()).toBe(waiting);
    expect(await unsealedIds()).toEqual([]);
    await expectWholeChain();
  });

  it("an entry committed while a batch is sealing is sealed by the next", async () => {
    await server.sealAudit();
    const user = await signUp(server);
    await server.sealAudit();
    const { dialect } = server.auth.database;
    const lastSealed = await db()
      .selectFrom("auditTrail")
      .select(["createdAt"])
      .orderBy("seq", "desc")
      .executeTakeFirstOrThrow();
    // Written (its time taken) before the newest sealed entry, committed after it was sealed: its
    // number is the sealer's order, not its time.
    const late = `late-${Date.now()}`;
    await db()
      .transaction()
      .execute((trx) =>
        writeAuditEntry(
          {
            id: late,
            createdAt: new Date(new Date(lastSealed.createdAt).getTime() - 60_000),
            action: "user.updated",
            outcome: "success",
            actorType: "system",
            actorId: null,
            subjectId: user.user.id,
            organizationId: null,
            ipAddress: null,
            userAgent: null,
            requestId: null,
            details: null,
          },
          { transaction: trx, dialect },
        ),
      );
    const head = await headSeq();
    await server.sealAudit();
    const row = await db().selectFrom("auditTrail").select("seq").where("id", "=", late).executeTakeFirstOrThrow();
    expect(Number(row.seq)).toBe(head + 1);
    await expectWholeChain();

    if (!postgres()) return;
    // PostgreSQL: a rename commits while a batch is open; the batch does not see it, the next seals it.
    let duringBatch: string[] = [];
    await db()
      .transaction()
      .execute(async (trx) => {
        const sealed = await sealAuditBatch(trx, "postgres", {
          sealerId: "test",
          nowMs: Date.now(),
          leaseMs: 1000,
          wait: true,
          limit: 100,
        });
        expect(sealed?.count).toBe(0);
        expect((await user.browser.post("/update-user", { name: "During a batch" })).status).toBe(200);
        duringBatch = await unsealedIds();
      });
    expect(duringBatch).toHaveLength(1);
    expect(await unsealedIds()).toEqual(duringBatch);
    expect(await server.sealAudit()).toBe(1);
    await expectWholeChain();
  });

  it("a sealer stopped halfway through a batch leaves it whole for the next, without gaps or duplicates", async () => {
    await server.sealAudit();
    const users = await Promise.all(Array.from({ length: 3 }, () => signUp(server)));
    for (const user of users) expect((await user.browser.post("/update-user", { name: "Halfway" })).status).toBe(200);
    // In the order the sealer takes them: PostgreSQL's by time, then id; SQLite's by rowid (insert order).
    const unsealed = db().selectFrom("auditTrail").select("id").where("seq", "is", null);
    const waiting = await (postgres()
      ? unsealed.orderBy("createdAt").orderBy("id")
      : unsealed.orderBy(sql`rowid`)
    ).execute();
    expect(waiting).toHaveLength(6);
    const head = await headSeq();
    // The database refuses the fourth entry's numbering: the batch dies after sealing three.
    const undo = await refuseWrites(server, {
      table: "auditTrail",
      op: "UPDATE",
      column: "id",
      equals: waiting[3]!.id,
    });
    try {
      await expect(server.sealAudit()).rejects.toThrow();
    } finally {
      await undo();
    }
    expect(await headSeq()).toBe(head);
    expect((await unsealedIds()).sort()).toEqual(waiting.map((row) => row.id).sort());
    expect(await server.sealAudit()).toBe(6);
    const sealed = await db()
      .selectFrom("auditTrail")
      .select(["id", "seq"])
      .where(
        "id",
        "in",
        waiting.map((row) => row.id),
      )
      .orderBy("seq")
      .execute();
    expect(sealed.map((row) => row.id)).toEqual(waiting.map((row) => row.id));
    expect(sealed.map((row) => Number(row.seq))).toEqual([1, 2, 3, 4, 5, 6].map((n) => head + n));
    await expectWholeChain();
  });

  it("seals on its own timer when the server runs", async () => {
    const timed = await startTestServer({
      shareDatabaseWith: server,
      options: { audit: { enabled: true } },
      extra: { auditSealer: { intervalMs: 50 } },
    });
    try {
      await leaseLapsed();
      await signUp(server);
      const deadline = Date.now() + 2000;
      while ((await unsealedIds()).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      expect(await unsealedIds()).toEqual([]);
      await expectWholeChain();
    } finally {
      await timed.close();
    }
    expect(timed.loggedErrors).toEqual([]);
  });
});

describe("verification", () => {
  it("catches an edited, a deleted and an unnumbered sealed entry; an unsealed one is not covered yet", async () => {
    await signUp(server);
    await signUp(server);
    await server.sealAudit();
    const [victim] = await db()
      .selectFrom("auditTrail")
      .selectAll()
      .orderBy("seq", "desc")
      .limit(1)
      .offset(1)
      .execute();
    const seq = Number(victim!.seq);
    await db().updateTable("auditTrail").set({ userAgent: "edited" }).where("id", "=", victim!.id).execute();
    expect((await verifyAuditChain(db())).firstBad).toEqual({ seq, id: victim!.id, reason: "edited" });
    await db().updateTable("auditTrail").set({ userAgent: victim!.userAgent }).where("id", "=", victim!.id).execute();
    // Its number taken away, to pass it off as unsealed and edit it: a gap.
    await db().updateTable("auditTrail").set({ seq: null, hash: null }).where("id", "=", victim!.id).execute();
    expect((await verifyAuditChain(db())).firstBad).toEqual({ seq, id: null, reason: "missing" });
    await db().deleteFrom("auditTrail").where("id", "=", victim!.id).execute();
    expect((await verifyAuditChain(db())).firstBad).toEqual({ seq, id: null, reason: "missing" });
    await db()
      .insertInto("auditTrail")
      .values({ ...victim!, seq, createdAt: new Date(victim!.createdAt) })
      .execute();
    await expectWholeChain();
    // The documented trade-off: an entry deleted before it is sealed leaves no trace in the chain.
    await signUp(server);
    const [unsealed] = await unsealedIds();
    await db().deleteFrom("auditTrail").where("id", "=", unsealed!).execute();
    await server.sealAudit();
    await expectWholeChain();
  });

  it("reports the unsealed tail, and alerts once an entry waits longer than audit.sealWithinSeconds", async () => {
    await server.sealAudit();
    expect(await verifyCommand()).toMatchObject({ code: 0, out: expect.stringContaining("none unsealed") });
    expect(await scrape("gatehouse_audit_unsealed_oldest_seconds")).toBe(0);
    expect(await scrape("gatehouse_audit_unsealed_entries")).toBe(0);

    await signUp(server);
    const fresh = await verifyCommand();
    expect(fresh).toMatchObject({ code: 0, out: expect.stringMatching(/1 unsealed, the oldest written \d/) });
    expect(await scrape("gatehouse_audit_unsealed_entries")).toBe(1);
    expect(await scrape("gatehouse_audit_unsealed_oldest_seconds")).toBeLessThan(10);

    // No instance sealed it for two minutes.
    const [id] = await unsealedIds();
    await db()
      .updateTable("auditTrail")
      .set({ createdAt: new Date(Date.now() - 120_000) })
      .where("id", "=", id!)
      .execute();
    expect(await scrape("gatehouse_audit_unsealed_oldest_seconds")).toBeGreaterThanOrEqual(119);
    const overdue = await verifyCommand();
    expect(overdue.code).toBe(2);
    expect(overdue.out).toContain("audit chain intact");
    expect(overdue.err).toContain("UNSEALED longer than 10 s");

    await server.sealAudit();
    expect(await scrape("gatehouse_audit_unsealed_oldest_seconds")).toBe(0);
    expect((await verifyCommand()).code).toBe(0);
  });

  it("GET /admin/verify-audit-trail says the same to an admin, and refuses anyone else", async () => {
    const admin = await signUp(server);
    await db().updateTable("user").set({ role: "admin" }).where("id", "=", admin.user.id).execute();
    const someone = await signUp(server);
    expect((await someone.browser.get("/admin/verify-audit-trail")).status).toBe(403);

    await server.sealAudit();
    await signUp(server);
    const fresh = await admin.browser.get("/admin/verify-audit-trail");
    expect(fresh.status).toBe(200);
    expect(fresh.body).toMatchObject({ ok: true, firstBad: null, unsealed: { count: 1, overdue: false } });
    expect(fresh.body.headHash).toMatch(/^[0-9a-f]{64}$/);

    const [id] = await unsealedIds();
    await db()
      .updateTable("auditTrail")
      .set({ createdAt: new Date(server.clock.now().getTime() - 60_000) })
      .where("id", "=", id!)
      .execute();
    const overdue = await admin.browser.get("/admin/verify-audit-trail");
    expect(overdue.body).toMatchObject({ ok: true, unsealed: { count: 1, overdue: true } });
    expect(overdue.body.unsealed.oldestAgeSeconds).toBeGreaterThanOrEqual(60);

    await server.sealAudit();
    const [last] = await db().selectFrom("auditTrail").selectAll().orderBy("seq", "desc").limit(1).execute();
    await db().updateTable("auditTrail").set({ action: "user.sign_in" }).where("id", "=", last!.id).execute();
    const broken = await admin.browser.get("/admin/verify-audit-trail");
    expect(broken.body).toMatchObject({ ok: false, firstBad: { seq: Number(last!.seq), reason: "edited" } });
    await db().updateTable("auditTrail").set({ action: last!.action }).where("id", "=", last!.id).execute();
    await expectWholeChain();
  });
});

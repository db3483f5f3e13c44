import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { verifyAuditChain } from "../src/server/store/audit-trail.js";
import { createOrganization, joinAs } from "./helpers/organization.js";
import { EVERY_FEATURE_ON, signUp, startTestServer, type TestServer } from "./helpers/server.js";

/** Issue 34, items 1 and 2: the hash-chained security audit trail and its readers. */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ options: { ...EVERY_FEATURE_ON, audit: { enabled: true } } });
});
afterAll(() => server.close());
afterEach(() => expect(server.loggedErrors).toEqual([]));

const db = () => server.auth.database.db;

/** The entries of one request, by its id, or every entry since `seq`. */
async function entriesAfter(seq: number) {
  const rows = await db().selectFrom("auditTrail").selectAll().where("seq", ">", seq).orderBy("seq").execute();
  return rows.map((row) => ({ ...row, seq: Number(row.seq), details: row.details ? JSON.parse(row.details) : null }));
}

async function headSeq(): Promise<number> {
  const head = await db().selectFrom("auditChain").select("headSeq").executeTakeFirstOrThrow();
  return Number(head.headSeq);
}

/** What `act` added to the trail. */
async function added(act: () => Promise<unknown>) {
  const before = await headSeq();
  await act();
  return entriesAfter(before);
}

describe("account events appear once, with who, what, whence and how it ended", () => {
  it("sign-up, sign-in, a refused sign-in and sign-out", async () => {
    const email = `audit-${Math.random().toString(36).slice(2)}@example.com`;
    let account!: Awaited<ReturnType<typeof signUp>>;
    const signUpEntries = await added(async () => {
      account = await signUp(server, { email });
    });
    expect(signUpEntries).toHaveLength(1);
    expect(signUpEntries[0]).toMatchObject({
      action: "user.sign_up",
      outcome: "success",
      actorType: "user",
      actorId: account.user.id,
      subjectId: account.user.id,
      ipAddress: "127.0.0.1",
      details: { method: "email" },
    });
    expect(signUpEntries[0]?.requestId).toMatch(/^[0-9a-f]{12}$/);

    const browser = server.browser();
    const signIn = await added(() => browser.post("/sign-in/email", { email, password: account.password }));
    expect(signIn).toMatchObject([
      { action: "user.sign_in", outcome: "success", actorId: account.user.id, subjectId: account.user.id },
    ]);

    const sessionsBefore = await db().selectFrom("session").select("id").execute();
    const refused = await added(async () => {
      const answer = await server.browser().post("/sign-in/email", { email, password: "wrong password here" });
      expect(answer.status).toBe(401);
    });
    expect(refused).toMatchObject([
      {
        action: "user.sign_in",
        outcome: "failure",
        actorId: null,
        subjectId: null,
        details: { method: "email", code: "INVALID_EMAIL_OR_PASSWORD", email },
      },
    ]);
    // The refusal changed nothing else.
    expect(await db().selectFrom("session").select("id").execute()).toEqual(sessionsBefore);

    const signOut = await added(() => browser.post("/sign-out", {}));
    expect(signOut).toMatchObject([{ action: "user.sign_out", outcome: "success", actorId: account.user.id }]);
  });
});

describe("organization events carry the organization", () => {
  it("create, invite, re-role, remove", async () => {
    let created!: Awaited<ReturnType<typeof createOrganization>>;
    const createEntries = await added(async () => {
      created = await createOrganization(server);
    });
    expect(createEntries.filter((e) => e.action === "organization.created")).toMatchObject([
      { outcome: "success", actorId: created.owner.user.id, organizationId: created.organizationId },
    ]);
    const member = await joinAs(server, created.organizationId, "member");
    const reRole = await added(() =>
      created.owner.browser.post("/organization/update-member-role", {
        memberId: member.memberId,
        role: "admin",
        organizationId: created.organizationId,
      }),
    );
    expect(reRole).toMatchObject([
      {
        action: "organization.member_role_updated",
        outcome: "success",
        actorId: created.owner.user.id,
        subjectId: member.user.id,
        organizationId: created.organizationId,
      },
    ]);
  });
});

describe("the chain", () => {
  it("verifies, and names the first edited or deleted entry", async () => {
    await signUp(server);
    await signUp(server);
    const clean = await verifyAuditChain(db());
    expect(clean).toMatchObject({ ok: true, firstBad: null });
    expect(clean.checked).toBeGreaterThan(2);

    const rows = await entriesAfter(0);
    const victim = rows[1]!;
    await db().updateTable("auditTrail").set({ outcome: "failure" }).where("seq", "=", victim.seq).execute();
    expect((await verifyAuditChain(db())).firstBad).toEqual({ seq: victim.seq, id: victim.id, reason: "edited" });
    await db().updateTable("auditTrail").set({ outcome: victim.outcome }).where("seq", "=", victim.seq).execute();
    expect((await verifyAuditChain(db())).ok).toBe(true);

    const original = await db()
      .selectFrom("auditTrail")
      .selectAll()
      .where("seq", "=", victim.seq)
      .executeTakeFirstOrThrow();
    await db().deleteFrom("auditTrail").where("seq", "=", victim.seq).execute();
    expect((await verifyAuditChain(db())).firstBad).toEqual({ seq: victim.seq, id: null, reason: "missing" });
    await db()
      .insertInto("auditTrail")
      .values({ ...original, seq: Number(original.seq), createdAt: new Date(original.createdAt) })
      .execute();
    expect((await verifyAuditChain(db())).ok).toBe(true);
  });
});

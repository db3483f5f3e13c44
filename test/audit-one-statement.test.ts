import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { verifyAuditChain } from "../src/server/audit/trail.store.js";
import type { TestBrowser } from "./helpers/browser.js";
import { createOrganization } from "./helpers/organization.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/**
 * Issue 34: on PostgreSQL an audited change of one statement (a rename, revoking a session, an
 * organization's update) carries its entry in that statement instead of a transaction around both,
 * so auditing adds no round trip. The entry must still be exactly the one a transaction would have
 * written, only when the change changed a row, and chained as every other.
 */
let on: TestServer;
let off: TestServer;
let hooked: TestServer;
const refusedNames = new Set<string>();

beforeAll(async () => {
  const organization = { enabled: true };
  [on, off, hooked] = await Promise.all([
    startTestServer({ options: { audit: { enabled: true }, organization } }),
    startTestServer({ options: { audit: { enabled: false }, organization } }),
    startTestServer({
      options: { audit: { enabled: true } },
      extra: {
        databaseHooks: {
          user: {
            update: {
              before: (patch: { name?: string }) => (patch.name && refusedNames.has(patch.name) ? false : undefined),
            },
          },
        },
      },
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([on.close(), off.close(), hooked.close()]);
});
afterEach(() => {
  expect(on.loggedErrors).toEqual([]);
  expect(off.loggedErrors).toEqual([]);
  expect(hooked.loggedErrors).toEqual([]);
});

const postgres = () => on.auth.context.dialect === "postgres";

/** The sealed chain's head, once what was committed is sealed. */
async function headSeq(server: TestServer): Promise<number> {
  await server.sealAudit();
  const head = await server.auth.database.db.selectFrom("auditChain").select("headSeq").executeTakeFirstOrThrow();
  return Number(head.headSeq);
}

async function entriesAfter(server: TestServer, seq: number) {
  await server.sealAudit();
  return server.auth.database.db
    .selectFrom("auditTrail")
    .select(["action", "outcome", "actorType", "actorId", "subjectId", "organizationId", "details"])
    .where("seq", ">", seq)
    .orderBy("seq")
    .execute();
}

async function nameOf(server: TestServer, userId: string): Promise<string | undefined> {
  const row = await server.auth.database.db
    .selectFrom("user")
    .select("name")
    .where("id", "=", userId)
    .executeTakeFirst();
  return row?.name;
}

/** Round trips of one request. */
async function roundTrips(server: TestServer, request: () => Promise<{ status: number }>): Promise<number> {
  const before = server.queryCount();
  const response = await request();
  expect(response.status).toBe(200);
  return server.queryCount() - before;
}

describe("an audited change of one statement", () => {
  it("renames with one entry: on PostgreSQL no statement more than without the trail, on SQLite one", async () => {
    const [a, b] = await Promise.all([signUp(on), signUp(off)]);
    const seq = await headSeq(on);
    const audited = await roundTrips(on, () => a.browser.post("/update-user", { name: "Renamed A" }));
    const plain = await roundTrips(off, () => b.browser.post("/update-user", { name: "Renamed B" }));
    // SQLite inserts the entry beside the change, in one transaction on the held connection, not
    // through Kysely's transaction (whose BEGIN and COMMIT would count).
    expect(audited).toBe(postgres() ? plain : plain + 1);
    expect(await entriesAfter(on, seq)).toEqual([
      {
        action: "user.updated",
        outcome: "success",
        actorType: "user",
        actorId: a.user.id,
        subjectId: a.user.id,
        organizationId: null,
        details: null,
      },
    ]);
    expect(await nameOf(on, a.user.id)).toBe("Renamed A");
    expect((await verifyAuditChain(on.auth.database.db)).ok).toBe(true);
  });

  it("revokes a session and updates an organization with the entry each names", async () => {
    const owner = await signUp(on, { name: "Owner" });
    const { organization } = await createOrganization(on, { owner });
    const second = on.browser();
    expect((await second.post("/sign-in/email", { email: owner.email, password: owner.password })).status).toBe(200);
    const sessions = await owner.browser.get("/list-sessions");
    const other = sessions.body.find((session: { current: boolean }) => !session.current);

    let seq = await headSeq(on);
    expect((await owner.browser.post("/revoke-session", { token: other.id })).status).toBe(200);
    expect(await entriesAfter(on, seq)).toMatchObject([
      { action: "session.revoked", outcome: "success", actorId: owner.user.id, subjectId: owner.user.id },
    ]);
    expect((await second.get("/get-session")).body).toBeNull();

    seq = await headSeq(on);
    const updated = await owner.browser.post("/organization/update", {
      organizationId: organization.id,
      data: { name: "Renamed Org" },
    });
    expect(updated.status).toBe(200);
    expect(await entriesAfter(on, seq)).toMatchObject([
      { action: "organization.updated", outcome: "success", actorId: owner.user.id, organizationId: organization.id },
    ]);
    expect((await verifyAuditChain(on.auth.database.db)).ok).toBe(true);

    // Nothing to set: the change only reads, and its entry goes on its own (no error logged).
    seq = await headSeq(on);
    const empty = await owner.browser.post("/organization/update", { organizationId: organization.id, data: {} });
    expect(empty.status).toBe(200);
    expect(await entriesAfter(on, seq)).toMatchObject([
      { action: "organization.updated", outcome: "success", organizationId: organization.id },
    ]);
  });

  it("writes no success entry from a change that touched no row, and keeps the chain whole", async () => {
    const user = await signUp(on);
    const seq = await headSeq(on);
    const response = await user.browser.post("/revoke-session", { token: "no-such-session" });
    const entries = await entriesAfter(on, seq);
    // One entry for the request, written after it (nothing changed), not by the statement.
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: "session.revoked", subjectId: user.user.id });
    if (response.status === 200) expect(JSON.parse(entries[0]?.details ?? "{}")).toMatchObject({ unchanged: true });
    else expect(entries[0]?.outcome).toBe("failure");
    expect((await verifyAuditChain(on.auth.database.db)).ok).toBe(true);
  });

  it("keeps the chain whole under 150 renames at once", async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => signUp(on)));
    const seq = await headSeq(on);
    const answers = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        users[i % users.length]!.browser.post("/update-user", { name: `Name ${i}` }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const entries = await entriesAfter(on, seq);
    expect(entries).toHaveLength(150);
    expect(new Set(entries.map((entry) => entry.action))).toEqual(new Set(["user.updated"]));
    const check = await verifyAuditChain(on.auth.database.db);
    expect(check.ok).toBe(true);
    expect(check.headSeq).toBe(seq + 150);
  });
});

describe("an audited change of one statement with a database hook", () => {
  let user: { browser: TestBrowser; user: { id: string } };
  beforeAll(async () => {
    user = await signUp(hooked);
  });

  it("writes the entry with the change when the hook lets it through", async () => {
    const seq = await headSeq(hooked);
    expect((await user.browser.post("/update-user", { name: "Allowed" })).status).toBe(200);
    expect(await entriesAfter(hooked, seq)).toMatchObject([
      { action: "user.updated", outcome: "success", subjectId: user.user.id },
    ]);
  });

  it("writes only the failure when the hook refuses, and changes nothing", async () => {
    refusedNames.add("Refused");
    const seq = await headSeq(hooked);
    expect((await user.browser.post("/update-user", { name: "Refused" })).status).toBe(403);
    expect(await entriesAfter(hooked, seq)).toMatchObject([{ action: "user.updated", outcome: "failure" }]);
    expect(await nameOf(hooked, user.user.id)).toBe("Allowed");
    expect((await verifyAuditChain(hooked.auth.database.db)).ok).toBe(true);
  });
});

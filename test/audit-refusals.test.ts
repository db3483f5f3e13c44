import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/**
 * Issue 34: a request the rate limiter or the origin check refuses is audited as a failure, once,
 * and changes nothing else; a flood of them leaves one entry per client, endpoint and code a window.
 */
let server: TestServer;
const REFUSAL_WINDOW = 30;

beforeAll(async () => {
  server = await startTestServer({
    options: {
      audit: { enabled: true, refusalWindowSeconds: REFUSAL_WINDOW },
      rateLimit: {
        enabled: true,
        customRules: {
          "/sign-in/email": { window: 120, max: 2 },
          "/get-session": { window: 120, max: 2 },
        },
      },
    },
  });
});
afterAll(() => server.close());
afterEach(() => expect(server.loggedErrors).toEqual([]));

const db = () => server.auth.database.db;

async function headSeq(): Promise<number> {
  await server.sealAudit();
  const head = await db().selectFrom("auditChain").select("headSeq").executeTakeFirstOrThrow();
  return Number(head.headSeq);
}

async function entriesAfter(seq: number) {
  await server.sealAudit();
  const rows = await db()
    .selectFrom("auditTrail")
    .select(["action", "outcome", "actorId", "ipAddress", "details"])
    .where("seq", ">", seq)
    .orderBy("seq")
    .execute();
  return rows.map((row) => ({ ...row, details: row.details ? JSON.parse(row.details) : null }));
}

describe("rate-limited requests", () => {
  it("a flood of refused sign-ins leaves one failure entry a window and no session", async () => {
    const account = await signUp(server);
    const sessionsBefore = await db().selectFrom("session").select("id").execute();
    const before = await headSeq();
    const attempt = () => server.browser().post("/sign-in/email", { email: account.email, password: "wrong guess 1" });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await attempt()).status);
    expect(statuses.slice(0, 2)).toEqual([401, 401]);
    expect(statuses.slice(2)).toEqual(Array(10).fill(429));
    const flood = await entriesAfter(before);
    expect(flood.map((entry) => entry.details.code)).toEqual([
      "INVALID_EMAIL_OR_PASSWORD",
      "INVALID_EMAIL_OR_PASSWORD",
      "TOO_MANY_REQUESTS",
    ]);
    expect(flood[2]).toMatchObject({
      action: "user.sign_in",
      outcome: "failure",
      actorId: null,
      ipAddress: "127.0.0.1",
      details: { method: "email", code: "TOO_MANY_REQUESTS" },
    });
    // The refusals changed nothing else.
    expect(await db().selectFrom("session").select("id").execute()).toEqual(sessionsBefore);

    // Still limited a refusal window later: the next refusal is recorded once more, then not again.
    server.clock.advance(REFUSAL_WINDOW + 1);
    const later = await headSeq();
    for (let i = 0; i < 5; i++) expect((await attempt()).status).toBe(429);
    expect((await entriesAfter(later)).map((entry) => entry.details.code)).toEqual(["TOO_MANY_REQUESTS"]);
    server.clock.advance(120);
  });

  it("an endpoint the trail does not audit records its refusals as request.refused, bounded alike", async () => {
    const before = await headSeq();
    const browser = server.browser();
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await browser.get("/get-session")).status);
    expect(statuses).toEqual([200, 200, ...Array(6).fill(429)]);
    expect(await entriesAfter(before)).toMatchObject([
      {
        action: "request.refused",
        outcome: "failure",
        ipAddress: "127.0.0.1",
        details: { code: "TOO_MANY_REQUESTS", method: "GET", path: "/get-session" },
      },
    ]);
    server.clock.advance(120);
  });
});

describe("origin refusals", () => {
  it("a cross-origin change is refused, audited once a window, and changes nothing", async () => {
    const account = await signUp(server, { name: "Before" });
    const before = await headSeq();
    for (let i = 0; i < 5; i++) {
      const answer = await account.browser.post(
        "/update-user",
        { name: "Forged" },
        { headers: { origin: "https://evil.example" } },
      );
      expect(answer.status).toBe(403);
    }
    expect(await entriesAfter(before)).toMatchObject([
      {
        action: "user.updated",
        outcome: "failure",
        actorId: null,
        details: { code: "INVALID_ORIGIN" },
      },
    ]);
    const user = await db().selectFrom("user").select("name").where("id", "=", account.user.id).executeTakeFirst();
    expect(user?.name).toBe("Before");
    // The same request from the app's own origin goes through, and is audited as usual.
    const allowed = await headSeq();
    expect((await account.browser.post("/update-user", { name: "After" })).status).toBe(200);
    expect(await entriesAfter(allowed)).toMatchObject([{ action: "user.updated", outcome: "success" }]);
  });

  it("a cross-origin request to an endpoint the trail does not audit is recorded as request.refused", async () => {
    const account = await signUp(server);
    const before = await headSeq();
    for (let i = 0; i < 3; i++) {
      const answer = await account.browser.post(
        "/send-verification-email",
        { email: account.email },
        { headers: { origin: "https://evil.example" } },
      );
      expect(answer.status).toBe(403);
    }
    expect(await entriesAfter(before)).toMatchObject([
      {
        action: "request.refused",
        outcome: "failure",
        details: { code: "INVALID_ORIGIN", method: "POST", path: "/send-verification-email" },
      },
    ]);
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { hmacSha256 } from "../src/server/crypto/digest.js";
import { unsignValue } from "../src/server/crypto/signed-value.js";
import type { TestBrowser } from "./helpers/browser.js";
import { signUp, startTestServer, TEST_SECRET, type TestServer } from "./helpers/server.js";

// An attacker who copied a victim's cookies (session and cookie cache) keeps the copy; whatever ends
// the victim's session must end the copy too, at once, although the cache alone could still answer.

let server: TestServer;
let admin: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  server = await startTestServer({
    options: {
      session: { cookieCache: { enabled: true, maxAge: 300 } },
      jwt: { enabled: true },
      user: { deleteUser: { enabled: true } },
    },
  });
  admin = await signUp(server);
  await server.auth.database.db.updateTable("user").set({ role: "admin" }).where("id", "=", admin.user.id).execute();
});
afterAll(() => server.close());
afterEach(() => expect(server.loggedErrors).toEqual([]));

/** A victim signed in twice (two devices), and an attacker's copy of the first device's cookies. */
async function victim() {
  const account = await signUp(server);
  const second = server.browser();
  expect((await second.post("/sign-in/email", { email: account.email, password: account.password })).status).toBe(200);
  const copy = account.browser.copyTo();
  // The copy answers from its cache, without the database, before anything happens.
  const before = server.queryCount();
  expect((await copy.get("/get-session")).body.user.id).toBe(account.user.id);
  expect(server.queryCount()).toBe(before);
  return { ...account, second, copy };
}

const revocations: [string, (v: Awaited<ReturnType<typeof victim>>) => Promise<{ status: number }>][] = [
  ["sign-out", (v) => v.browser.post("/sign-out", {})],
  ["revoke-sessions", (v) => v.browser.post("/revoke-sessions", {})],
  ["revoke-other-sessions from another device", (v) => v.second.post("/revoke-other-sessions", {})],
  [
    "revoke-session by handle from another device",
    async (v) => {
      const listed = await v.second.get("/list-sessions");
      const first = listed.body.find((s: any) => !s.current);
      return v.second.post("/revoke-session", { token: first.token });
    },
  ],
  [
    "change-password with revokeOtherSessions",
    (v) =>
      v.second.post("/change-password", {
        currentPassword: v.password,
        newPassword: "a brand new password",
        revokeOtherSessions: true,
      }),
  ],
  ["delete-user", (v) => v.second.post("/delete-user", { password: v.password })],
  ["an admin's ban", (v) => admin.browser.post("/admin/ban-user", { userId: v.user.id })],
  ["an admin's revoke-user-sessions", (v) => admin.browser.post("/admin/revoke-user-sessions", { userId: v.user.id })],
  [
    "an admin's set-user-password",
    (v) => admin.browser.post("/admin/set-user-password", { userId: v.user.id, newPassword: "set by the admin" }),
  ],
  ["an admin's remove-user", (v) => admin.browser.post("/admin/remove-user", { userId: v.user.id })],
];

describe("a copied cookie cache after the session ends", () => {
  it.each(revocations)("is refused at once after %s", async (_name, revoke) => {
    const v = await victim();
    expect((await revoke(v)).status).toBe(200);
    const res = await v.copy.get("/get-session");
    expect(res.body).toBeNull();
    // ... and the copy is told to forget its cookies.
    expect(v.copy.cookie("gatehouse.session_data")).toBeUndefined();
  });

  it("cannot be kept alive by routes that re-send the cookie, nor turned into a JWT", async () => {
    const v = await victim();
    await v.second.post("/revoke-other-sessions", {});
    for (const [method, path, body] of [
      ["POST", "/update-user", { name: "Still here" }],
      ["POST", "/organization/set-active", { organizationId: null }],
      ["GET", "/token", undefined],
      ["GET", "/list-sessions", undefined],
    ] as const) {
      const res = await v.copy.request(path, { method, body });
      expect([path, res.status]).toEqual([path, 401]);
      expect(res.setCookies.filter((line) => line.includes("session_data=") && !line.includes("Max-Age=0"))).toEqual(
        [],
      );
    }
    const user = await server.auth.database.db
      .selectFrom("user")
      .select("name")
      .where("id", "=", v.user.id)
      .executeTakeFirstOrThrow();
    expect(user.name).toBe("Test User");
  });

  it("set-auth-jwt is only signed for a session read from the database", async () => {
    const jwtServer = await startTestServer({
      options: {
        session: { cookieCache: { enabled: true, maxAge: 300 } },
        jwt: { enabled: true, setAuthJwtHeader: true },
      },
    });
    try {
      const { browser, email, password } = await signUp(jwtServer);
      const copy = browser.copyTo();
      const other = jwtServer.browser();
      await other.post("/sign-in/email", { email, password });
      await other.post("/revoke-other-sessions", {});
      const res = await copy.get("/get-session");
      expect(res.body).toBeNull();
      expect(res.headers.get("set-auth-jwt")).toBeNull();
    } finally {
      await jwtServer.close();
    }
  });
});

describe("what a cached copy must carry to be trusted", () => {
  /** Re-signs the victim's cache with changes, as only someone holding AUTH_SECRET could. */
  function resign(browser: TestBrowser, change: (json: any, fields: string[]) => void): void {
    const token = unsignValue(decodeURIComponent(browser.cookie("gatehouse.session_token")!), TEST_SECRET)!;
    const raw = browser.cookie("gatehouse.session_data")!;
    const fields = raw.split(".").slice(0, -1);
    const json = JSON.parse(Buffer.from(fields[0]!, "base64url").toString());
    change(json, fields);
    fields[0] = Buffer.from(JSON.stringify(json)).toString("base64url");
    const signed = fields.join(".");
    browser.setCookie(
      "gatehouse.session_data",
      `${signed}.${hmacSha256(TEST_SECRET, `session_data:${token}:${signed}`, "base64url")}`,
    );
  }

  it("a validly signed copy of a banned user is refused (the database decides)", async () => {
    const { browser } = await signUp(server);
    resign(browser, (json) => {
      json.user.banned = true;
    });
    const before = server.queryCount();
    const res = await browser.get("/get-session");
    expect(server.queryCount() - before).toBe(1);
    expect(res.body.user.banned).toBe(false);
  });

  it("a copy stamped in the future is refused", async () => {
    const { browser } = await signUp(server);
    resign(browser, (_json, fields) => {
      fields[2] = String(server.clock.now().getTime() + 60_000);
    });
    const before = server.queryCount();
    await browser.get("/get-session");
    expect(server.queryCount() - before).toBe(1);
  });

  it("a revocation for one user leaves other users' copies trusted", async () => {
    const bystander = await signUp(server);
    const v = await victim();
    await v.browser.post("/revoke-sessions", {});
    const before = server.queryCount();
    expect((await bystander.browser.get("/get-session")).body.user.id).toBe(bystander.user.id);
    expect(server.queryCount()).toBe(before);
  });
});

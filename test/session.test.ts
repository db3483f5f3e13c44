import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseSetCookie } from "./helpers/browser.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

const DAY = 86400;

describe("sessions without the cookie cache", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());
  afterEach(() => expect(server.loggedErrors).toEqual([]));

  it("answers get-session with null and no-store headers when signed out", async () => {
    const res = await server.browser().get("/get-session");
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("pragma")).toBe("no-cache");
  });

  it("returns the session and user with every field, in one database round trip", async () => {
    const { browser, user, token } = await signUp(server);
    const before = server.queryCount();
    const res = await browser.get("/get-session");
    expect(server.queryCount() - before).toBe(1);
    expect(res.body.user).toEqual(user);
    expect(res.body.session).toMatchObject({
      token,
      userId: user.id,
      ipAddress: "127.0.0.1",
      activeOrganizationId: null,
      activeTeamId: null,
    });
    expect(Object.keys(res.body.session).sort()).toEqual(
      [
        "activeOrganizationId",
        "activeTeamId",
        "createdAt",
        "expiresAt",
        "id",
        "impersonatedBy",
        "ipAddress",
        "token",
        "updatedAt",
        "userAgent",
        "userId",
      ].sort(),
    );
    expect(new Date(res.body.session.expiresAt).getTime() - Date.parse(res.body.session.createdAt)).toBe(
      7 * DAY * 1000,
    );
  });

  it("treats a forged cookie signature as no session", async () => {
    const { browser } = await signUp(server);
    const real = browser.cookie("gatehouse.session_token")!;
    const [token] = decodeURIComponent(real).split(".");
    browser.setCookie("gatehouse.session_token", encodeURIComponent(`${token}.${"A".repeat(43)}=`));
    expect((await browser.get("/get-session")).body).toBeNull();
  });

  it("extends the session at most once per updateAge and re-sends the cookie", async () => {
    const { browser } = await signUp(server);
    const first = await browser.get("/get-session");
    expect(first.setCookies.some((l) => l.startsWith("gatehouse.session_token="))).toBe(false);

    server.clock.advance(DAY + 60);
    const refreshed = await browser.get("/get-session");
    const cookie = refreshed.setCookies.find((l) => l.startsWith("gatehouse.session_token="));
    expect(cookie && parseSetCookie(cookie).attributes["max-age"]).toBe(String(7 * DAY));
    expect(Date.parse(refreshed.body.session.expiresAt)).toBeGreaterThan(Date.parse(first.body.session.expiresAt));

    const again = await browser.get("/get-session");
    expect(again.setCookies.some((l) => l.startsWith("gatehouse.session_token="))).toBe(false);
    expect(again.body.session.expiresAt).toBe(refreshed.body.session.expiresAt);
  });

  it("does not refresh when asked not to, or for a browser-session (not remembered) sign-in", async () => {
    const { browser, email, password } = await signUp(server);
    server.clock.advance(DAY + 60);
    const res = await browser.get("/get-session?disableRefresh=true");
    expect(res.setCookies).toEqual([]);

    const forgetful = server.browser();
    await forgetful.post("/sign-in/email", { email, password, rememberMe: false });
    const s1 = await forgetful.get("/get-session");
    expect(Date.parse(s1.body.session.expiresAt) - Date.parse(s1.body.session.createdAt)).toBe(DAY * 1000);
  });

  it("refuses and removes an expired session, expiring its cookies", async () => {
    const { browser, user } = await signUp(server);
    server.clock.advance(8 * DAY);
    const res = await browser.get("/get-session");
    expect(res.body).toBeNull();
    expect(res.setCookies.some((l) => l.startsWith("gatehouse.session_token=;") && l.includes("Max-Age=0"))).toBe(true);
    const rows = await server.auth.database.db
      .selectFrom("session")
      .select("id")
      .where("userId", "=", user.id)
      .execute();
    expect(rows).toEqual([]);
    expect(browser.cookie("gatehouse.session_token")).toBeUndefined();
  });

  it("signs out: deletes the session and expires the cookies; works without a session too", async () => {
    const { browser } = await signUp(server);
    const res = await browser.post("/sign-out", {});
    expect(res.body).toEqual({ success: true });
    expect(res.setCookies.map((l) => parseSetCookie(l).name).sort()).toEqual(
      ["gatehouse.dont_remember", "gatehouse.session_data", "gatehouse.session_token"].sort(),
    );
    expect((await browser.get("/get-session")).body).toBeNull();
    expect((await server.browser().post("/sign-out", {})).body).toEqual({ success: true });
  });

  it("rejects routes that need a session with 401 UNAUTHORIZED", async () => {
    const anonymous = server.browser();
    for (const [method, path] of [
      ["GET", "/list-sessions"],
      ["POST", "/update-user"],
      ["POST", "/revoke-session"],
      ["POST", "/revoke-sessions"],
      ["POST", "/revoke-other-sessions"],
    ] as const) {
      const body = path === "/revoke-session" ? { token: "x" } : path === "/update-user" ? { name: "x" } : undefined;
      const res = await anonymous.request(path, { method, body });
      expect([path, res.status, res.body]).toEqual([path, 401, { code: "UNAUTHORIZED", message: "Unauthorized" }]);
    }
  });
});

describe("absolute session lifetime", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      options: { session: { expiresIn: 2 * DAY, updateAge: 0, absoluteLifetime: 5 * DAY } },
    });
  });
  afterAll(() => server.close());

  it("sliding expiry never carries a session past absoluteLifetime after sign-in", async () => {
    const { browser } = await signUp(server);
    const signedInAt = server.clock.now().getTime();
    for (let day = 1; day <= 4; day++) {
      server.clock.advance(DAY);
      const res = await browser.get("/get-session");
      expect(res.body).not.toBeNull();
      const expiresAt = new Date(res.body.session.expiresAt).getTime();
      expect(expiresAt).toBeLessThanOrEqual(signedInAt + 5 * DAY * 1000);
      // The cookie never outlives the session either (day 4 reaches the cap: nothing to re-send).
      const line = res.setCookies.find((l) => l.includes("session_token="));
      expect(line === undefined).toBe(day === 4);
      if (!line) continue;
      const cookie = parseSetCookie(line);
      expect(Number(cookie.attributes["max-age"])).toBeLessThanOrEqual(
        Math.ceil((expiresAt - server.clock.now().getTime()) / 1000),
      );
    }
    // Day 4 capped the expiry at day 5: no further write extends it.
    server.clock.advance(DAY / 2);
    const before = server.queryCount();
    expect((await browser.get("/get-session")).setCookies.filter((l) => l.includes("session_token="))).toEqual([]);
    expect(server.queryCount() - before).toBe(1);
    server.clock.advance(DAY / 2 + 1);
    expect((await browser.get("/get-session")).body).toBeNull();
  });
});

describe("update-user", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("changes name and image and re-sends the session cookie", async () => {
    const { browser } = await signUp(server);
    const res = await browser.post("/update-user", { name: "New Name", image: "https://example.com/a.png" });
    expect(res.body).toEqual({ status: true });
    expect(res.setCookies.some((l) => l.startsWith("gatehouse.session_token="))).toBe(true);
    const session = await browser.get("/get-session");
    expect(session.body.user).toMatchObject({ name: "New Name", image: "https://example.com/a.png" });
    await browser.post("/update-user", { image: null });
    expect((await browser.get("/get-session")).body.user.image).toBeNull();
  });

  it.each([
    [{ email: "x@example.com" }, "EMAIL_CAN_NOT_BE_UPDATED"],
    [{ isAnonymous: true }, "FIELD_NOT_ALLOWED"],
    [{ emailVerified: true }, "NO_FIELDS_TO_UPDATE"],
    [{}, "NO_FIELDS_TO_UPDATE"],
    [{ name: 12 }, "VALIDATION_ERROR"],
  ])("refuses %j with 400 %s", async (body, code) => {
    const { browser } = await signUp(server);
    const res = await browser.post("/update-user", body);
    expect([res.status, res.body.code]).toEqual([400, code]);
    expect((await browser.get("/get-session")).body.user.emailVerified).toBe(false);
  });
});

describe("listing and revoking sessions", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  async function twoDevices() {
    const first = await signUp(server);
    const second = server.browser();
    await second.post(
      "/sign-in/email",
      { email: first.email, password: first.password },
      { headers: { "user-agent": "Phone/1.0" } },
    );
    return { first, second };
  }

  it("lists live sessions with revocation handles, never the tokens", async () => {
    const { first, second } = await twoDevices();
    const secondToken = (await second.get("/get-session")).body.session.token;
    const res = await first.browser.get("/list-sessions");
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(first.token);
    expect(text).not.toContain(secondToken);
    for (const session of res.body) expect(session.token).toBe(session.id);
    expect(res.body.filter((s: any) => s.current)).toHaveLength(1);
    expect(res.body.find((s: any) => !s.current).userAgent).toBe("Phone/1.0");
  });

  it("revokes another session by its handle, and leaves other users' sessions alone", async () => {
    const { first, second } = await twoDevices();
    const stranger = await signUp(server);
    const strangerSessionId = (await stranger.browser.get("/get-session")).body.session.id;
    const list = (await first.browser.get("/list-sessions")).body;
    const other = list.find((s: any) => !s.current);

    expect((await first.browser.post("/revoke-session", { token: strangerSessionId })).body).toEqual({ status: true });
    expect((await stranger.browser.get("/get-session")).body).not.toBeNull();

    expect((await first.browser.post("/revoke-session", { token: other.token })).body).toEqual({ status: true });
    expect((await second.get("/get-session")).body).toBeNull();
    expect((await first.browser.get("/get-session")).body).not.toBeNull();
  });

  it("revokes by the real token too, and revoking the current one signs the caller out", async () => {
    const { first } = await twoDevices();
    const res = await first.browser.post("/revoke-session", { token: first.token });
    expect(res.body).toEqual({ status: true });
    expect(res.setCookies.some((l) => l.startsWith("gatehouse.session_token=;"))).toBe(true);
    expect((await first.browser.get("/get-session")).body).toBeNull();
  });

  it("revoke-other-sessions keeps only the caller's; revoke-sessions ends all", async () => {
    const { first, second } = await twoDevices();
    await first.browser.post("/revoke-other-sessions", {});
    expect((await second.get("/get-session")).body).toBeNull();
    expect((await first.browser.get("/get-session")).body).not.toBeNull();

    const third = server.browser();
    await third.post("/sign-in/email", { email: first.email, password: first.password });
    await first.browser.post("/revoke-sessions", {});
    expect((await first.browser.get("/get-session")).body).toBeNull();
    expect((await third.get("/get-session")).body).toBeNull();
  });

  it("validates the revoke-session body", async () => {
    const { browser } = await signUp(server);
    const res = await browser.post("/revoke-session", {});
    expect([res.status, res.body.code]).toEqual([400, "VALIDATION_ERROR"]);
  });
});

describe("cookie cache", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ options: { session: { cookieCache: { enabled: true, maxAge: 300 } } } });
  });
  afterAll(() => server.close());
  afterEach(() => expect(server.loggedErrors).toEqual([]));

  it("answers get-session from a fresh signed cache with no database round trip", async () => {
    const { browser, user } = await signUp(server);
    expect(browser.cookie("gatehouse.session_data")).toBeTruthy();
    const before = server.queryCount();
    const res = await browser.get("/get-session");
    expect(server.queryCount()).toBe(before);
    expect(res.body.user.id).toBe(user.id);
    expect(res.setCookies).toEqual([]);
  });

  it("reads the database again once the cache is older than maxAge, and re-writes it", async () => {
    const { browser } = await signUp(server);
    server.clock.advance(301);
    const before = server.queryCount();
    const res = await browser.get("/get-session");
    expect(server.queryCount() - before).toBe(1);
    expect(res.setCookies.some((l) => l.startsWith("gatehouse.session_data="))).toBe(true);
  });

  it("ignores a tampered cache and honours disableCookieCache", async () => {
    const { browser } = await signUp(server);
    const cache = browser.cookie("gatehouse.session_data")!;
    const parts = cache.split(".");
    expect(parts).toHaveLength(5);
    const json = JSON.parse(Buffer.from(parts[0]!, "base64url").toString());
    json.user.name = "Mallory";
    parts[0] = Buffer.from(JSON.stringify(json)).toString("base64url");
    browser.setCookie("gatehouse.session_data", parts.join("."));
    const res = await browser.get("/get-session");
    expect(res.body.user.name).toBe("Test User");

    // A cache is bound to its own session: another user's valid cache is ignored next to this cookie.
    const other = await signUp(server, { name: "Other User" });
    browser.setCookie("gatehouse.session_data", other.browser.cookie("gatehouse.session_data")!);
    expect((await browser.get("/get-session")).body.user.name).toBe("Test User");

    const before = server.queryCount();
    await browser.get("/get-session?disableCookieCache=true");
    expect(server.queryCount() - before).toBe(1);
  });

  it("does not let a revoked session act on sensitive routes through its cache", async () => {
    const { browser, email, password } = await signUp(server);
    const other = server.browser();
    await other.post("/sign-in/email", { email, password });
    await other.post("/revoke-other-sessions", {});
    const res = await browser.post("/revoke-sessions", {});
    expect(res.status).toBe(401);
  });

  it("clears the cache on sign-out", async () => {
    const { browser } = await signUp(server);
    await browser.post("/sign-out", {});
    expect(browser.cookie("gatehouse.session_data")).toBeUndefined();
    expect((await browser.get("/get-session")).body).toBeNull();
  });
});

describe("a request still in flight with an old cookie", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("gets 401 without a Set-Cookie that would delete the browser's new session cookie", async () => {
    const { browser } = await signUp(server);
    const oldCookies = browser.cookieHeader();
    await browser.post("/revoke-sessions", {});
    await browser.post("/sign-in/email", { email: (await signUp(server)).email, password: "correct horse battery" });
    const late = await browser.get("/list-sessions", { headers: { cookie: oldCookies } });
    expect(late.status).toBe(401);
    expect(late.setCookies).toEqual([]);
    expect((await browser.get("/get-session")).body).not.toBeNull();
  });
});

describe("session lookup next to another request's transaction", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("never reads another transaction's uncommitted changes", async () => {
    const { user, token } = await signUp(server);
    const { lookupSession } = await import("../src/server/services/sessions.js");
    const ctx = server.auth.context;
    let seen: Promise<{ status: string }> | undefined;
    await expect(
      server.auth.database.db.transaction().execute(async (trx) => {
        await trx.deleteFrom("session").where("userId", "=", user.id).execute();
        // A get-session arriving now must not see this delete, which is about to be rolled back.
        seen = lookupSession(ctx, token, { refresh: false });
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect((await seen)?.status).toBe("active");
  });
});

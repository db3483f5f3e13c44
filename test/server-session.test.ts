import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/**
 * auth.api.getSession({ headers }): the embedding server's own session check. It must answer what
 * GET /get-session answers for the same Cookie header, without a request.
 */
async function both(server: TestServer, cookie: string) {
  const api = await server.auth.api.getSession({ headers: { cookie } });
  const http = await server.browser().get("/get-session", { headers: { cookie } });
  return { api: JSON.parse(JSON.stringify(api)), http: http.body };
}

describe("auth.api.getSession without the cookie cache", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());
  afterEach(() => expect(server.loggedErrors).toEqual([]));

  it("answers the session and user of a valid cookie, with Dates, in one database read", async () => {
    const { browser, user, token } = await signUp(server);
    const before = server.queryCount();
    const data = await server.auth.api.getSession({ headers: new Headers({ cookie: browser.cookieHeader() }) });
    expect(server.queryCount() - before).toBe(1);
    expect(data?.session.token).toBe(token);
    expect(data?.user.id).toBe(user.id);
    expect(data?.session.expiresAt).toBeInstanceOf(Date);
    const { api, http } = await both(server, browser.cookieHeader());
    expect(api).toEqual(http);
    // A plain record and a read-only view (Next.js headers()) work as well as a Headers.
    const cookie = browser.cookieHeader();
    expect((await server.auth.api.getSession({ headers: { cookie } }))?.user.id).toBe(user.id);
    const view = { get: (name: string) => (name === "cookie" ? cookie : null) };
    expect((await server.auth.api.getSession({ headers: view }))?.user.id).toBe(user.id);
  });

  it("answers null without a cookie, for other cookies only, and for a tampered cookie", async () => {
    expect(await server.auth.api.getSession({ headers: {} })).toBeNull();
    expect(await server.auth.api.getSession({ headers: { cookie: "theme=dark" } })).toBeNull();
    const { browser } = await signUp(server);
    const real = decodeURIComponent(browser.cookie("gatehouse.session_token")!);
    const [token, signature] = real.split(".");
    const forged = `gatehouse.session_token=${encodeURIComponent(`${token}.${"A".repeat(43)}=`)}`;
    expect(await both(server, forged)).toEqual({ api: null, http: null });
    // A valid signature over another token is no better.
    // Another first character (1 token in 62 starts with "x": the swap must change the token).
    const other = token!.startsWith("x") ? "y" : "x";
    const swapped = `gatehouse.session_token=${encodeURIComponent(`${other}${token!.slice(1)}.${signature}`)}`;
    expect(await server.auth.api.getSession({ headers: { cookie: swapped } })).toBeNull();
  });

  it("answers null once the session is revoked, as get-session does", async () => {
    const { browser } = await signUp(server);
    const cookie = browser.cookieHeader();
    expect(await server.auth.api.getSession({ headers: { cookie } })).not.toBeNull();
    expect((await browser.post("/revoke-sessions", {})).status).toBe(200);
    expect(await both(server, cookie)).toEqual({ api: null, http: null });
  });

  it("does not slide the session forward (it has no response to renew the cookie with)", async () => {
    const { browser } = await signUp(server);
    const cookie = browser.cookieHeader();
    const first = await server.auth.api.getSession({ headers: { cookie } });
    server.clock.advance(86400 + 60);
    const later = await server.auth.api.getSession({ headers: { cookie } });
    expect(later?.session.expiresAt).toEqual(first?.session.expiresAt);
  });
});

describe("auth.api.getSession with the cookie cache", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ options: { session: { cookieCache: { enabled: true, maxAge: 300 } } } });
  });
  afterAll(() => server.close());
  afterEach(() => expect(server.loggedErrors).toEqual([]));

  it("answers from a valid cookie cache without the database, the same data get-session gives", async () => {
    const { browser, user } = await signUp(server);
    expect(browser.cookie("gatehouse.session_data")).toBeTruthy();
    const before = server.queryCount();
    const data = await server.auth.api.getSession({ headers: { cookie: browser.cookieHeader() } });
    expect(server.queryCount() - before).toBe(0);
    expect(data?.user.id).toBe(user.id);
    expect(data?.session.createdAt).toBeInstanceOf(Date);
    const { api, http } = await both(server, browser.cookieHeader());
    expect(api).toEqual(http);
    // disableCookieCache reads the database, as the query flag does over HTTP.
    const read = server.queryCount();
    await server.auth.api.getSession({
      headers: { cookie: browser.cookieHeader() },
      query: { disableCookieCache: true },
    });
    expect(server.queryCount() - read).toBe(1);
  });

  it("refuses the cached copy once the session is revoked", async () => {
    const { browser, email, password } = await signUp(server);
    const cookie = browser.cookieHeader();
    expect(await server.auth.api.getSession({ headers: { cookie } })).not.toBeNull();
    const second = server.browser();
    expect((await second.post("/sign-in/email", { email, password })).status).toBe(200);
    server.clock.advance(2);
    // Another device signs everyone else out; the first browser still holds a signed, unexpired cache.
    expect((await second.post("/revoke-other-sessions", {})).status).toBe(200);
    const before = server.queryCount();
    expect(await server.auth.api.getSession({ headers: { cookie } })).toBeNull();
    expect(server.queryCount() - before).toBe(1);
    expect(await both(server, cookie)).toEqual({ api: null, http: null });
  });

  it("ignores a cookie cache whose signature is tampered with and reads the database", async () => {
    const { browser, user } = await signUp(server);
    const cache = decodeURIComponent(browser.cookie("gatehouse.session_data")!);
    const forged = `${cache.slice(0, -4)}AAAA`;
    const cookie = `gatehouse.session_token=${browser.cookie("gatehouse.session_token")}; gatehouse.session_data=${encodeURIComponent(forged)}`;
    const before = server.queryCount();
    const data = await server.auth.api.getSession({ headers: { cookie } });
    expect(server.queryCount() - before).toBe(1);
    expect(data?.user.id).toBe(user.id);
  });
});

import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createAuth } from "../src/server/auth.js";
import type { MemoryRateLimitStore } from "../src/server/store/rate-limit-store.js";
import { createServiceApp } from "../src/service-app.js";
import { parseSetCookie } from "./helpers/browser.js";
import { refuseWrites } from "./helpers/faults.js";
import { signUp, startTestServer, TEST_SECRET, type TestServer } from "./helpers/server.js";

/** A POST through node:http, which sends headers exactly as given. */
function rawPost(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: "POST", headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    options: { trustedOrigins: ["https://app.example.com", "https://*.partner.test"] },
  });
});
afterAll(() => server.close());
afterEach(() => expect(server.loggedErrors).toEqual([]));

describe("routing and bodies", () => {
  it("GET /ok answers {ok: true}", async () => {
    expect((await server.browser().get("/ok")).body).toEqual({ ok: true });
  });

  it("GET /ready is 200 when the database answers, and says whether revocations from other instances arrive", async () => {
    const res = await server.browser().get("/ready");
    expect([res.status, res.body]).toEqual([200, { ready: true, database: true, revocations: true }]);

    const notListening = await createAuth({
      baseURL: "http://127.0.0.1:1",
      secret: TEST_SECRET,
      database: "sqlite::memory:",
      options: { session: { cookieCache: { enabled: true } } },
      revocationFeed: { publish: async () => {}, start: () => {}, close: async () => {} },
      logger: { info() {}, warn() {}, error() {} },
    });
    try {
      const answer = await notListening.handler(new Request("http://127.0.0.1:1/api/auth/ready"));
      expect([answer.status, await answer.json()]).toEqual([200, { ready: true, database: true, revocations: false }]);
    } finally {
      await notListening.close();
    }
  });

  it.each([
    ["GET", "/nope"],
    ["POST", "/ok"],
    ["GET", "/ok/"],
    ["GET", "//ok"],
    ["GET", "/sign-in/email"],
  ])("%s %s is a 404 with an empty body", async (method, path) => {
    const res = await server.browser().request(path, { method, body: method === "POST" ? {} : undefined });
    expect(res.status).toBe(404);
    expect(res.body).toBeNull();
  });

  it("answers an unexpected failure with a 500 naming a request id, logged under the same id", async () => {
    const email = `refused-${Math.random().toString(36).slice(2)}@example.com`;
    const undo = await refuseWrites(server, { table: "user", op: "INSERT", column: "email", equals: email });
    try {
      const res = await server
        .browser()
        .post("/sign-up/email", { name: "Refused", email, password: "sturdy-pass-123" });
      expect(res.status).toBe(500);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.body).toEqual({ code: "INTERNAL_SERVER_ERROR", message: expect.any(String) });
      const id = /^Internal server error \(request ([0-9a-f]{12})\)$/.exec(res.body.message)?.[1];
      expect(id).toBeDefined();
      expect(server.loggedErrors).toHaveLength(1);
      expect(server.loggedErrors[0]).toContain(`"requestId":"${id}"`);
    } finally {
      server.loggedErrors.length = 0;
      await undo();
    }
  });

  it("refuses malformed JSON with 400 BAD_REQUEST", async () => {
    const res = await server.browser().request("/sign-in/email", {
      method: "POST",
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect([res.status, res.body]).toEqual([400, { code: "BAD_REQUEST", message: "Invalid JSON in request body" }]);
  });

  it("refuses a JSON body that is not an object", async () => {
    const res = await server.browser().request("/sign-in/email", {
      method: "POST",
      body: "[1,2]",
      headers: { "content-type": "application/json" },
    });
    expect([res.status, res.body.code]).toEqual([400, "BODY_MUST_BE_AN_OBJECT"]);
  });

  it("refuses other media types with 415, and form posts outside the login forms", async () => {
    const text = await server.browser().request("/sign-in/email", {
      method: "POST",
      body: "hello",
      headers: { "content-type": "text/plain" },
    });
    expect([text.status, text.body.code]).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"]);
    expect(text.body.message).toContain("application/x-www-form-urlencoded");
    const { browser } = await signUp(server);
    const form = await browser.request("/update-user", { form: { name: "x" } });
    expect([form.status, form.body.code]).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"]);
  });

  it("refuses bodies over 1 MiB with 413, with or without a Content-Length", async () => {
    const big = JSON.stringify({ name: "a", email: "big@example.com", password: "x".repeat(1024 * 1024) });
    const res = await server.browser().request("/sign-up/email", {
      method: "POST",
      body: big,
      headers: { "content-type": "application/json" },
    });
    expect([res.status, res.body.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);

    const chunked = await fetch(`${server.origin}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.origin },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode("x".repeat(64 * 1024)));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it("refuses wrong types on every field with VALIDATION_ERROR naming the field", async () => {
    const res = await server.browser().post("/sign-in/email", { email: ["a"], password: {} });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("VALIDATION_ERROR");
    expect(res.body.message).toContain("[body.email]");
    expect(res.body.message).toContain("[body.password]");
  });
});

describe("origin checks", () => {
  it("refuses a cookie-carrying POST from an untrusted origin with 403 INVALID_ORIGIN", async () => {
    const { browser } = await signUp(server);
    const res = await browser.post("/sign-out", {}, { headers: { origin: "https://evil.example" } });
    expect([res.status, res.body]).toEqual([403, { code: "INVALID_ORIGIN", message: "Invalid origin" }]);
    expect((await browser.get("/get-session")).body).not.toBeNull();
  });

  it("refuses a cookie-carrying POST with no Origin or Referer", async () => {
    const { browser } = await signUp(server);
    const res = await browser.post("/sign-out", {}, { noOrigin: true });
    expect([res.status, res.body.code]).toEqual([403, "MISSING_OR_NULL_ORIGIN"]);
  });

  it("falls back to the Referer, and accepts configured and wildcard origins", async () => {
    const { browser } = await signUp(server);
    const viaReferer = await browser.post(
      "/update-user",
      { name: "R" },
      { noOrigin: true, headers: { referer: `${server.origin}/settings` } },
    );
    expect(viaReferer.status).toBe(200);
    const exact = await browser.post("/update-user", { name: "E" }, { headers: { origin: "https://app.example.com" } });
    expect(exact.status).toBe(200);
    const wildcard = await browser.post(
      "/update-user",
      { name: "W" },
      { headers: { origin: "https://eu.partner.test" } },
    );
    expect(wildcard.status).toBe(200);
    const lookalike = await browser.post(
      "/update-user",
      { name: "L" },
      { headers: { origin: "https://partner.test.evil.example" } },
    );
    expect(lookalike.status).toBe(403);
  });

  it("lets a cookie-less POST through without an Origin (server-to-server callers)", async () => {
    const res = await server.browser().post("/sign-out", {}, { noOrigin: true });
    expect(res.status).toBe(200);
  });

  it("checks the login forms even without cookies (login CSRF)", async () => {
    const { email, password } = await signUp(server);
    const foreign = await server
      .browser()
      .post("/sign-in/email", { email, password }, { headers: { origin: "https://evil.example" } });
    expect([foreign.status, foreign.body.code]).toEqual([403, "INVALID_ORIGIN"]);

    // fetch() sets the Sec-Fetch-* headers itself, so these go through node:http as a browser would send them.
    const form = new URLSearchParams({ email, password }).toString();
    const formHeaders = { "content-type": "application/x-www-form-urlencoded" };
    const navigation = await rawPost(`${server.origin}/api/auth/sign-in/email`, form, {
      ...formHeaders,
      origin: "https://evil.example",
      "sec-fetch-site": "cross-site",
      "sec-fetch-mode": "navigate",
      "sec-fetch-dest": "document",
    });
    expect([navigation.status, navigation.body.code]).toEqual([403, "CROSS_SITE_NAVIGATION_LOGIN_BLOCKED"]);

    const fetchWithoutOrigin = await rawPost(`${server.origin}/api/auth/sign-in/email`, form, {
      ...formHeaders,
      "sec-fetch-site": "same-origin",
      "sec-fetch-mode": "cors",
    });
    expect([fetchWithoutOrigin.status, fetchWithoutOrigin.body.code]).toEqual([403, "MISSING_OR_NULL_ORIGIN"]);

    const sameSiteForm = await rawPost(`${server.origin}/api/auth/sign-in/email`, form, {
      ...formHeaders,
      origin: server.origin,
      "sec-fetch-site": "same-origin",
      "sec-fetch-mode": "navigate",
    });
    expect(sameSiteForm.status).toBe(200);
  });
});

describe("login CSRF on every route that signs a browser in", () => {
  const loginRoutes = [
    "/sign-in/anonymous",
    "/sign-in/email",
    "/sign-up/email",
    "/sign-in/social",
    "/one-tap/callback",
  ];
  const countSessions = async () =>
    Number(
      (
        await server.auth.database.db
          .selectFrom("session")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it.each(loginRoutes)("refuses a cross-site form or fetch to %s, without cookies or body", async (path) => {
    const before = await countSessions();
    const url = `${server.origin}/api/auth${path}`;
    const navigation = await rawPost(url, "", {
      "content-type": "application/x-www-form-urlencoded",
      origin: "https://evil.example",
      "sec-fetch-site": "cross-site",
      "sec-fetch-mode": "navigate",
      "sec-fetch-dest": "document",
    });
    expect([navigation.status, navigation.body.code]).toEqual([403, "CROSS_SITE_NAVIGATION_LOGIN_BLOCKED"]);
    const crossSiteFetch = await rawPost(url, "{}", {
      "content-type": "application/json",
      origin: "https://evil.example",
      "sec-fetch-site": "cross-site",
      "sec-fetch-mode": "cors",
    });
    expect([crossSiteFetch.status, crossSiteFetch.body.code]).toEqual([403, "INVALID_ORIGIN"]);
    expect(await countSessions()).toBe(before);
  });

  it("still lets the app's own origin and cookie-less server-to-server callers sign in anonymously", async () => {
    expect((await server.browser().post("/sign-in/anonymous", {})).status).toBe(200);
    // node:http sends no Sec-Fetch-* headers (Node's fetch does): a non-browser caller without Origin.
    const serverToServer = await rawPost(`${server.origin}/api/auth/sign-in/anonymous`, "{}", {
      "content-type": "application/json",
    });
    expect(serverToServer.status).toBe(200);
  });
});

describe("redirect target checks", () => {
  it.each([
    ["/dashboard", 200],
    ["/a/b?c=d#e", 200],
    ["https://app.example.com/welcome", 200],
    ["https://evil.example/", 403],
    ["//evil.example/x", 403],
    ["/\\evil.example", 403],
    ["/%2F%2Fevil.example", 403],
    ["/ok\r\nSet-Cookie: x=y", 403],
    ["javascript:alert(1)", 403],
    ["https://app.example.com.evil.example/", 403],
  ])("callbackURL %j -> %i", async (callbackURL, status) => {
    const { email, password } = await signUp(server);
    const res = await server.browser().post("/sign-in/email", { email, password, callbackURL });
    expect(res.status).toBe(status);
    if (status === 403) expect(res.body).toEqual({ code: "INVALID_CALLBACK_URL", message: "Invalid callbackURL" });
  });

  it("checks redirectTo, errorCallbackURL and newUserCallbackURL with their own codes", async () => {
    const browser = server.browser();
    for (const [field, code] of [
      ["redirectTo", "INVALID_REDIRECT_URL"],
      ["errorCallbackURL", "INVALID_ERROR_CALLBACK_URL"],
      ["newUserCallbackURL", "INVALID_NEW_USER_CALLBACK_URL"],
    ]) {
      const res = await browser.post("/sign-out", { [field!]: "https://evil.example" });
      expect([res.status, res.body.code]).toEqual([403, code]);
    }
    const wrongType = await browser.post("/sign-out", { callbackURL: 5 });
    expect([wrongType.status, wrongType.body.code]).toEqual([403, "INVALID_CALLBACK_URL"]);
  });

  it("checks a callbackURL in the query of GET routes", async () => {
    const res = await server.browser().get("/ok?callbackURL=https://evil.example");
    expect([res.status, res.body.code]).toEqual([403, "INVALID_CALLBACK_URL"]);
  });
});

describe("GET /error", () => {
  it("shows the escaped error code and a link back to the application", async () => {
    const res = await server.browser().get("/error?error=state_not_found");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.body).toContain("state_not_found");
    expect(res.body).toContain(`href="${server.origin}/"`);
  });

  it("never reflects markup", async () => {
    const res = await server
      .browser()
      .get(
        `/error?error=${encodeURIComponent("<script>x</script>")}&error_description=${encodeURIComponent("<img src=x>")}`,
      );
    expect(res.body).not.toContain("<script>x");
    expect(res.body).not.toContain("<img src=x>");
    expect(res.body).toContain("UNKNOWN");
  });
});

describe("security headers", () => {
  it("the /error page: CSP allowing only its own inline style, no framing, no sniffing, no referrer", async () => {
    const res = await server.browser().get("/error?error=access_denied");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    const hash = /style-src '(sha256-[^']+)'/.exec(csp)?.[1];
    const css = /<style>([\s\S]*)<\/style>/.exec(res.body)?.[1] ?? "";
    expect(hash).toBe(`sha256-${createHash("sha256").update(css).digest("base64")}`);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    // Over http, no HSTS (browsers ignore it there, and it would be a lie).
    expect(res.headers.get("strict-transport-security")).toBeNull();
  });

  it("JSON answers are never sniffed", async () => {
    for (const path of ["/get-session", "/ok", "/list-sessions"]) {
      expect((await server.browser().get(path)).headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("application pages: default-src 'self', One Tap's sources only when it is on, HSTS over https", async () => {
    const appDir = mkdtempSync(join(tmpdir(), "gatehouse-app-"));
    writeFileSync(join(appDir, "index.html"), "<!doctype html><title>app</title>");
    const make = (options: Record<string, unknown>) =>
      createAuth({
        baseURL: "https://auth.example.com",
        secret: TEST_SECRET,
        database: "sqlite::memory:",
        options,
        logger: { info() {}, warn() {}, error() {} },
      });
    const plain = await make({});
    const withOneTap = await make({ oneTap: { clientId: "client-1.apps.googleusercontent.com" } });
    try {
      const page = await createServiceApp(plain, appDir).fetch(new Request("https://auth.example.com/sign-in"));
      const csp = page.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self';");
      expect(csp).not.toContain("accounts.google.com");
      expect(page.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
      expect(page.headers.get("referrer-policy")).toBe("no-referrer");

      const oneTapPage = await createServiceApp(withOneTap, appDir).fetch(new Request("https://auth.example.com/"));
      const oneTapCsp = oneTapPage.headers.get("content-security-policy") ?? "";
      expect(oneTapCsp).toContain("script-src 'self' https://accounts.google.com/gsi/");
      expect(oneTapCsp).toContain("frame-src https://accounts.google.com/gsi/");
      expect(oneTapPage.headers.get("cross-origin-opener-policy")).toBe("same-origin-allow-popups");

      // The API under the same app keeps its JSON answers free of the page policy.
      const api = await createServiceApp(plain, appDir).fetch(new Request("https://auth.example.com/api/auth/ok"));
      expect(api.headers.get("content-security-policy")).toBeNull();
    } finally {
      await plain.close();
      await withOneTap.close();
      rmSync(appDir, { recursive: true, force: true });
    }
  });
});

describe("application files", () => {
  it("keeps Vite's content-hashed assets for a year and has the shell and unhashed files revalidated", async () => {
    const appDir = mkdtempSync(join(tmpdir(), "gatehouse-app-"));
    mkdirSync(join(appDir, "assets"));
    writeFileSync(join(appDir, "index.html"), "<!doctype html><title>app</title>");
    writeFileSync(join(appDir, "assets/index-Ab12Cd34.js"), "export {};");
    writeFileSync(join(appDir, "theme.js"), "void 0;");
    const auth = await createAuth({
      baseURL: "https://auth.example.com",
      secret: TEST_SECRET,
      database: "sqlite::memory:",
      logger: { info() {}, warn() {}, error() {} },
    });
    const get = (path: string) => createServiceApp(auth, appDir).fetch(new Request(`https://auth.example.com${path}`));
    try {
      const asset = await get("/assets/index-Ab12Cd34.js");
      expect([asset.status, asset.headers.get("cache-control")]).toEqual([200, "public, max-age=31536000, immutable"]);
      for (const path of ["/", "/sign-in", "/index.html", "/theme.js"]) {
        const res = await get(path);
        expect([path, res.status, res.headers.get("cache-control")]).toEqual([path, 200, "no-cache"]);
      }
      // A missing asset is not an application page, and nothing about it is kept.
      const missing = await get("/assets/gone-Zz99Yy88.js");
      expect(missing.status).toBe(404);
      expect(missing.headers.get("cache-control") ?? "").not.toContain("immutable");
      const api = await get("/api/auth/ok");
      expect(api.headers.get("cache-control") ?? "").not.toContain("immutable");
    } finally {
      await auth.close();
      rmSync(appDir, { recursive: true, force: true });
    }
  });
});

describe("cookie attributes", () => {
  it("uses the __Host- prefix, Secure, Path=/ and no Domain when secure cookies are on", async () => {
    const secure = await startTestServer({ options: { advanced: { useSecureCookies: true, cookiePrefix: "acme" } } });
    try {
      const res = await secure
        .browser()
        .post("/sign-up/email", { name: "S", email: "s@example.com", password: "sturdy-pass-123" });
      const cookie = parseSetCookie(res.setCookies.find((l) => l.includes("session_token"))!);
      expect(cookie.name).toBe("__Host-acme.session_token");
      expect(cookie.attributes).toMatchObject({ secure: true, httponly: true, samesite: "Lax", path: "/" });
      expect(cookie.attributes).not.toHaveProperty("domain");
      // A cookie planted under the weaker prefix (which a sibling subdomain can set) is not a session.
      const token = cookie.value;
      const planted = await secure
        .browser()
        .get("/get-session", { headers: { cookie: `__Secure-acme.session_token=${token}` } });
      expect(planted.body).toBeNull();
      const real = await secure
        .browser()
        .get("/get-session", { headers: { cookie: `__Host-acme.session_token=${token}` } });
      expect(real.body.user.email).toBe("s@example.com");
    } finally {
      await secure.close();
    }
  });
});

describe("rate limits", () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({
      options: {
        rateLimit: { enabled: true, window: 10, max: 5, customRules: { "/list-sessions": false } },
        advanced: { ipAddress: { ipAddressHeaders: ["x-forwarded-for"] } },
      },
    });
  });
  afterAll(() => limited.close());

  const from = (ip: string) => ({ headers: { "x-forwarded-for": ip } });

  it("allows three sign-in attempts per 10 s per IP, then 429 with Retry-After", async () => {
    const browser = limited.browser();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (await browser.post("/sign-in/email", { email: "a@example.com", password: "wrongpass" }, from("10.0.0.1")))
          .status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    const blocked = await browser.post(
      "/sign-in/email",
      { email: "a@example.com", password: "wrongpass" },
      from("10.0.0.1"),
    );
    expect(blocked.body).toEqual({ code: "TOO_MANY_REQUESTS", message: "Too many requests. Please try again later." });
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(blocked.headers.get("x-retry-after")).toBe(blocked.headers.get("retry-after"));

    const otherIp = await browser.post(
      "/sign-in/email",
      { email: "a@example.com", password: "wrongpass" },
      from("10.0.0.2"),
    );
    expect(otherIp.status).toBe(401);

    limited.clock.advance(11);
    const later = await browser.post(
      "/sign-in/email",
      { email: "a@example.com", password: "wrongpass" },
      from("10.0.0.1"),
    );
    expect(later.status).toBe(401);
  });

  it("applies the default window to other paths and exempts custom-rule paths", async () => {
    const browser = limited.browser();
    const okStatuses = [];
    for (let i = 0; i < 6; i++) okStatuses.push((await browser.get("/ok", from("10.0.1.1"))).status);
    expect(okStatuses).toEqual([200, 200, 200, 200, 200, 429]);
    // Readiness probes (one load balancer, often) are never limited.
    for (let i = 0; i < 8; i++) expect((await browser.get("/ready", from("10.0.1.1"))).status).toBe(200);
    for (let i = 0; i < 8; i++) expect((await browser.get("/list-sessions", from("10.0.1.1"))).status).toBe(401);
  });

  it("keys windows by the matched route: random paths do not grow the store, and share one window", async () => {
    const store = limited.auth.context.rateLimitStore as MemoryRateLimitStore;
    const browser = limited.browser();
    await browser.get(`/nope-warmup`, from("10.0.2.1"));
    const before = store.size;
    const statuses = [];
    for (let i = 0; i < 30; i++)
      statuses.push((await browser.get(`/nope-${i}-${Math.random()}`, from("10.0.2.1"))).status);
    expect(store.size).toBe(before);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    // An unrouted request's 429 is answered like any other route's.
    const blocked = await browser.get(`/nope-${Math.random()}`, from("10.0.2.1"));
    expect([blocked.status, blocked.body?.code]).toEqual([429, "TOO_MANY_REQUESTS"]);
    expect(blocked.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("groups IPv6 clients by /64", async () => {
    const browser = limited.browser();
    const statuses = [];
    for (let i = 1; i <= 6; i++) statuses.push((await browser.get("/ok", from(`2001:db8:1:2::${i}`))).status);
    expect(statuses.at(-1)).toBe(429);
  });
});

import { createHash } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signValue } from "../src/server/crypto/signed-value.js";
import { parseSetCookie } from "./helpers/browser.js";
import { refuseWrites } from "./helpers/faults.js";
import { startOidcProvider, type TestOidcProvider } from "./helpers/oidc.js";
import { signUp, startTestServer, TEST_SECRET, type TestServer } from "./helpers/server.js";
import { locationOf, providerOptions, socialFlow } from "./helpers/social.js";

let oidc: TestOidcProvider;
let server: TestServer;
const PROVIDER_IDS = ["oidc", "formpost", "closed", "trusted", "noinfo"];

beforeAll(async () => {
  oidc = await startOidcProvider();
  server = await startTestServer({
    options: {
      account: { accountLinking: { trustedProviders: ["trusted"] } },
      socialProviders: {
        oidc: providerOptions(oidc),
        formpost: providerOptions(oidc, { responseMode: "form_post" }),
        closed: providerOptions(oidc, { disableSignUp: true }),
        trusted: providerOptions(oidc),
        noinfo: providerOptions(oidc, { userInfoEndpoint: `${oidc.issuer}/no-such-userinfo` }),
        // Nothing listens on port 9: discovery fails.
        down: providerOptions(oidc, { issuer: "http://127.0.0.1:9" }),
      },
    },
  });
  await oidc.configure(PROVIDER_IDS.map((id) => `${server.origin}/api/auth/callback/${id}`));
});
afterAll(async () => {
  await server?.close();
  await oidc?.close();
});
afterEach(() => expect(server.loggedErrors).toEqual([]));

const db = () => server.auth.database.db;
const errorPage = () => `${server.origin}/api/auth/error`;
const accountsOf = (userId: string) => db().selectFrom("account").selectAll().where("userId", "=", userId).execute();
const userByEmail = (email: string) =>
  db().selectFrom("user").selectAll().where("email", "=", email).executeTakeFirst();

describe("POST /sign-in/social (redirect flow)", () => {
  it("answers the provider URL with state (32) and PKCE S256, and binds the state to the browser", async () => {
    const browser = server.browser();
    const res = await browser.post("/sign-in/social", { provider: "oidc", callbackURL: "/dash", loginHint: "a@b.c" });
    expect(res.status).toBe(200);
    expect(res.body.redirect).toBe(true);
    expect(res.headers.get("location")).toBe(res.body.url);
    const url = new URL(res.body.url);
    expect(url.origin).toBe(oidc.issuer);
    const q = url.searchParams;
    expect(q.get("response_type")).toBe("code");
    expect(q.get("scope")).toBe("openid email profile");
    expect(q.get("redirect_uri")).toBe(`${server.origin}/api/auth/callback/oidc`);
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("login_hint")).toBe("a@b.c");
    expect(q.get("nonce")).toMatch(/^[\w-]{32}$/);
    const state = q.get("state")!;
    expect(state).toMatch(/^[\w-]{32}$/);

    const cookie = parseSetCookie(res.setCookies.find((l) => l.startsWith("gatehouse.state="))!);
    expect(decodeURIComponent(cookie.value)).toBe(signValue(state, TEST_SECRET));
    expect(cookie.attributes).toMatchObject({ "max-age": "300", httponly: true, samesite: "Lax" });

    // Server-side: keyed by the state's digest, 10 minutes, with the 128-character verifier.
    const identifier = `auth-state:${createHash("sha256").update(state).digest("base64url")}`;
    const row = await db()
      .selectFrom("verification")
      .selectAll()
      .where("identifier", "=", identifier)
      .executeTakeFirst();
    expect(row).toBeDefined();
    const value = JSON.parse(row!.value);
    expect(value.codeVerifier).toMatch(/^[\w-]{128}$/);
    expect(q.get("code_challenge")).toBe(createHash("sha256").update(value.codeVerifier).digest("base64url"));
    const lifetimeMs = new Date(row!.expiresAt).getTime() - new Date(row!.createdAt).getTime();
    expect(lifetimeMs).toBe(600_000);
  });

  it("answers 502 PROVIDER_UNAVAILABLE when the provider's discovery cannot be fetched", async () => {
    const res = await server.browser().post("/sign-in/social", { provider: "down" });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe("PROVIDER_UNAVAILABLE");
  });

  it("with disableRedirect answers redirect false and no Location header", async () => {
    const res = await server.browser().post("/sign-in/social", { provider: "oidc", disableRedirect: true });
    expect(res.body).toMatchObject({ redirect: false, url: expect.stringContaining(oidc.issuer) });
    expect(res.headers.get("location")).toBeNull();
  });

  it("refuses an unknown provider with 404 PROVIDER_NOT_FOUND and an untrusted callbackURL with 403", async () => {
    const unknown = await server.browser().post("/sign-in/social", { provider: "nope" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("PROVIDER_NOT_FOUND");
    const foreign = await server
      .browser()
      .post("/sign-in/social", { provider: "oidc", callbackURL: "https://evil.test/" });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe("INVALID_CALLBACK_URL");
  });
});

describe("GET /callback/:id", () => {
  it("signs a new user up: user, account (encrypted tokens, scopes), session; 302 to newUserCallbackURL", async () => {
    const user = oidc.addUser();
    const browser = server.browser();
    const { callback } = await socialFlow(browser, oidc, user.sub, {
      body: { provider: "oidc", callbackURL: "/dash", newUserCallbackURL: "/welcome" },
    });
    expect(callback.status).toBe(302);
    expect(callback.headers.get("location")).toBe("/welcome");
    expect(callback.setCookies.some((l) => /^gatehouse\.state=;.*Max-Age=0/i.test(l))).toBe(true);
    expect(callback.setCookies.some((l) => l.startsWith("gatehouse.session_token=") && !/Max-Age=0/.test(l))).toBe(
      true,
    );

    const session = await browser.get("/get-session");
    expect(session.body.user).toMatchObject({ email: user.email, emailVerified: true, name: user.name });
    const [account, ...more] = await accountsOf(session.body.user.id);
    expect(more).toHaveLength(0);
    expect(account).toMatchObject({ providerId: "oidc", accountId: user.sub, scope: "openid,email,profile" });
    for (const column of ["accessToken", "idToken"] as const) {
      expect(account![column]).toMatch(/^v1\./);
      const plain = server.auth.context.tokenCipher.decrypt(account![column]!);
      expect(plain).toBeTruthy();
      expect(account![column]).not.toContain(plain!.slice(0, 12));
    }
    expect(server.auth.context.tokenCipher.decrypt(account!.idToken!)!.split(".")).toHaveLength(3);
    expect(new Date(account!.accessTokenExpiresAt!).getTime()).toBeGreaterThan(Date.now());
  });

  it("signs a returning user in to callbackURL, keeping one user and one account", async () => {
    const user = oidc.addUser();
    const first = await socialFlow(server.browser(), oidc, user.sub, {
      body: { provider: "oidc", callbackURL: "/dash" },
    });
    expect(first.callback.headers.get("location")).toBe("/dash");
    const browser = server.browser();
    const again = await socialFlow(browser, oidc, user.sub, {
      body: { provider: "oidc", callbackURL: "/dash", newUserCallbackURL: "/welcome" },
    });
    expect(again.callback.headers.get("location")).toBe("/dash");
    const dbUser = await userByEmail(user.email!);
    expect(await accountsOf(dbUser!.id)).toHaveLength(1);
    expect((await browser.get("/get-session")).body.user.id).toBe(dbUser!.id);
  });

  it("defaults callbackURL to the app origin", async () => {
    const user = oidc.addUser();
    const { callback } = await socialFlow(server.browser(), oidc, user.sub, { body: { provider: "oidc" } });
    expect(callback.headers.get("location")).toBe(server.origin);
  });

  it("completes a form_post provider: POST /callback/:id from the provider's origin redirects to the GET", async () => {
    const user = oidc.addUser();
    const browser = server.browser();
    const start = await browser.post("/sign-in/social", { provider: "formpost", callbackURL: "/dash" });
    expect(new URL(start.body.url).searchParams.get("response_mode")).toBe("form_post");
    const result = await oidc.authorize(start.body.url, user.sub);
    expect(result.kind).toBe("form_post");
    if (result.kind !== "form_post") return;
    expect(result.action).toBe(`${server.origin}/api/auth/callback/formpost`);
    const posted = await browser.request(result.action, {
      method: "POST",
      form: result.fields,
      headers: { origin: oidc.issuer },
    });
    expect(posted.status).toBe(302);
    const next = new URL(posted.headers.get("location")!);
    expect(next.pathname).toBe("/api/auth/callback/formpost");
    expect(next.searchParams.get("code")).toBe(result.fields.code);
    expect(next.searchParams.get("state")).toBe(result.fields.state);
    const callback = await browser.get(next.toString());
    expect(callback.headers.get("location")).toBe("/dash");
    expect((await browser.get("/get-session")).body.user.email).toBe(user.email);
  });
});

describe("callback errors redirect with error=<code>", () => {
  /** Starts a flow and returns the state the provider would send back, without visiting the provider. */
  async function started(body: Record<string, unknown> = {}) {
    const browser = server.browser();
    const res = await browser.post("/sign-in/social", { provider: "oidc", errorCallbackURL: "/oops", ...body });
    return { browser, state: new URL(res.body.url).searchParams.get("state")! };
  }

  it("state_not_found: no state, an unknown state, a replay, or another browser", async () => {
    const browser = server.browser();
    const missing = await browser.get("/callback/oidc?code=abc");
    expect(missing.headers.get("location")).toBe(`${errorPage()}?error=state_not_found`);

    const { browser: owner, state } = await started();
    const foreign = await server.browser().get(`/callback/oidc?code=abc&state=${state}`);
    expect(foreign.headers.get("location")).toBe(`${errorPage()}?error=state_not_found`);

    const user = oidc.addUser();
    const flow = await socialFlow(owner, oidc, user.sub, { body: { provider: "oidc", callbackURL: "/dash" } });
    expect(flow.callback.headers.get("location")).toBe("/dash");
    const replayURL = (await oidc.authorize(flow.start.body.url, user.sub)) as { location: string };
    await owner.get(replayURL.location);
    const replay = await owner.get(replayURL.location);
    expect(replay.headers.get("location")).toBe(`${errorPage()}?error=state_not_found`);
  });

  it("state_not_found once the 10-minute state has expired", async () => {
    const { browser, state } = await started();
    server.clock.advance(601);
    try {
      const res = await browser.get(`/callback/oidc?code=abc&state=${state}&iss=${encodeURIComponent(oidc.issuer)}`);
      expect(res.headers.get("location")).toBe(`${errorPage()}?error=state_not_found`);
    } finally {
      server.clock.advance(-601);
    }
  });

  it("forwards the provider's error (the user denied) to errorCallbackURL", async () => {
    const user = oidc.addUser();
    const { callback } = await socialFlow(server.browser(), oidc, user.sub, {
      body: { provider: "oidc", errorCallbackURL: "/oops?from=login" },
      deny: true,
    });
    const location = locationOf(callback);
    expect(location.pathname).toBe("/oops");
    expect(location.searchParams.get("from")).toBe("login");
    expect(location.searchParams.get("error")).toBe("access_denied");
    expect(location.searchParams.get("error_description")).toBe("The user denied the request");
  });

  it("no_code, oauth_provider_not_found, invalid_callback_request and invalid_code", async () => {
    const iss = encodeURIComponent(oidc.issuer);
    let { browser, state } = await started();
    expect((await browser.get(`/callback/oidc?state=${state}`)).headers.get("location")).toBe("/oops?error=no_code");

    ({ browser, state } = await started());
    const wrong = await browser.get(`/callback/formpost?state=${state}&code=abc&iss=${iss}`);
    expect(wrong.headers.get("location")).toBe("/oops?error=oauth_provider_not_found");

    ({ browser, state } = await started());
    const unknown = await browser.get(`/callback/nope?state=${state}&code=abc&iss=${iss}`);
    expect(unknown.headers.get("location")).toBe("/oops?error=oauth_provider_not_found");

    // RFC 9207: the provider names itself in `iss`; a response naming another issuer is refused.
    ({ browser, state } = await started());
    const mixup = await browser.get(
      `/callback/oidc?state=${state}&code=abc&iss=${encodeURIComponent("https://evil.test")}`,
    );
    expect(mixup.headers.get("location")).toBe("/oops?error=invalid_callback_request");

    ({ browser, state } = await started());
    const bad = await browser.get(`/callback/oidc?state=${state}&code=not-a-real-code&iss=${iss}`);
    expect(bad.headers.get("location")).toBe("/oops?error=invalid_code");
  });

  it("unable_to_get_user_info when the user-info endpoint fails", async () => {
    const user = oidc.addUser();
    const { callback } = await socialFlow(server.browser(), oidc, user.sub, {
      body: { provider: "noinfo", errorCallbackURL: "/oops" },
    });
    expect(callback.headers.get("location")).toBe("/oops?error=unable_to_get_user_info");
  });

  it("email_not_found when the provider has no email for the user", async () => {
    const user = oidc.addUser({ email: undefined });
    const { callback } = await socialFlow(server.browser(), oidc, user.sub, {
      body: { provider: "oidc", errorCallbackURL: "/oops" },
    });
    expect(callback.headers.get("location")).toBe("/oops?error=email_not_found");
  });

  it("signup_disabled for a new user on a provider with disableSignUp, with nothing created", async () => {
    const user = oidc.addUser();
    const { callback } = await socialFlow(server.browser(), oidc, user.sub, {
      body: { provider: "closed", errorCallbackURL: "/oops" },
    });
    expect(callback.headers.get("location")).toBe("/oops?error=signup_disabled");
    expect(await userByEmail(user.email!)).toBeUndefined();
  });

  it("no_callback_url when the stored state carries no usable callbackURL", async () => {
    const state = "S".repeat(32);
    const now = new Date();
    await db()
      .insertInto("verification")
      .values({
        id: `state-${Date.now()}`,
        identifier: `auth-state:${createHash("sha256").update(state).digest("base64url")}`,
        value: JSON.stringify({
          providerId: "oidc",
          callbackURL: "https://evil.test/",
          codeVerifier: "v",
          nonce: null,
          scopes: [],
        }),
        expiresAt: new Date(now.getTime() + 60_000),
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    const browser = server.browser();
    browser.setCookie("gatehouse.state", encodeURIComponent(signValue(state, TEST_SECRET)));
    const res = await browser.get(`/callback/oidc?state=${state}&code=abc`);
    expect(res.headers.get("location")).toBe(`${errorPage()}?error=no_callback_url`);
  });

  it("unable_to_create_user and unable_to_create_session when the database refuses the write", async () => {
    const user = oidc.addUser();
    let undo = await refuseWrites(server, { table: "user", op: "INSERT", column: "email", equals: user.email! });
    try {
      const { callback } = await socialFlow(server.browser(), oidc, user.sub, {
        body: { provider: "oidc", errorCallbackURL: "/oops" },
      });
      expect(callback.headers.get("location")).toBe("/oops?error=unable_to_create_user");
    } finally {
      await undo();
    }
    await socialFlow(server.browser(), oidc, user.sub, { body: { provider: "oidc" } });
    const dbUser = await userByEmail(user.email!);
    undo = await refuseWrites(server, { table: "session", op: "INSERT", column: "userId", equals: dbUser!.id });
    try {
      const browser = server.browser();
      const { callback } = await socialFlow(browser, oidc, user.sub, {
        body: { provider: "oidc", errorCallbackURL: "/oops" },
      });
      expect(callback.headers.get("location")).toBe("/oops?error=unable_to_create_session");
      expect(callback.setCookies.some((l) => l.startsWith("gatehouse.session_token=") && !/Max-Age=0/.test(l))).toBe(
        false,
      );
    } finally {
      await undo();
    }
  });

  it("banned: a banned user gets no session from a provider", async () => {
    const user = oidc.addUser();
    await socialFlow(server.browser(), oidc, user.sub, { body: { provider: "oidc" } });
    await db().updateTable("user").set({ banned: true, banReason: "spam" }).where("email", "=", user.email!).execute();
    const browser = server.browser();
    const { callback } = await socialFlow(browser, oidc, user.sub, {
      body: { provider: "oidc", errorCallbackURL: "/oops" },
    });
    expect(callback.headers.get("location")).toBe("/oops?error=banned");
    expect((await browser.get("/get-session")).body).toBeNull();
  });

  it("an unexpected failure goes to /error?error=internal_server_error and is logged", async () => {
    const { browser, state } = await started();
    const undo = await refuseWrites(server, { table: "verification", op: "DELETE" });
    try {
      const res = await browser.get(`/callback/oidc?state=${state}&code=abc`);
      expect(res.headers.get("location")).toBe(`${errorPage()}?error=internal_server_error`);
      expect(server.loggedErrors).toHaveLength(1);
    } finally {
      server.loggedErrors.length = 0;
      await undo();
    }
  });
});

describe("implicit account linking", () => {
  async function localUser(verified: boolean) {
    const local = await signUp(server, { email: `local-${Math.random().toString(36).slice(2, 9)}@example.com` });
    if (verified) await db().updateTable("user").set({ emailVerified: true }).where("id", "=", local.user.id).execute();
    return local;
  }

  it("links when the provider verified the email and the local email is verified", async () => {
    const local = await localUser(true);
    const user = oidc.addUser({ email: local.email, email_verified: true });
    const browser = server.browser();
    const { callback } = await socialFlow(browser, oidc, user.sub, {
      body: { provider: "oidc", callbackURL: "/dash", newUserCallbackURL: "/welcome" },
    });
    expect(callback.headers.get("location")).toBe("/dash");
    expect((await browser.get("/get-session")).body.user.id).toBe(local.user.id);
    expect((await accountsOf(local.user.id)).map((a) => a.providerId).sort()).toEqual(["credential", "oidc"]);
  });

  it("refuses (account_not_linked) when the provider does not vouch for the email: no takeover", async () => {
    const local = await localUser(true);
    const user = oidc.addUser({ email: local.email, email_verified: false });
    const browser = server.browser();
    const { callback } = await socialFlow(browser, oidc, user.sub, {
      body: { provider: "oidc", errorCallbackURL: "/oops" },
    });
    expect(callback.headers.get("location")).toBe("/oops?error=account_not_linked");
    expect(await browser.get("/get-session").then((r) => r.body)).toBeNull();
    expect(await accountsOf(local.user.id)).toHaveLength(1);
  });

  it("refuses when the local email is unverified (someone else may have registered the address)", async () => {
    const local = await localUser(false);
    const user = oidc.addUser({ email: local.email, email_verified: true });
    const { callback } = await socialFlow(server.browser(), oidc, user.sub, {
      body: { provider: "oidc", errorCallbackURL: "/oops" },
    });
    expect(callback.headers.get("location")).toBe("/oops?error=account_not_linked");
  });

  it("a trusted provider links even without the provider's email_verified", async () => {
    const local = await localUser(true);
    const user = oidc.addUser({ email: local.email, email_verified: false });
    const browser = server.browser();
    const { callback } = await socialFlow(browser, oidc, user.sub, {
      body: { provider: "trusted", callbackURL: "/dash" },
    });
    expect(callback.headers.get("location")).toBe("/dash");
    expect((await browser.get("/get-session")).body.user.id).toBe(local.user.id);
  });

  it("a new user with an unverified provider email is created unverified", async () => {
    const user = oidc.addUser({ email_verified: false });
    const browser = server.browser();
    await socialFlow(browser, oidc, user.sub, { body: { provider: "oidc" } });
    expect((await browser.get("/get-session")).body.user).toMatchObject({ email: user.email, emailVerified: false });
  });
});

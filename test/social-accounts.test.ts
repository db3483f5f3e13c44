import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestBrowser } from "./helpers/browser.js";
import { startOidcProvider, type TestOidcProvider } from "./helpers/oidc.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";
import { providerOptions, socialFlow } from "./helpers/social.js";

let oidc: TestOidcProvider;
let server: TestServer;
/** Linking options turned the other way: different emails and unlinking everything allowed. */
let permissive: TestServer;
/** account.accountLinking.enabled = false. */
let noLinking: TestServer;
const OFFLINE_SCOPES = ["openid", "email", "profile", "offline_access"];

beforeAll(async () => {
  oidc = await startOidcProvider();
  server = await startTestServer({
    options: {
      socialProviders: {
        oidc: providerOptions(oidc),
        // offline_access needs prompt=consent at an OpenID provider; then a refresh token is issued.
        offline: providerOptions(oidc, { prompt: "consent", scopes: OFFLINE_SCOPES }),
      },
    },
  });
  permissive = await startTestServer({
    options: {
      account: { accountLinking: { allowDifferentEmails: true, allowUnlinkingAll: true } },
      socialProviders: { oidc: providerOptions(oidc) },
    },
  });
  noLinking = await startTestServer({
    options: { account: { accountLinking: { enabled: false } }, socialProviders: { oidc: providerOptions(oidc) } },
  });
  await oidc.configure([
    ...["oidc", "offline"].map((id) => `${server.origin}/api/auth/callback/${id}`),
    `${permissive.origin}/api/auth/callback/oidc`,
    `${noLinking.origin}/api/auth/callback/oidc`,
  ]);
});
afterAll(async () => {
  await permissive?.close();
  await noLinking?.close();
  await server?.close();
  await oidc?.close();
});
afterEach(() => {
  expect(server.loggedErrors).toEqual([]);
  expect(permissive.loggedErrors).toEqual([]);
  expect(noLinking.loggedErrors).toEqual([]);
});

const db = () => server.auth.database.db;

/** A user signed up through a provider; returns their browser and account row. */
async function socialUser(provider = "offline") {
  const user = oidc.addUser();
  const browser = server.browser();
  await socialFlow(browser, oidc, user.sub, { body: { provider, callbackURL: "/dash" } });
  const session = await browser.get("/get-session");
  const account = await db()
    .selectFrom("account")
    .selectAll()
    .where("userId", "=", session.body.user.id)
    .executeTakeFirstOrThrow();
  return { browser, user, userId: session.body.user.id as string, account };
}

/** Links the provider user `sub` to the browser's user through /link-social. */
async function linkFlow(browser: TestBrowser, sub: string, body: Record<string, unknown> = {}) {
  return socialFlow(browser, oidc, sub, {
    path: "/link-social",
    body: { provider: "oidc", callbackURL: "/settings", errorCallbackURL: "/oops", ...body },
  });
}

describe("GET /list-accounts", () => {
  it("lists the caller's accounts with scopes and never a token", async () => {
    const { browser, user, userId, account } = await socialUser();
    const res = await browser.get("/list-accounts");
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: account.id,
        provider: "offline",
        providerId: "offline",
        accountId: user.sub,
        userId,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        scopes: OFFLINE_SCOPES,
      },
    ]);
    expect(JSON.stringify(res.body)).not.toMatch(/token/i);
    expect((await server.browser().get("/list-accounts")).status).toBe(401);
  });
});

describe("provider tokens", () => {
  it("get-access-token returns the stored token by row id or by providerId, refreshing only near expiry", async () => {
    const { browser, account } = await socialUser();
    const stored = server.auth.context.tokenCipher.decrypt(account.accessToken!);
    const byRow = await browser.post("/get-access-token", { accountId: account.id });
    expect(byRow.status).toBe(200);
    expect(byRow.body).toMatchObject({ accessToken: stored, scopes: OFFLINE_SCOPES, idToken: expect.any(String) });
    const byProvider = await browser.post("/get-access-token", { providerId: "offline" });
    expect(byProvider.body.accessToken).toBe(stored);

    // 3600 s lifetime: 3 s before expiry the token is refreshed first (SPEC: within 5 seconds).
    server.clock.advance(3597);
    try {
      const refreshed = await browser.post("/get-access-token", { accountId: account.id });
      expect(refreshed.status).toBe(200);
      expect(refreshed.body.accessToken).not.toBe(stored);
      const row = await db().selectFrom("account").selectAll().where("id", "=", account.id).executeTakeFirstOrThrow();
      expect(server.auth.context.tokenCipher.decrypt(row.accessToken!)).toBe(refreshed.body.accessToken);
      expect(row.accessToken).not.toContain(refreshed.body.accessToken.slice(0, 10));
    } finally {
      server.clock.advance(-3597);
    }
  });

  it("refresh-token always refreshes and answers with the row id", async () => {
    const { browser, account } = await socialUser();
    const before = server.auth.context.tokenCipher.decrypt(account.accessToken!);
    const res = await browser.post("/refresh-token", { providerId: "offline", accountId: account.accountId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      accessTokenExpiresAt: expect.any(String),
      scope: OFFLINE_SCOPES.join(","),
      providerId: "offline",
      accountId: account.id,
    });
    expect(res.body.accessToken).not.toBe(before);
    // The new access token works at the provider.
    const info = await browser.post("/account-info", { accountId: account.id });
    expect(info.status).toBe(200);
  });

  it("account-info reads the provider's user, as POST {accountId} and as GET ?accountId=", async () => {
    const { browser, user, account } = await socialUser();
    const post = await browser.post("/account-info", { accountId: account.id });
    expect(post.status).toBe(200);
    expect(post.body.user).toMatchObject({ id: user.sub, email: user.email, name: user.name, emailVerified: true });
    expect(post.body.data).toMatchObject({ sub: user.sub, email: user.email });
    expect(post.body.account).toEqual({ id: account.id, providerId: "offline", accountId: user.sub });
    const get = await browser.get(`/account-info?accountId=${account.id}`);
    expect(get.body.user).toEqual(post.body.user);
    const bad = await browser.get("/account-info");
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("VALIDATION_ERROR");
  });

  it("every account route takes the row id or the provider's account id, narrowed by providerId", async () => {
    const { browser, user, account } = await socialUser();
    const named = [
      `accountId=${account.id}&providerId=offline`,
      `accountId=${encodeURIComponent(user.sub)}&providerId=offline`,
      `accountId=${encodeURIComponent(user.sub)}`,
    ];
    for (const query of named) {
      const res = await browser.get(`/account-info?${query}`);
      expect(res.status).toBe(200);
      expect(res.body.account.id).toBe(account.id);
    }
    for (const path of ["/get-access-token", "/refresh-token", "/account-info", "/unlink-account"]) {
      const narrowed = await browser.post(path, { providerId: "oidc", accountId: account.id });
      expect(narrowed.status).toBe(400);
      expect(narrowed.body.code).toBe("ACCOUNT_NOT_FOUND");
    }
    const token = await browser.post("/get-access-token", { providerId: "offline", accountId: user.sub });
    expect(token.body.accessToken).toEqual(expect.any(String));
    const refreshed = await browser.post("/refresh-token", { accountId: user.sub });
    expect(refreshed.body).toMatchObject({ providerId: "offline", accountId: account.id });
    const last = await browser.post("/unlink-account", { providerId: "offline", accountId: account.id });
    expect(last.body.code).toBe("FAILED_TO_UNLINK_LAST_ACCOUNT");
  });

  it("a session is required: a userId never reaches another user's tokens", async () => {
    const victim = await socialUser();
    const anonymous = server.browser();
    for (const path of ["/get-access-token", "/refresh-token", "/account-info"]) {
      const neither = await anonymous.post(path, { accountId: victim.account.id });
      expect(neither.status).toBe(400);
      expect(neither.body).toEqual({
        code: "USER_ID_OR_SESSION_REQUIRED",
        message: "Either userId or session is required",
      });
      const withUserId = await anonymous.post(path, { accountId: victim.account.id, userId: victim.userId });
      expect(withUserId.status).toBe(401);
    }
    const other = await signUp(server);
    const res = await other.browser.post("/get-access-token", { accountId: victim.account.id, userId: victim.userId });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("ACCOUNT_NOT_FOUND");
  });

  it("PROVIDER_NOT_SUPPORTED for a credential account, REFRESH_TOKEN_NOT_FOUND without a refresh token", async () => {
    const local = await signUp(server);
    const res = await local.browser.post("/get-access-token", { providerId: "credential" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "PROVIDER_NOT_SUPPORTED", message: "Provider credential is not supported" });

    const { browser } = await socialUser("oidc");
    const refresh = await browser.post("/refresh-token", { providerId: "oidc" });
    expect(refresh.status).toBe(400);
    expect(refresh.body.code).toBe("REFRESH_TOKEN_NOT_FOUND");
  });
});

describe("POST /link-social", () => {
  it("links a provider account to the signed-in user and returns to callbackURL without a new session", async () => {
    const local = await signUp(server);
    const provider = oidc.addUser({ email: local.email, email_verified: true });
    const { start, callback } = await linkFlow(local.browser, provider.sub);
    expect(start.body.redirect).toBe(true);
    expect(callback.headers.get("location")).toBe("/settings");
    expect(callback.setCookies.some((l) => l.startsWith("gatehouse.session_token="))).toBe(false);
    const accounts = await local.browser.get("/list-accounts");
    expect(accounts.body.map((a: any) => a.providerId).sort()).toEqual(["credential", "oidc"]);
    expect((await local.browser.get("/get-session")).body.user.id).toBe(local.user.id);
  });

  it("refuses a different email, an unverified provider email, and another user's provider account", async () => {
    const local = await signUp(server);
    const different = oidc.addUser({ email_verified: true });
    expect((await linkFlow(local.browser, different.sub)).callback.headers.get("location")).toBe(
      "/oops?error=email_does_not_match",
    );
    const unverified = oidc.addUser({ email: local.email, email_verified: false });
    expect((await linkFlow(local.browser, unverified.sub)).callback.headers.get("location")).toBe(
      "/oops?error=unable_to_link_account",
    );
    const owner = await socialUser("oidc");
    const taken = await linkFlow(local.browser, owner.user.sub);
    expect(taken.callback.headers.get("location")).toBe("/oops?error=account_already_linked_to_different_user");
    expect((await local.browser.get("/list-accounts")).body).toHaveLength(1);
  });

  it("refuses to finish a link after the browser signed out", async () => {
    const local = await signUp(server);
    const provider = oidc.addUser({ email: local.email });
    const start = await local.browser.post("/link-social", { provider: "oidc", errorCallbackURL: "/oops" });
    await local.browser.post("/sign-out", {});
    const result = await oidc.authorize(start.body.url, provider.sub);
    const callback = await local.browser.get((result as { location: string }).location);
    expect(callback.headers.get("location")).toBe("/oops?error=unable_to_link_account");
    expect(await db().selectFrom("account").select("id").where("accountId", "=", provider.sub).execute()).toHaveLength(
      0,
    );
  });

  it("needs a session (401) and a configured provider (404)", async () => {
    expect((await server.browser().post("/link-social", { provider: "oidc" })).status).toBe(401);
    const local = await signUp(server);
    const res = await local.browser.post("/link-social", { provider: "nope" });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("PROVIDER_NOT_FOUND");
  });

  it("links at once with an ID token; another user's provider account is 409", async () => {
    const local = await signUp(server);
    const provider = oidc.addUser({ email: local.email });
    const token = await oidc.idToken(provider.sub);
    const res = await local.browser.post("/link-social", { provider: "oidc", idToken: { token } });
    expect(res.body).toEqual({ url: "", status: true, redirect: false });
    const other = await signUp(server);
    const conflict = await other.browser.post("/link-social", { provider: "oidc", idToken: { token } });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe("SOCIAL_ACCOUNT_ALREADY_LINKED");
  });
});

describe("POST /unlink-account", () => {
  it("refuses to unlink the last account", async () => {
    const { browser, account } = await socialUser("oidc");
    const res = await browser.post("/unlink-account", { accountId: account.id });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "FAILED_TO_UNLINK_LAST_ACCOUNT", message: "You can't unlink your last account" });
  });

  it("unlinks one of two accounts, by row id or by providerId", async () => {
    const local = await signUp(server);
    const provider = oidc.addUser({ email: local.email });
    await linkFlow(local.browser, provider.sub);
    const res = await local.browser.post("/unlink-account", { providerId: "oidc" });
    expect(res.body).toEqual({ status: true });
    const left = await local.browser.get("/list-accounts");
    expect(left.body.map((a: any) => a.providerId)).toEqual(["credential"]);
    const again = await local.browser.post("/unlink-account", { accountId: left.body[0].id });
    expect(again.body.code).toBe("FAILED_TO_UNLINK_LAST_ACCOUNT");
    const unknown = await local.browser.post("/unlink-account", { accountId: "no-such-account" });
    expect(unknown.body.code).toBe("ACCOUNT_NOT_FOUND");
  });

  it("needs a fresh session", async () => {
    const local = await signUp(server);
    server.clock.advance(86_401);
    try {
      const res = await local.browser.post("/unlink-account", { providerId: "credential" });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("SESSION_NOT_FRESH");
    } finally {
      server.clock.advance(-86_401);
    }
  });
});

describe("account.accountLinking options", () => {
  it("allowDifferentEmails links a provider account with another email; allowUnlinkingAll unlinks the last", async () => {
    const local = await signUp(permissive);
    const other = oidc.addUser({ email_verified: true });
    const { callback } = await linkFlow(local.browser, other.sub);
    expect(callback.headers.get("location")).toBe("/settings");
    const accounts = await local.browser.get("/list-accounts");
    expect(accounts.body).toHaveLength(2);
    for (const account of accounts.body) {
      const res = await local.browser.post("/unlink-account", { accountId: account.id });
      expect(res.body).toEqual({ status: true });
    }
    expect((await local.browser.get("/list-accounts")).body).toEqual([]);
  });

  it("enabled: false refuses implicit and explicit linking", async () => {
    const local = await signUp(noLinking);
    await noLinking.auth.database.db
      .updateTable("user")
      .set({ emailVerified: true })
      .where("id", "=", local.user.id)
      .execute();
    const same = oidc.addUser({ email: local.email, email_verified: true });
    const implicit = await socialFlow(noLinking.browser(), oidc, same.sub, {
      body: { provider: "oidc", errorCallbackURL: "/oops" },
    });
    expect(implicit.callback.headers.get("location")).toBe("/oops?error=account_not_linked");
    const explicit = await linkFlow(local.browser, same.sub);
    expect(explicit.callback.headers.get("location")).toBe("/oops?error=unable_to_link_account");
    expect((await local.browser.get("/list-accounts")).body).toHaveLength(1);
  });
});

describe("provider discovery", () => {
  it("fetched each provider's discovery document once for all the flows above", () => {
    const discoveries = oidc.requests.filter((path) => path === "/.well-known/openid-configuration");
    expect(discoveries.length).toBeGreaterThan(0);
    // Two providers on the main server, one on each of the two others.
    expect(discoveries.length).toBeLessThanOrEqual(4);
  });
});

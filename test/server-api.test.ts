import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { apiEndpoints } from "../src/contract/endpoints/api-names.js";
import { allEndpoints } from "../src/contract/endpoints/index.js";
import { signValue } from "../src/server/crypto/signed-value.js";
import type { AuthError } from "../src/server/errors.js";
import { signUp, startTestServer, TEST_SECRET, type TestServer } from "./helpers/server.js";

/**
 * auth.api: in-process calls with the routes' rules. Each refusal is compared with what the route
 * answers for the same input, so the two cannot drift apart.
 */

let server: TestServer;
let counter = 0;
const uniqueEmail = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${counter++}@example.com`;
const PASSWORD = "correct horse battery";

/** The AuthError a call throws (fails the test when it resolves). */
async function refusal(call: Promise<unknown>): Promise<AuthError> {
  try {
    await call;
  } catch (error) {
    return error as AuthError;
  }
  throw new Error("the call was expected to throw");
}

async function makeAdmin() {
  const account = await signUp(server, { email: uniqueEmail("admin") });
  await server.auth.database.db.updateTable("user").set({ role: "admin" }).where("id", "=", account.user.id).execute();
  return { ...account, headers: new Headers({ cookie: account.browser.cookieHeader() }) };
}

const headersOf = (account: { browser: { cookieHeader(): string } }) => ({ cookie: account.browser.cookieHeader() });

beforeAll(async () => {
  server = await startTestServer({
    options: {
      organization: { teams: { enabled: true } },
      twoFactor: { enabled: true, skipVerificationOnEnable: true },
    },
  });
});
afterAll(() => server.close());
afterEach(() => expect(server.loggedErrors).toEqual([]));

describe("signUpEmail and signInEmail", () => {
  it("sign-up answers the session token and the user; the token is a working session", async () => {
    const email = uniqueEmail("up");
    const result = await server.auth.api.signUpEmail({ body: { name: "Ada", email, password: PASSWORD } });
    expect(result.user).toMatchObject({ email, name: "Ada", emailVerified: false });
    expect(result.user.createdAt).toBeInstanceOf(Date);
    expect(result.token).toEqual(expect.any(String));
    // The embedding server sets its own cookie: the signed token is the route's session cookie.
    const browser = server.browser();
    browser.setCookie("gatehouse.session_token", signedToken(result.token ?? ""));
    expect((await browser.get("/get-session")).body.user.id).toBe(result.user.id);
  });

  it("sign-up refuses what the route refuses, with the same code and status", async () => {
    const taken = await signUp(server, { email: uniqueEmail("taken") });
    const cases: Record<string, unknown>[] = [
      { name: "X", email: "not-an-email", password: PASSWORD },
      { name: "X", email: uniqueEmail("short"), password: "short" },
      { name: "X", email: taken.email, password: PASSWORD },
      { email: uniqueEmail("noname"), password: PASSWORD },
      { name: "X", email: uniqueEmail("bad-image"), password: PASSWORD, image: 42 },
    ];
    for (const body of cases) {
      const viaRoute = await server.browser().post("/sign-up/email", body);
      const viaApi = await refusal(server.auth.api.signUpEmail({ body } as never));
      expect(viaRoute.status).toBeGreaterThanOrEqual(400);
      expect(viaRoute.status).toBeLessThan(500);
      expect([viaApi.status, viaApi.code]).toEqual([viaRoute.status, viaRoute.body.code]);
    }
  });

  it("sign-in answers the token and user; wrong password and unknown email are one refusal", async () => {
    const account = await signUp(server, { email: uniqueEmail("in") });
    const result = await server.auth.api.signInEmail({
      body: { email: account.email, password: PASSWORD },
      headers: { "user-agent": "server-test/1.0" },
    });
    if ("twoFactorRedirect" in result) throw new Error("no second factor expected");
    expect(result.user.id).toBe(account.user.id);
    expect(result.redirect).toBe(false);
    const session = await server.auth.api.getSession({
      headers: { cookie: `gatehouse.session_token=${signedToken(result.token)}` },
    });
    expect(session?.session).toMatchObject({ userId: account.user.id, userAgent: "server-test/1.0" });

    const wrong = await refusal(
      server.auth.api.signInEmail({ body: { email: account.email, password: "wrong password" } }),
    );
    const unknown = await refusal(
      server.auth.api.signInEmail({ body: { email: uniqueEmail("nobody"), password: PASSWORD } }),
    );
    expect([wrong.status, wrong.code]).toEqual([401, "INVALID_EMAIL_OR_PASSWORD"]);
    expect([unknown.status, unknown.code]).toEqual([401, "INVALID_EMAIL_OR_PASSWORD"]);
    const route = await server.browser().post("/sign-in/email", { email: account.email, password: "wrong password" });
    expect([route.status, route.body.code]).toEqual([401, "INVALID_EMAIL_OR_PASSWORD"]);

    const invalid = await refusal(server.auth.api.signInEmail({ body: { email: account.email } } as never));
    expect([invalid.status, invalid.code]).toEqual([400, "VALIDATION_ERROR"]);
  });

  it("a banned user gets BANNED_USER, not a session", async () => {
    const admin = await makeAdmin();
    const account = await signUp(server, { email: uniqueEmail("banned") });
    expect((await admin.browser.post("/admin/ban-user", { userId: account.user.id, banReason: "spam" })).status).toBe(
      200,
    );
    const error = await refusal(server.auth.api.signInEmail({ body: { email: account.email, password: PASSWORD } }));
    expect([error.status, error.code]).toEqual([403, "BANNED_USER"]);
    const route = await server.browser().post("/sign-in/email", { email: account.email, password: PASSWORD });
    expect([route.status, route.body.code]).toEqual([403, "BANNED_USER"]);
  });

  it("a user with two-factor on gets the second-factor answer and no session is created", async () => {
    const account = await signUp(server, { email: uniqueEmail("tf"), verified: true });
    expect((await account.browser.post("/two-factor/enable", { password: PASSWORD })).status).toBe(200);
    const before = await countSessions(account.user.id);
    const result = await server.auth.api.signInEmail({ body: { email: account.email, password: PASSWORD } });
    expect(result).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp", "otp"] });
    expect(await countSessions(account.user.id)).toBe(before);
  });

  it("a switched-off route is NOT_FOUND through the API as over HTTP", async () => {
    const off = await startTestServer({
      options: { emailAndPassword: { disableSignUp: true }, admin: { enabled: false } },
    });
    try {
      const error = await refusal(
        off.auth.api.signUpEmail({ body: { name: "X", email: uniqueEmail("off"), password: PASSWORD } }),
      );
      expect(error.code).toBe("EMAIL_PASSWORD_SIGN_UP_DISABLED");
      const admin = await refusal(off.auth.api.listUserSessions({ body: { userId: "x" }, headers: {} }));
      expect([admin.status, admin.code]).toEqual([404, "NOT_FOUND"]);
      expect((await off.browser().post("/admin/list-user-sessions", { userId: "x" })).status).toBe(404);
    } finally {
      await off.close();
    }
  });
});

describe("admin calls act as the admin whose session the headers carry", () => {
  it("createUser, listUserSessions and revokeUserSessions", async () => {
    const admin = await makeAdmin();
    const email = uniqueEmail("made");
    const { user } = await server.auth.api.createUser({
      headers: admin.headers,
      body: { email, name: "Made", password: PASSWORD, role: "user" },
    });
    expect(user).toMatchObject({ email, name: "Made", role: "user" });

    const signedIn = await server.browser().post("/sign-in/email", { email, password: PASSWORD });
    expect(signedIn.status).toBe(200);
    const listed = await server.auth.api.listUserSessions({ headers: admin.headers, body: { userId: user.id } });
    expect(listed.sessions).toHaveLength(1);
    expect(listed.sessions[0]).toMatchObject({ userId: user.id });

    expect(await server.auth.api.revokeUserSessions({ headers: admin.headers, body: { userId: user.id } })).toEqual({
      success: true,
    });
    const after = await server.auth.api.listUserSessions({ headers: admin.headers, body: { userId: user.id } });
    expect(after.sessions).toEqual([]);

    const audit = await admin.browser.get(`/admin/list-audit-log?targetUserId=${user.id}`);
    expect(audit.body.entries.map((e: { action: string }) => e.action).sort()).toEqual([
      "session.revoke-all",
      "user.create",
    ]);
  });

  it("refuses a plain user (403, the route's code), no session (401) and bad input (400)", async () => {
    const plain = await signUp(server, { email: uniqueEmail("plain") });
    const target = await signUp(server, { email: uniqueEmail("target") });
    const calls = {
      create: (headers: HeadersInit) =>
        server.auth.api.createUser({ headers, body: { email: uniqueEmail("x"), name: "X", password: PASSWORD } }),
      list: (headers: HeadersInit) => server.auth.api.listUserSessions({ headers, body: { userId: target.user.id } }),
      revoke: (headers: HeadersInit) =>
        server.auth.api.revokeUserSessions({ headers, body: { userId: target.user.id } }),
    };
    const codes = {
      create: "YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS",
      list: "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS",
      revoke: "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS",
    };
    for (const [name, call] of Object.entries(calls) as [keyof typeof calls, (h: HeadersInit) => Promise<unknown>][]) {
      const forbidden = await refusal(call(headersOf(plain)));
      expect([forbidden.status, forbidden.code]).toEqual([403, codes[name]]);
      const anonymous = await refusal(call({}));
      expect([anonymous.status, anonymous.code]).toEqual([401, "UNAUTHORIZED"]);
      const forged = await refusal(call({ cookie: "gatehouse.session_token=forged.value" }));
      expect(forged.code).toBe("UNAUTHORIZED");
    }
    const route = await plain.browser.post("/admin/revoke-user-sessions", { userId: target.user.id });
    expect([route.status, route.body.code]).toEqual([403, codes.revoke]);
    // The target still has their session: nothing changed.
    expect((await target.browser.get("/get-session")).body?.user.id).toBe(target.user.id);

    const admin = await makeAdmin();
    const bad = await refusal(
      server.auth.api.createUser({ headers: admin.headers, body: { email: "nope", name: "X" } }),
    );
    expect([bad.status, bad.code]).toEqual([400, "INVALID_EMAIL"]);
    const missing = await refusal(server.auth.api.listUserSessions({ headers: admin.headers } as never));
    expect([missing.status, missing.code]).toEqual([400, "VALIDATION_ERROR"]);
  });
});

describe("organizations", () => {
  it("createOrganization for the caller's session (and it becomes active) or, without headers, for userId", async () => {
    const owner = await signUp(server, { email: uniqueEmail("owner") });
    const slug = `api-${counter++}-${Date.now().toString(36)}`;
    const org = await server.auth.api.createOrganization({ headers: headersOf(owner), body: { name: "Acme", slug } });
    expect(org).toMatchObject({ name: "Acme", slug });
    expect(org.members).toEqual([expect.objectContaining({ userId: owner.user.id, role: "owner" })]);
    const session = await owner.browser.get("/get-session?disableCookieCache=true");
    expect(session.body.session.activeOrganizationId).toBe(org.id);

    const other = await signUp(server, { email: uniqueEmail("other") });
    const forUser = await server.auth.api.createOrganization({
      body: { name: "Beta", slug: `${slug}-b`, userId: other.user.id },
    });
    expect(forUser.members[0]).toMatchObject({ userId: other.user.id, role: "owner" });

    const taken = await refusal(
      server.auth.api.createOrganization({ headers: headersOf(owner), body: { name: "Again", slug } }),
    );
    const route = await owner.browser.post("/organization/create", { name: "Again", slug });
    expect([taken.status, taken.code]).toEqual([route.status, route.body.code]);
    expect(taken.code).toBe("ORGANIZATION_ALREADY_EXISTS");

    const nobody = await refusal(server.auth.api.createOrganization({ body: { name: "N", slug: `${slug}-n` } }));
    expect([nobody.status, nobody.code]).toEqual([401, "UNAUTHORIZED"]);
    const deadHeaders = await refusal(
      server.auth.api.createOrganization({
        headers: {},
        body: { name: "N", slug: `${slug}-d`, userId: other.user.id },
      }),
    );
    expect(deadHeaders.code).toBe("UNAUTHORIZED");
    const forAnother = await refusal(
      server.auth.api.createOrganization({
        headers: headersOf(owner),
        body: { name: "N", slug: `${slug}-o`, userId: other.user.id },
      }),
    );
    expect([forAnother.status, forAnother.code]).toEqual([403, "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION"]);
    const invalid = await refusal(
      server.auth.api.createOrganization({ headers: headersOf(owner), body: { name: "", slug: "x" } }),
    );
    expect([invalid.status, invalid.code]).toEqual([400, "VALIDATION_ERROR"]);
  });

  it("hasPermission answers for the caller's role, refuses a non-member and a signed-out caller", async () => {
    const owner = await signUp(server, { email: uniqueEmail("perm-owner") });
    const member = await signUp(server, { email: uniqueEmail("perm-member") });
    const stranger = await signUp(server, { email: uniqueEmail("perm-stranger") });
    const org = await server.auth.api.createOrganization({
      headers: headersOf(owner),
      body: { name: "Perm", slug: `perm-${counter++}-${Date.now().toString(36)}` },
    });
    await server.auth.api.addMember({ body: { userId: member.user.id, role: "member", organizationId: org.id } });

    const ask = (account: typeof owner, permissions: Record<string, string[]>) =>
      server.auth.api.hasPermission({ headers: headersOf(account), body: { organizationId: org.id, permissions } });
    expect(await ask(owner, { organization: ["delete"] })).toEqual({ error: null, success: true });
    expect(await ask(member, { organization: ["delete"] })).toEqual({ error: null, success: false });
    expect(await ask(member, { member: ["create"] })).toEqual({ error: null, success: false });
    const viaRoute = await member.browser.post("/organization/has-permission", {
      organizationId: org.id,
      permissions: { organization: ["delete"] },
    });
    expect(viaRoute.body).toEqual({ error: null, success: false });

    const notMember = await refusal(ask(stranger, { organization: ["update"] }));
    const route = await stranger.browser.post("/organization/has-permission", {
      organizationId: org.id,
      permissions: { organization: ["update"] },
    });
    expect([notMember.status, notMember.code]).toEqual([route.status, route.body.code]);
    expect(notMember.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");

    const signedOut = await refusal(
      server.auth.api.hasPermission({
        headers: {},
        body: { organizationId: org.id, permissions: { organization: ["update"] } },
      }),
    );
    expect([signedOut.status, signedOut.code]).toEqual([401, "UNAUTHORIZED"]);
    const bad = await refusal(
      server.auth.api.hasPermission({
        headers: headersOf(owner),
        body: { organizationId: org.id, permissions: "all" as never },
      }),
    );
    expect([bad.status, bad.code]).toEqual([400, "VALIDATION_ERROR"]);

    // A revoked session no longer counts: the database is read, not a cached copy.
    const ownerHeaders = headersOf(owner);
    expect((await owner.browser.post("/revoke-sessions", {})).status).toBe(200);
    const revoked = await refusal(
      server.auth.api.hasPermission({
        headers: ownerHeaders,
        body: { organizationId: org.id, permissions: { organization: ["delete"] } },
      }),
    );
    expect(revoked.code).toBe("UNAUTHORIZED");
  });
});

describe("every endpoint in better-auth's call shape", () => {
  it("has one call per endpoint of the table, and the server-only calls", () => {
    const endpoints = Object.values(apiEndpoints);
    expect(new Set(endpoints)).toEqual(new Set(allEndpoints));
    expect(endpoints).toHaveLength(allEndpoints.length);
    const calls = Object.keys(server.auth.api).sort();
    expect(calls).toEqual([...Object.keys(apiEndpoints), "addMember", "setPassword"].sort());
    for (const name of calls) expect(typeof server.auth.api[name as keyof typeof server.auth.api]).toBe("function");
  });

  it("returnHeaders hands over the signed session cookie; a following getSession reads it", async () => {
    const account = await signUp(server, { email: uniqueEmail("cookie") });
    const { headers, response } = await server.auth.api.signInEmail({
      body: { email: account.email, password: PASSWORD },
      returnHeaders: true,
    });
    if ("twoFactorRedirect" in response) throw new Error("no second factor expected");
    expect(response.user.id).toBe(account.user.id);
    const cookie = cookiesOf(headers);
    expect(cookie).toContain("gatehouse.session_token=");
    const session = await server.auth.api.getSession({ headers: { cookie } });
    expect(session?.user.id).toBe(account.user.id);
    expect(session?.session.token).toBe(response.token);
    // The same cookie signs a browser in over HTTP.
    expect((await server.browser().get("/get-session", { headers: { cookie } })).body.user.id).toBe(account.user.id);
  });

  it("a second factor owed after a server-side sign-in is finished with the challenge cookie it hands on", async () => {
    const account = await signUp(server, { email: uniqueEmail("tf-cookie"), verified: true });
    const enabled = await account.browser.post("/two-factor/enable", { password: PASSWORD });
    const [code] = enabled.body.backupCodes as string[];
    const { headers, response } = await server.auth.api.signInEmail({
      body: { email: account.email, password: PASSWORD },
      returnHeaders: true,
    });
    expect(response).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp", "otp"] });
    const challenge = cookiesOf(headers);
    expect(challenge).toContain("gatehouse.two_factor=");
    const refused = await refusal(server.auth.api.verifyBackupCode({ body: { code: code ?? "" } }));
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const finished = await server.auth.api.verifyBackupCode({
      body: { code: code ?? "" },
      headers: { cookie: challenge },
      returnHeaders: true,
    });
    const session = await server.auth.api.getSession({ headers: { cookie: cookiesOf(finished.headers) } });
    expect(session?.user.id).toBe(account.user.id);
  });

  it("asResponse answers the route's Response, refusals included", async () => {
    const account = await signUp(server, { email: uniqueEmail("response") });
    const ok = await server.auth.api.signInEmail({
      body: { email: account.email, password: PASSWORD },
      asResponse: true,
    });
    expect(ok).toBeInstanceOf(Response);
    expect(ok.status).toBe(200);
    expect(ok.headers.getSetCookie().some((line) => line.startsWith("gatehouse.session_token="))).toBe(true);
    expect((await ok.json()).user.id).toBe(account.user.id);
    const refused = await server.auth.api.signInEmail({
      body: { email: account.email, password: "wrong password" },
      asResponse: true,
    });
    expect([refused.status, (await refused.json()).code]).toEqual([401, "INVALID_EMAIL_OR_PASSWORD"]);
  });

  it("reads and writes an organization with the caller's headers", async () => {
    const owner = await signUp(server, { email: uniqueEmail("org-api"), verified: true });
    const headers = headersOf(owner);
    const org = await server.auth.api.createOrganization({
      headers,
      body: { name: "Calls", slug: `calls-${counter++}-${Date.now().toString(36)}` },
    });
    const invited = uniqueEmail("invited");
    const invitation = await server.auth.api.createInvitation({
      headers,
      body: { email: invited, role: "member", organizationId: org.id },
    });
    expect(invitation).toMatchObject({ email: invited, organizationId: org.id, status: "pending" });
    const members = await server.auth.api.listMembers({ headers, query: { organizationId: org.id } });
    expect(members.members.map((m) => m.userId)).toEqual([owner.user.id]);
    expect(members.members[0]?.createdAt).toBeInstanceOf(Date);
    const full = await server.auth.api.getFullOrganization({ headers, query: { organizationId: org.id } });
    expect(full?.invitations.map((i) => i.email)).toEqual([invited]);
    const stranger = await signUp(server, { email: uniqueEmail("org-stranger") });
    const refused = await refusal(
      server.auth.api.listMembers({ headers: headersOf(stranger), query: { organizationId: org.id } }),
    );
    const route = await stranger.browser.get(`/organization/list-members?organizationId=${org.id}`);
    expect([refused.status, refused.code]).toEqual([route.status, route.body.code]);
  });

  it("trusts the server: no browser origin check and no rate limit, but redirect targets are checked", async () => {
    const limited = await startTestServer({ options: { rateLimit: { enabled: true } } });
    try {
      const account = await signUp(limited, { email: uniqueEmail("trusted") });
      const foreign = { origin: "https://evil.example", "sec-fetch-site": "cross-site", "sec-fetch-mode": "cors" };
      const route = await limited
        .browser()
        .post("/sign-in/email", { email: account.email, password: PASSWORD }, { headers: foreign });
      expect(route.body.code).toBe("INVALID_ORIGIN");
      // The credential class allows 3 tries per 10 s over HTTP; the server's own calls are not counted.
      for (let i = 0; i < 5; i += 1) {
        const result = await limited.auth.api.signInEmail({
          body: { email: account.email, password: PASSWORD },
          headers: foreign,
        });
        expect("token" in result && result.token).toBeTruthy();
      }
      const redirect = await refusal(
        limited.auth.api.signInEmail({
          body: { email: account.email, password: PASSWORD, callbackURL: "https://evil.example/next" },
        }),
      );
      expect([redirect.status, redirect.code]).toEqual([403, "INVALID_CALLBACK_URL"]);
    } finally {
      await limited.close();
    }
  });

  it("refuses the flat shape and a bad body with 400 VALIDATION_ERROR in words", async () => {
    const flat = await refusal(server.auth.api.signInEmail({ email: "a@example.com", password: PASSWORD } as never));
    expect([flat.status, flat.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(flat.message).toContain("put email, password in body");
    const bad = await refusal(server.auth.api.signInEmail({ body: { email: 42, password: PASSWORD } } as never));
    expect([bad.status, bad.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(bad.message).toContain("[body.email]");
    const serverOnly = await refusal(server.auth.api.addMember({ body: { userId: "x" } } as never));
    expect([serverOnly.status, serverOnly.code]).toEqual([400, "VALIDATION_ERROR"]);
  });
});

async function countSessions(userId: string): Promise<number> {
  const rows = await server.auth.database.db.selectFrom("session").select("id").where("userId", "=", userId).execute();
  return rows.length;
}

/** The session cookie value for a token, signed the way the routes sign it. */
function signedToken(token: string): string {
  return encodeURIComponent(signValue(token, TEST_SECRET));
}

/** The Cookie header a browser would send back after these response headers. */
function cookiesOf(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}

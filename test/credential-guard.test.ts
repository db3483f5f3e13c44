import { URI } from "otpauth";
// Issue 28: who may add a credential or factor (impersonation, unverified accounts, recent proof).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { allEndpoints } from "../src/contract/endpoints/index.js";
import { RECENT_PROOF_SECONDS } from "../src/server/services/credential-guard.js";
import type { TestBrowser } from "./helpers/browser.js";
import { type MailCapture, startMailCapture } from "./helpers/mail.js";
import { nthMail, settledCount, uniqueEmail } from "./helpers/mail-flows.js";
import { EVERY_FEATURE_ON, signUp, startTestServer, type TestServer } from "./helpers/server.js";
import { SoftAuthenticator } from "./helpers/soft-authenticator.js";

let capture: MailCapture;
let server: TestServer;

beforeAll(async () => {
  capture = await startMailCapture();
  server = await startTestServer({ options: EVERY_FEATURE_ON, extra: { mail: { smtpUrl: capture.url } } });
});
afterAll(async () => {
  await server?.close();
  await capture?.close();
});
afterEach(() => expect(server.loggedErrors).toEqual([]));

/**
 * Signed-in routes an admin's impersonation session may still use, each for a reason: support work
 * that changes no credential (profile, organizations), or ends sessions rather than adds one. Every
 * other signed-in route must carry a `credentials` rule, so a new credential route cannot slip past.
 */
const IMPERSONATION_MAY = new Set([
  "GET /token",
  "POST /update-user",
  "POST /update-session",
  "GET /list-sessions",
  "POST /revoke-session",
  // Signing the user out everywhere adds nothing that outlives the impersonation.
  "POST /revoke-sessions",
  "POST /revoke-other-sessions",
  "GET /list-accounts",
  "POST /delete-anonymous-user",
  "GET /passkey/list-user-passkeys",
  // Reading and revoking an organization's SCIM connections adds no credential.
  "GET /scim/list-provider-connections",
  "GET /scim/get-provider-connection",
  "POST /scim/delete-provider-connection",
  // A group's mapping changes organization roles and teams, as /organization/ routes do; no credential.
  "GET /scim/list-groups",
  "POST /scim/update-group-mapping",
  // The people a connection provisioned, and its sync health: reads.
  "GET /scim/list-users",
  "GET /scim/connection-health",
  // Reading an organization's SSO connections changes nothing.
  "GET /sso/providers",
  "GET /sso/get-provider",
  // Testing a connection reads it and its issuer's discovery (through the issuer guard); it saves nothing.
  "POST /sso/test-connection",
  // A test sign-in writes no account, link, membership or session; its result is its starter's to read.
  "POST /sso/test-sign-in",
  "GET /sso/test-sign-in/result",
  // Reading the account's sign-ins and devices (as /list-sessions) changes nothing.
  "GET /security-activity",
  // Reading and revoking API keys adds no credential (creating and updating one refuse it themselves).
  "GET /api-key/get",
  "GET /api-key/list",
  "POST /api-key/delete",
  // Reading OAuth clients and consents, withdrawing a consent or denying a device take access away.
  "GET /oauth2/get-clients",
  "GET /oauth2/get-client",
  "GET /oauth2/get-consents",
  // A client's name, home page and logo, as the consent page shows them: a read.
  "GET /oauth2/public-client",
  "POST /oauth2/delete-consent",
  "POST /device/deny",
]);
const mayImpersonate = (key: string) =>
  IMPERSONATION_MAY.has(key) || key.includes(" /organization/") || key.includes(" /admin/");

/** A body (or query) each guarded route accepts, so the answer is the guard's and not validation's. */
const SAMPLE_INPUT: Record<string, { body?: object; query?: string }> = {
  "POST /change-password": { body: { currentPassword: "correct horse battery", newPassword: "another long one" } },
  "POST /verify-password": { body: { password: "correct horse battery" } },
  "POST /change-email": { body: { newEmail: "elsewhere@example.com" } },
  "POST /delete-user": { body: { password: "correct horse battery" } },
  "POST /link-social": { body: { provider: "google" } },
  "POST /unlink-account": { body: { providerId: "credential" } },
  "POST /organization/create-setup-link": { body: { scopes: ["sso"] } },
  "POST /organization/revoke-setup-link": { body: { linkId: "no-such-link" } },
  "POST /two-factor/enable": { body: { password: "correct horse battery" } },
  "POST /two-factor/get-totp-uri": { body: { password: "correct horse battery" } },
  "POST /two-factor/disable": { body: { password: "correct horse battery" } },
  "POST /two-factor/generate-backup-codes": { body: { password: "correct horse battery" } },
  "GET /passkey/generate-register-options": {},
  "POST /passkey/verify-registration": { body: { response: { id: "x", type: "public-key" } } },
  "POST /passkey/update-passkey": { body: { id: "x", name: "renamed" } },
  "POST /passkey/delete-passkey": { body: { id: "x" } },
  "POST /scim/generate-token": { body: { providerId: "impersonated" } },
  "POST /scim/update-provider-connection": { body: { providerId: "impersonated", linkExistingMembers: true } },
  "POST /sso/register": {
    body: {
      providerId: "x",
      issuer: "https://idp.example.com",
      domain: "x.test",
      oidcConfig: { clientId: "c", clientSecret: "s" },
    },
  },
  "POST /sso/update-provider": { body: { providerId: "x" } },
  "POST /sso/delete-provider": { body: { providerId: "x" } },
  "POST /sso/confirm-provider-change": { body: { providerId: "x" } },
  "POST /sso/cancel-provider-change": { body: { providerId: "x" } },
  "POST /sso/request-domain-verification": { body: { providerId: "x" } },
  "POST /sso/verify-domain": { body: { providerId: "x" } },
  "POST /organization/create-webhook": { body: { url: "https://93.184.216.34/hooks", events: ["audit.entry"] } },
  "POST /organization/update-webhook": { body: { webhookId: "x", enabled: false } },
  "POST /organization/rotate-webhook-secret": { body: { webhookId: "x" } },
  "POST /organization/delete-webhook": { body: { webhookId: "x" } },
  "POST /organization/test-webhook": { body: { webhookId: "x" } },
  "POST /api-key/rotate": { body: { keyId: "x" } },
  "POST /oauth2/create-client": { body: { client_name: "x", redirect_uris: ["https://rp.example/cb"] } },
  "POST /oauth2/update-client": { body: { client_id: "x", update: { disabled: true } } },
  "POST /oauth2/client/rotate-secret": { body: { client_id: "x" } },
  "POST /oauth2/delete-client": { body: { client_id: "x" } },
  "POST /oauth2/consent": { body: { accept: true, oauth_query: "client_id=x" } },
  "POST /oauth2/continue": { body: { oauth_query: "client_id=x" } },
  "POST /device/approve": { body: { userCode: "BBBB-BBBB" } },
  "POST /admin/oauth2/create-client": { body: { client_name: "x", redirect_uris: ["https://rp.example/cb"] } },
  "POST /admin/oauth2/update-client": { body: { client_id: "x", update: { disabled: true } } },
  "POST /admin/oauth2/delete-client": { body: { client_id: "x" } },
};

const keyOf = (endpoint: { method: string; path: string }) => `${endpoint.method} ${endpoint.path}`;
const guarded = allEndpoints.filter((endpoint) => endpoint.policy.credentials);

async function makeAdmin() {
  const account = await signUp(server, { email: uniqueEmail("admin"), verified: true });
  await server.auth.database.db.updateTable("user").set({ role: "admin" }).where("id", "=", account.user.id).execute();
  return account;
}

/** The admin's browser, now holding an impersonation session of a verified user with a password. */
async function impersonating() {
  const admin = await makeAdmin();
  const target = await signUp(server, { email: uniqueEmail("target"), verified: true });
  const started = await admin.browser.post("/admin/impersonate-user", { userId: target.user.id });
  expect(started.status).toBe(200);
  return { browser: admin.browser, target };
}

const authenticator = () => new SoftAuthenticator(new URL(server.origin).hostname, server.origin);

async function registerPasskey(browser: TestBrowser, device = authenticator()) {
  const options = await browser.get("/passkey/generate-register-options");
  if (options.status !== 200) return options;
  return browser.post("/passkey/verify-registration", { response: device.register(options.body), name: "Key" });
}

/** A browser signed in through a mailed sign-in link: it proves the mailbox, nothing more. */
async function signInByLink(email: string): Promise<TestBrowser> {
  const browser = server.browser();
  expect((await browser.post("/sign-in/magic-link", { email })).body).toEqual({ status: true });
  const mail = await nthMail(capture, email, "sign-in link");
  const token = new URL(/https?:\/\/\S+\/magic-link\?\S+/.exec(mail.text)?.[0] ?? "").searchParams.get("token");
  const verified = await browser.get(`/magic-link/verify?${new URLSearchParams({ token: token ?? "" })}`);
  expect(verified.status).toBeLessThan(400);
  expect((await browser.get("/get-session")).body.user.email).toBe(email);
  return browser;
}

describe("the endpoint table's credential rules", () => {
  it("gives every signed-in route a credential rule, or a reason an impersonation session may use it", () => {
    const unclassified = allEndpoints
      .filter((endpoint) => endpoint.policy.session && !endpoint.policy.credentials)
      .map(keyOf)
      .filter((key) => !mayImpersonate(key));
    expect(unclassified).toEqual([]);
    // A rule needs a session to apply to.
    expect(guarded.filter((endpoint) => !endpoint.policy.session).map(keyOf)).toEqual([]);
    expect(Object.keys(SAMPLE_INPUT).sort()).toEqual(guarded.map(keyOf).sort());
  });
});

describe("an admin impersonating a user", () => {
  it("gets 403 IMPERSONATION_NOT_ALLOWED on every credential and factor route", async () => {
    const { browser } = await impersonating();
    // Over the expected list (checked against the table above), so a dropped rule fails here too.
    for (const [key, { body, query }] of Object.entries(SAMPLE_INPUT)) {
      const endpoint = allEndpoints.find((candidate) => keyOf(candidate) === key);
      if (!endpoint) throw new Error(`${key} is not in the endpoint table`);
      const path = query ? `${endpoint.path}?${query}` : endpoint.path;
      const res = await browser.request(path, { method: endpoint.method, body });
      expect({ key, status: res.status, code: res.body?.code }).toEqual({
        key,
        status: 403,
        code: "IMPERSONATION_NOT_ALLOWED",
      });
    }
    // The session is still the impersonation, and still usable for support work.
    expect((await browser.get("/get-session")).body.session.impersonatedBy).toEqual(expect.any(String));
    expect((await browser.get("/passkey/list-user-passkeys")).status).toBe(200);
  });

  it("makes and changes no API key (create and update check the session themselves)", async () => {
    const { browser, target } = await impersonating();
    const create = await browser.post("/api-key/create", { name: "left behind" });
    expect({ status: create.status, code: create.body.code }).toEqual({
      status: 403,
      code: "IMPERSONATION_NOT_ALLOWED",
    });
    const update = await browser.post("/api-key/update", { keyId: "x", name: "renamed" });
    expect({ status: update.status, code: update.body.code }).toEqual({
      status: 403,
      code: "IMPERSONATION_NOT_ALLOWED",
    });
    const db = server.auth.database.db;
    expect(await db.selectFrom("apiKey").select("id").where("userId", "=", target.user.id).execute()).toEqual([]);
  });

  it("cannot authorize an OAuth client for the user, even one the user consented to before", async () => {
    const { browser, target } = await impersonating();
    const owner = await signUp(server, { email: uniqueEmail("rp-owner"), verified: true });
    const client = await owner.browser.post("/oauth2/create-client", {
      client_name: "RP",
      redirect_uris: ["https://rp.example/cb"],
    });
    await server.auth.database.db
      .insertInto("oauthConsent")
      .values({
        id: `consent-${target.user.id}`,
        userId: target.user.id,
        clientId: client.body.client_id,
        scopes: "openid profile email offline_access",
        createdAt: new Date(),
        updatedAt: new Date(),
      })
      .execute();
    const query = new URLSearchParams({
      client_id: client.body.client_id,
      redirect_uri: "https://rp.example/cb",
      response_type: "code",
      scope: "openid",
      state: "s",
    });
    const res = await browser.get(`/oauth2/authorize?${query}`);
    const location = new URL(res.headers.get("location")!);
    expect([location.searchParams.get("error"), location.searchParams.get("code")]).toEqual(["access_denied", null]);
  });

  it("leaves no passkey, TOTP secret or password change behind", async () => {
    const { browser, target } = await impersonating();
    expect((await registerPasskey(browser)).status).toBe(403);
    expect((await browser.post("/two-factor/enable", { password: target.password })).status).toBe(403);
    const db = server.auth.database.db;
    expect(await db.selectFrom("passkey").select("id").where("userId", "=", target.user.id).execute()).toEqual([]);
    expect(await db.selectFrom("twoFactor").select("userId").where("userId", "=", target.user.id).execute()).toEqual(
      [],
    );
    // The user's own session still signs in and enrols as before.
    expect((await registerPasskey(target.browser)).status).toBe(200);
  });
});

describe("an account whose address is not verified", () => {
  it("cannot enrol a passkey or two-factor until it is; then it can", async () => {
    const account = await signUp(server, { email: uniqueEmail("squatter") });
    const options = await account.browser.get("/passkey/generate-register-options");
    expect(options.status).toBe(403);
    expect(options.body.code).toBe("EMAIL_NOT_VERIFIED");
    const enable = await account.browser.post("/two-factor/enable", { password: account.password });
    expect(enable.status).toBe(403);
    expect(enable.body.code).toBe("EMAIL_NOT_VERIFIED");
    const db = server.auth.database.db;
    expect(await db.selectFrom("twoFactor").select("userId").where("userId", "=", account.user.id).execute()).toEqual(
      [],
    );

    await db.updateTable("user").set({ emailVerified: true }).where("id", "=", account.user.id).execute();
    expect((await registerPasskey(account.browser)).status).toBe(200);
    expect((await account.browser.post("/two-factor/enable", { password: account.password })).status).toBe(200);
  });

  it("refuses a guest (anonymous) user too", async () => {
    const guest = server.browser();
    expect((await guest.post("/sign-in/anonymous", {})).status).toBe(200);
    const options = await guest.get("/passkey/generate-register-options");
    expect(options.status).toBe(403);
    expect(options.body.code).toBe("EMAIL_NOT_VERIFIED");
    expect((await guest.post("/two-factor/enable", {})).body.code).toBe("EMAIL_NOT_VERIFIED");
  });
});

describe("a recent proof of identity", () => {
  it("is not given by a sign-in link: adding a passkey or reading the TOTP URI waits for the password", async () => {
    const account = await signUp(server, { email: uniqueEmail("linked"), verified: true });
    // A TOTP secret set up (not yet confirmed) from the user's own password session.
    expect((await account.browser.post("/two-factor/enable", { password: account.password })).status).toBe(200);

    const browser = await signInByLink(account.email);
    const options = await browser.get("/passkey/generate-register-options");
    expect(options.status).toBe(403);
    expect(options.body.code).toBe("REAUTHENTICATION_REQUIRED");
    const uri = await browser.post("/two-factor/get-totp-uri", {});
    expect(uri.status).toBe(403);
    expect(uri.body.code).toBe("REAUTHENTICATION_REQUIRED");
    expect((await browser.post("/two-factor/generate-backup-codes", {})).body.code).toBe("REAUTHENTICATION_REQUIRED");

    // A wrong password proves nothing; the right one, on this session, counts for a few minutes.
    expect((await browser.post("/verify-password", { password: "not it at all" })).body.code).toBe("INVALID_PASSWORD");
    expect((await browser.get("/passkey/generate-register-options")).body.code).toBe("REAUTHENTICATION_REQUIRED");
    expect((await browser.post("/verify-password", { password: account.password })).status).toBe(200);
    expect((await registerPasskey(browser)).status).toBe(200);
    expect((await browser.post("/two-factor/get-totp-uri", {})).status).toBe(200);

    server.clock.advance(RECENT_PROOF_SECONDS + 1);
    expect((await browser.get("/passkey/generate-register-options")).body.code).toBe("REAUTHENTICATION_REQUIRED");
    // better-auth's wire: the body's password is a proof by itself.
    expect((await browser.post("/two-factor/get-totp-uri", { password: account.password })).status).toBe(200);
    expect((await browser.get("/passkey/generate-register-options")).status).toBe(200);
  });

  it("is given by a password sign-in, for a few minutes only", async () => {
    const account = await signUp(server, { email: uniqueEmail("pw"), verified: true });
    const browser = server.browser();
    expect((await browser.post("/sign-in/email", { email: account.email, password: account.password })).status).toBe(
      200,
    );
    expect((await browser.get("/passkey/generate-register-options")).status).toBe(200);
    server.clock.advance(RECENT_PROOF_SECONDS + 1);
    expect((await browser.get("/passkey/generate-register-options")).body.code).toBe("REAUTHENTICATION_REQUIRED");
    expect((await browser.post("/two-factor/enable", {})).body.code).toBe("REAUTHENTICATION_REQUIRED");
  });

  it("is given by a passkey sign-in, so a user without a password can add another passkey", async () => {
    const account = await signUp(server, { email: uniqueEmail("pk"), verified: true });
    const device = authenticator();
    expect((await registerPasskey(account.browser, device)).status).toBe(200);
    server.clock.advance(RECENT_PROOF_SECONDS + 1);
    expect((await account.browser.get("/passkey/generate-register-options")).body.code).toBe(
      "REAUTHENTICATION_REQUIRED",
    );
    const browser = server.browser();
    const options = await browser.get("/passkey/generate-authenticate-options");
    const signedIn = await browser.post("/passkey/verify-authentication", {
      response: device.authenticate(options.body),
    });
    expect(signedIn.status).toBe(200);
    expect((await registerPasskey(browser)).status).toBe(200);
  });
});

/** The current code of an otpauth URI at the server's clock. */
const codeFor = (totpURI: string) =>
  (URI.parse(totpURI) as import("otpauth").TOTP).generate({ timestamp: server.clock.now().getTime() });

describe("a recent proof by an authenticator code", () => {
  it("comes with a two-factor sign-in, and a signed-in code renews it on the same session", async () => {
    const account = await signUp(server, { email: uniqueEmail("totp-proof"), verified: true });
    const enabled = await account.browser.post("/two-factor/enable", { password: account.password });
    expect(
      (await account.browser.post("/two-factor/verify-totp", { code: codeFor(enabled.body.totpURI) })).status,
    ).toBe(200);
    server.clock.advance(30);

    const browser = server.browser();
    const first = await browser.post("/sign-in/email", { email: account.email, password: account.password });
    expect(first.body.twoFactorRedirect).toBe(true);
    expect((await browser.post("/two-factor/verify-totp", { code: codeFor(enabled.body.totpURI) })).status).toBe(200);
    expect((await browser.post("/two-factor/get-totp-uri", {})).status).toBe(200);

    server.clock.advance(RECENT_PROOF_SECONDS + 1);
    expect((await browser.post("/two-factor/get-totp-uri", {})).body.code).toBe("REAUTHENTICATION_REQUIRED");
    expect((await browser.post("/two-factor/verify-totp", { code: codeFor(enabled.body.totpURI) })).status).toBe(200);
    expect((await browser.post("/two-factor/get-totp-uri", {})).status).toBe(200);
    expect((await registerPasskey(browser)).status).toBe(200);
  });
});

describe("mail when a factor is added or removed", () => {
  it("tells the user of a new passkey and of a removed one", async () => {
    const account = await signUp(server, { email: uniqueEmail("pk-mail"), verified: true });
    const added = await registerPasskey(account.browser);
    expect(added.status).toBe(200);
    const mail = await nthMail(capture, account.email, "A passkey was added to your account");
    expect(mail.text).toContain("A new passkey can now sign in to your account.");
    await account.browser.post("/passkey/delete-passkey", { id: added.body.id });
    await nthMail(capture, account.email, "A passkey was removed from your account");
    // Nothing removed, nothing told.
    expect((await account.browser.post("/passkey/delete-passkey", { id: added.body.id })).status).toBe(404);
    expect(await settledCount(server, capture, account.email, "A passkey was removed")).toBe(1);
  });

  it("tells the user, in their language, when two-factor turns on and off", async () => {
    const account = await signUp(server, { email: uniqueEmail("tf-mail"), verified: true });
    const german = { "accept-language": "de" };
    const enabled = await account.browser.request("/two-factor/enable", {
      body: { password: account.password },
      headers: german,
    });
    expect(enabled.status).toBe(200);
    // A secret handed out but not yet confirmed turns nothing on: no mail yet.
    expect(await settledCount(server, capture, account.email, "Zwei-Faktor")).toBe(0);
    const confirmed = await account.browser.request("/two-factor/verify-totp", {
      body: { code: codeFor(enabled.body.totpURI) },
      headers: german,
    });
    expect(confirmed.status).toBe(200);
    const on = await nthMail(capture, account.email, "Die Zwei-Faktor-Authentifizierung ist eingeschaltet");
    expect(on.html).toContain('<html lang="de">');
    await account.browser.post("/two-factor/disable", { password: account.password });
    await nthMail(capture, account.email, "Two-factor authentication is off");
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestBrowser } from "./helpers/browser.js";
import { skipWithoutDnsServer, startDnsServer, type TestDnsServer } from "./helpers/dns.js";
import { type MailCapture, startMailCapture } from "./helpers/mail.js";
import { linkIn, nthMail } from "./helpers/mail-flows.js";
import { CLIENT_ID, CLIENT_SECRET, startOidcProvider, type TestOidcProvider } from "./helpers/oidc.js";
import { createOrganization, verifyEmail } from "./helpers/organization.js";
import { scimCall } from "./helpers/scim.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/**
 * Issue 48: what one tenant controls (its directory, its connections, its policy) grants only what
 * its organization has proven. Each case was a working attack before its fix.
 */
const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

skipWithoutDnsServer();

let oidc: TestOidcProvider;
let dns: TestDnsServer;
let capture: MailCapture;
let server: TestServer;
const txt: Record<string, string[]> = {};
const PROVIDER_IDS = ["bigcorp-sso", "mallory-sso", "pointed", "enforced", "enforced-own", "enforced-rogue"];

beforeAll(async () => {
  [oidc, dns, capture] = await Promise.all([startOidcProvider(), startDnsServer(), startMailCapture()]);
  server = await startTestServer({
    options: {
      scim: { enabled: true },
      sso: { enabled: true, dnsResolvers: [dns.server], allowPrivateIssuers: true },
      twoFactor: { enabled: true },
      audit: { enabled: true },
      jwt: { enabled: true },
      apiKey: { enabled: true },
      oauthProvider: { enabled: true },
    },
    extra: { mail: { smtpUrl: capture.url } },
  });
  await oidc.configure(PROVIDER_IDS.map((id) => `${server.origin}/api/auth/sso/callback/${id}`));
});
afterAll(async () => {
  await server?.close();
  await Promise.all([oidc?.close(), dns?.close(), capture?.close()]);
});
afterEach(() => expect(server.loggedErrors).toEqual([]));

const db = () => server.auth.database.db;

const scim = (token: string, method: string, path: string, body?: unknown) =>
  scimCall(server.origin, token, method, path, body);

const scimUser = (email: string) => ({
  schemas: [USER],
  userName: email,
  name: { givenName: "Ann", familyName: "Example" },
  emails: [{ primary: true, value: email }],
  active: true,
});

const moveTo = (email: string) => ({
  schemas: [PATCH_OP],
  Operations: [{ op: "replace", path: 'emails[type eq "work"].value', value: email }],
});

/** An organization with a connection whose domain is proven through the real DNS server. */
async function provenOrganization(providerId: string, domain: string) {
  const org = await createOrganization(server);
  const registered = await org.owner.browser.post("/sso/register", {
    providerId,
    issuer: oidc.issuer,
    domain,
    oidcConfig: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
  });
  expect(registered.status).toBe(200);
  await proveDomains(org.owner.browser, providerId);
  return org;
}

async function proveDomains(owner: TestBrowser, providerId: string) {
  const requested = await owner.post("/sso/request-domain-verification", { providerId });
  expect(requested.status).toBe(200);
  for (const record of requested.body.records) txt[record.name] = [record.value];
  await dns.setTxtRecords(txt);
  const verified = await owner.post("/sso/verify-domain", { providerId });
  expect(verified.status).toBe(200);
}

async function scimToken(owner: TestBrowser, organizationId: string, providerId: string): Promise<string> {
  const res = await owner.post("/scim/generate-token", { providerId, organizationId });
  expect(res.status).toBe(201);
  return res.body.scimToken;
}

async function userRow(id: string) {
  const row = await db()
    .selectFrom("user")
    .select(["email", "emailVerified"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  return { email: row.email, emailVerified: Boolean(row.emailVerified) };
}
const credentialRows = async (userId: string) =>
  (await db().selectFrom("account").select("providerId").where("userId", "=", userId).execute()).length +
  (await db().selectFrom("session").select("id").where("userId", "=", userId).execute()).length;

describe("a directory vouches only for its organization's verified domains (48.1)", () => {
  it("creates an account outside them unverified: no verified account for another company's address", async () => {
    const mallory = await createOrganization(server);
    const token = await scimToken(mallory.owner.browser, mallory.organizationId, "mallory-dir");
    const created = await scim(token, "POST", "/Users", scimUser("ceo@bigcorp.test"));
    expect(created.status).toBe(201);
    expect(await userRow(created.body.id)).toMatchObject({ email: "ceo@bigcorp.test", emailVerified: false });
    // The real owner proves the mailbox later and takes the account over (the pre-hijacking rule).
  });

  it("creates an account inside them verified", async () => {
    const acme = await provenOrganization("acme-sso", "acme-dir.test");
    const token = await scimToken(acme.owner.browser, acme.organizationId, "acme-dir");
    const created = await scim(token, "POST", "/Users", scimUser("ann@acme-dir.test"));
    expect(created.status).toBe(201);
    expect(await userRow(created.body.id)).toMatchObject({ emailVerified: true });
  });

  it("a re-address outside them clears verification and strips what was set up; the old address is told", async () => {
    // Mallory proves her own domain, provisions a user there, sets its password by a reset she
    // receives, then moves the account to the victim's address: it must arrive with nothing.
    const mallory = await provenOrganization("mallory-sso", "mallory.test");
    const token = await scimToken(mallory.owner.browser, mallory.organizationId, "mallory-dir2");
    const created = await scim(token, "POST", "/Users", scimUser("plant@mallory.test"));
    expect(created.status).toBe(201);
    const userId = created.body.id as string;
    expect(await userRow(userId)).toMatchObject({ emailVerified: true });
    await server.auth.api.setPassword({ body: { userId, newPassword: "mallory knows this one" } });
    const plant = server.browser();
    expect(
      (await plant.post("/sign-in/email", { email: "plant@mallory.test", password: "mallory knows this one" })).status,
    ).toBe(200);
    expect(await credentialRows(userId)).toBe(2);

    const moved = await scim(token, "PATCH", `/Users/${userId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "replace", value: { emails: [{ primary: true, value: "cfo@bigcorp.test" }] } }],
    });
    expect(moved.status).toBe(200);
    expect(await userRow(userId)).toEqual({ email: "cfo@bigcorp.test", emailVerified: false });
    expect(await credentialRows(userId)).toBe(0);
    expect((await plant.get("/get-session")).body).toBeNull();
    const signIn = await server
      .browser()
      .post("/sign-in/email", { email: "cfo@bigcorp.test", password: "mallory knows this one" });
    expect(signIn.status).toBe(401);
    await server.settled();
    const notice = await capture.waitFor((mail) => mail.to === "plant@mallory.test" && /changed/i.test(mail.subject));
    expect(notice.text).toContain("cfo@bigcorp.test");
  });

  it("never moves an account whose owner proved an address outside them", async () => {
    const mallory = await createOrganization(server);
    const token = await scimToken(mallory.owner.browser, mallory.organizationId, "mallory-dir3");
    const created = await scim(token, "POST", "/Users", scimUser("victim@elsewhere.test"));
    const userId = created.body.id as string;
    // The victim proves the mailbox (here, as the mailed link would) and uses the account.
    await db().updateTable("user").set({ emailVerified: true }).where("id", "=", userId).execute();
    const refused = await scim(token, "PATCH", `/Users/${userId}`, moveTo("mallory@mallory-own.test"));
    expect(refused.status).toBe(400);
    expect(refused.body.scimType).toBe("mutability");
    expect(await userRow(userId)).toMatchObject({ email: "victim@elsewhere.test" });
  });

  it("a rename does not mark an unproven address verified", async () => {
    const mallory = await createOrganization(server);
    const token = await scimToken(mallory.owner.browser, mallory.organizationId, "mallory-dir4");
    const created = await scim(token, "POST", "/Users", scimUser("someone@other-corp.test"));
    const renamed = await scim(token, "PATCH", `/Users/${created.body.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "replace", path: "displayName", value: "Renamed" }],
    });
    expect(renamed.status).toBe(200);
    expect((await userRow(created.body.id)).emailVerified).toBe(false);
  });

  it("never takes over an account that exists outside its organization", async () => {
    const outsider = await signUp(server, { email: "outsider@bigcorp.test", verified: true });
    const mallory = await createOrganization(server);
    const token = await scimToken(mallory.owner.browser, mallory.organizationId, "mallory-dir5");
    const taken = await scim(token, "POST", "/Users", scimUser(outsider.email));
    expect(taken.status).toBe(409);
  });
});

const entries = (organizationId: string, action: string) =>
  db()
    .selectFrom("auditTrail")
    .select(["action", "outcome", "actorType", "actorId", "subjectId", "organizationId", "details"])
    .where("organizationId", "=", organizationId)
    .where("action", "=", action)
    .execute();

describe("the directory and SSO in the audit trail (48.6)", () => {
  it("records every SCIM write as the directory, naming the connection, and its refusals", async () => {
    const org = await createOrganization(server);
    const token = await scimToken(org.owner.browser, org.organizationId, "audited-dir");
    const created = await scim(token, "POST", "/Users", scimUser("ann@audited.test"));
    const userId = created.body.id as string;
    await scim(token, "PATCH", `/Users/${userId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "replace", value: { active: false } }],
    });
    const group = await scim(token, "POST", "/Groups", {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"],
      displayName: "Staff",
      members: [{ value: userId }],
    });
    expect(group.status).toBe(201);
    await scim(token, "DELETE", `/Groups/${group.body.id}`);
    await scim(token, "DELETE", `/Users/${userId}`);
    expect((await scim(token, "PATCH", "/Users/nobody", moveTo("x@y.test"))).status).toBe(404);

    const directory = { actorType: "directory", actorId: "audited-dir", organizationId: org.organizationId };
    expect(await entries(org.organizationId, "directory.user_provisioned")).toEqual([
      expect.objectContaining({ ...directory, outcome: "success", subjectId: userId }),
    ]);
    const updates = await entries(org.organizationId, "directory.user_updated");
    expect(updates.map((e) => [e.outcome, e.subjectId])).toEqual(
      expect.arrayContaining([
        ["success", userId],
        ["failure", null],
      ]),
    );
    expect(JSON.parse(updates.find((e) => e.outcome === "success")?.details ?? "{}")).toMatchObject({
      providerId: "audited-dir",
      active: false,
    });
    for (const action of ["directory.group_created", "directory.group_deleted", "directory.user_deprovisioned"]) {
      expect(await entries(org.organizationId, action), action).toEqual([
        expect.objectContaining({ ...directory, outcome: "success" }),
      ]);
    }
  });

  it("records an SSO sign-in, and the user and membership it made, as the connection", async () => {
    const org = await provenOrganization("bigcorp-sso", "bigcorp-sso.test");
    const person = oidc.addUser({ email: "new.hire@bigcorp-sso.test" });
    const browser = server.browser();
    const start = await browser.post("/sign-in/sso", { providerId: "bigcorp-sso", callbackURL: "/dash" });
    const result = await oidc.authorize(start.body.url, person.sub);
    if (result.kind !== "redirect") throw new Error("expected a redirect");
    const callback = await browser.get(result.location);
    expect(callback.status).toBe(302);
    const user = (await browser.get("/get-session")).body.user;
    const connection = { actorType: "directory", actorId: "bigcorp-sso", subjectId: user.id };
    expect(await entries(org.organizationId, "directory.user_created")).toEqual([expect.objectContaining(connection)]);
    expect(await entries(org.organizationId, "directory.member_added")).toEqual([
      expect.objectContaining({ ...connection, details: expect.stringContaining('"role":"member"') }),
    ]);
    const signIns = await db()
      .selectFrom("auditTrail")
      .select(["actorType", "details"])
      .where("action", "=", "user.sign_in")
      .where("subjectId", "=", user.id)
      .execute();
    expect(signIns).toEqual([expect.objectContaining({ actorType: "user", details: expect.stringContaining("sso") })]);
  });
});

/** Signs in through a connection as the provider's user `sub`; the browser holds the session. */
async function ssoSignIn(providerId: string, sub: string, browser = server.browser()) {
  const start = await browser.post("/sign-in/sso", { providerId, callbackURL: "/dash" });
  expect(start.status).toBe(200);
  const result = await oidc.authorize(start.body.url, sub);
  if (result.kind !== "redirect") throw new Error("expected a redirect");
  const callback = await browser.get(result.location);
  expect(callback.status).toBe(302);
  return browser;
}

const tokenClaims = async (browser: TestBrowser) => {
  const { token } = (await browser.get("/token")).body;
  return JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8"));
};

describe("enforced SSO follows the member and the organization's own connections (48.3)", () => {
  it("holds a member the directory knows, whatever their address; set-active and the token respect it", async () => {
    const org = await provenOrganization("enforced", "enforced.test");
    const bob = await signUp(server, { email: "bob@personal-mail.test", verified: true });
    await server.auth.api.addMember({
      body: { userId: bob.user.id, role: "member", organizationId: org.organizationId },
    });
    // The organization's directory takes bob over (he is a member): it knows him from now on.
    const linked = await org.owner.browser.post("/scim/generate-token", {
      providerId: "enforced-dir",
      organizationId: org.organizationId,
      linkExistingMembers: true,
    });
    expect((await scim(linked.body.scimToken, "POST", "/Users", scimUser(bob.email))).status).toBe(201);
    expect((await bob.browser.post("/organization/set-active", { organizationId: org.organizationId })).status).toBe(
      200,
    );
    const policy = await org.owner.browser.post("/organization/update-policy", {
      organizationId: org.organizationId,
      requireSSO: true,
    });
    expect(policy.status).toBe(200);

    const members = await bob.browser.get(`/organization/list-members?organizationId=${org.organizationId}`);
    expect(members.status).toBe(403);
    expect(members.body).toMatchObject({ code: "SSO_REQUIRED", providerId: "enforced" });
    expect(await tokenClaims(bob.browser)).toMatchObject({ organization_id: null, organization_role: null });
    const again = await bob.browser.post("/organization/set-active", { organizationId: org.organizationId });
    expect(again.status).toBe(403);
    expect(again.body.code).toBe("SSO_REQUIRED");
    // His own account and other organizations stay his.
    expect((await bob.browser.get("/get-session")).status).toBe(200);
  });

  it("accepts only SSO sessions from the organization's own connections", async () => {
    const org = await provenOrganization("enforced-own", "enforced-own.test");
    expect(
      (
        await org.owner.browser.post("/organization/update-policy", {
          organizationId: org.organizationId,
          requireSSO: true,
        })
      ).status,
    ).toBe(200);
    // Mallory runs an organization of her own, with a connection of her own on her own domain.
    await provenOrganization("enforced-rogue", "rogue.test");
    const mallory = oidc.addUser({ email: "m@rogue.test" });
    const browser = await ssoSignIn("enforced-rogue", mallory.sub);
    const session = (await browser.get("/get-session")).body;
    await server.auth.api.addMember({
      body: { userId: session.user.id, role: "member", organizationId: org.organizationId },
    });
    // Her account's address moves into the organization's domain (she holds that mailbox too).
    await db().updateTable("user").set({ email: "m@enforced-own.test" }).where("id", "=", session.user.id).execute();
    await verifyEmail(server, session.user.id);
    const members = await browser.get(`/organization/list-members?organizationId=${org.organizationId}`);
    expect(members.status).toBe(403);
    expect(members.body).toMatchObject({ code: "SSO_REQUIRED", providerId: "enforced-own" });
  });
});

describe("an admin cannot lift enforced SSO by removing what proves the domain (48.2)", () => {
  it("deleting a connection with verified domains, or dropping one, is an owner's act", async () => {
    const org = await provenOrganization("bigcorp-dir-sso", "lifted.test");
    const admin = await signUp(server, { email: "admin@lifted-admins.test", verified: true });
    await server.auth.api.addMember({
      body: { userId: admin.user.id, role: "admin", organizationId: org.organizationId },
    });
    const drop = await admin.browser.post("/sso/update-provider", {
      providerId: "bigcorp-dir-sso",
      domain: "other.test",
    });
    expect(drop.body).toMatchObject({ code: "SSO_OWNER_REQUIRED" });
    expect(drop.status).toBe(403);
    expect(drop.body.code).toBe("SSO_OWNER_REQUIRED");
    const removed = await admin.browser.post("/sso/delete-provider", { providerId: "bigcorp-dir-sso" });
    expect(removed.body.code).toBe("SSO_OWNER_REQUIRED");
    expect((await org.owner.browser.get("/sso/get-provider?providerId=bigcorp-dir-sso")).body.domains).toEqual([
      { domain: "lifted.test", verified: true, provenForIssuer: true },
    ]);
    expect((await org.owner.browser.post("/sso/delete-provider", { providerId: "bigcorp-dir-sso" })).status).toBe(200);
  });
});

describe("who asserts identity for a connection is an owner's confirmed change (48.2)", () => {
  let second: TestOidcProvider;
  beforeAll(async () => {
    second = await startOidcProvider();
    await second.configure([`${server.origin}/api/auth/sso/callback/pointed`]);
  });
  afterAll(async () => {
    await second?.close();
  });

  it("refuses an admin, stages an owner's change until confirmed, mails every owner, and asks a fresh session", async () => {
    const org = await provenOrganization("pointed", "pointed.test");
    const admin = await signUp(server, { email: "admin@pointed-admins.test", verified: true });
    await server.auth.api.addMember({
      body: { userId: admin.user.id, role: "admin", organizationId: org.organizationId },
    });
    const repoint = { providerId: "pointed", issuer: second.issuer };
    const byAdmin = await admin.browser.post("/sso/update-provider", repoint);
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.code).toBe("SSO_OWNER_REQUIRED");
    // What does not decide who signs in stays the admins' to change, at once.
    const scopes = await admin.browser.post("/sso/update-provider", {
      providerId: "pointed",
      oidcConfig: { scopes: ["openid", "email", "profile", "groups"] },
    });
    expect(scopes.status).toBe(200);
    expect(scopes.body.pendingChange).toBeNull();

    // An existing member has signed in through the connection already.
    const person = oidc.addUser({ email: "pat@pointed.test" });
    const patBrowser = await ssoSignIn("pointed", person.sub);
    const pat = (await patBrowser.get("/get-session")).body.user;

    const staged = await org.owner.browser.post("/sso/update-provider", repoint);
    expect(staged.status).toBe(200);
    expect(staged.body.issuer).toBe(oidc.issuer);
    expect(staged.body.pendingChange).toMatchObject({ fields: ["issuer"], requestedBy: org.owner.user.id });
    await server.settled();
    await capture.waitFor((mail) => mail.to === org.owner.email.toLowerCase() && /single sign-on/i.test(mail.subject));
    // The old settings keep working meanwhile.
    await ssoSignIn("pointed", person.sub);

    expect((await admin.browser.post("/sso/confirm-provider-change", { providerId: "pointed" })).body.code).toBe(
      "SSO_OWNER_REQUIRED",
    );
    const confirmed = await org.owner.browser.post("/sso/confirm-provider-change", { providerId: "pointed" });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ issuer: second.issuer, pendingChange: null });
    expect(confirmed.body.domains).toEqual([{ domain: "pointed.test", verified: true, provenForIssuer: false }]);

    // The new issuer asserts the existing member: refused until the domain is proven for it.
    second.addUser({ sub: person.sub, email: "pat@pointed.test" });
    const browser = server.browser();
    const start = await browser.post("/sign-in/sso", { providerId: "pointed", callbackURL: "/dash" });
    const result = await second.authorize(start.body.url, person.sub);
    if (result.kind !== "redirect") throw new Error("expected a redirect");
    const refused = await browser.get(result.location);
    expect(new URL(refused.headers.get("location") ?? "", server.origin).searchParams.get("error")).toBe(
      "domain_not_proven_for_issuer",
    );
    await proveDomains(org.owner.browser, "pointed");
    const again = server.browser();
    const restart = await again.post("/sign-in/sso", { providerId: "pointed", callbackURL: "/dash" });
    const redirected = await second.authorize(restart.body.url, person.sub);
    if (redirected.kind !== "redirect") throw new Error("expected a redirect");
    expect((await again.get(redirected.location)).status).toBe(302);
    expect((await again.get("/get-session")).body.user.id).toBe(pat.id);

    // Owners confirming one staged change at once: it applies once; the others find none.
    const race = await org.owner.browser.post("/sso/update-provider", { providerId: "pointed", issuer: oidc.issuer });
    expect(race.body.pendingChange).toMatchObject({ fields: ["issuer"] });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        org.owner.browser.post("/sso/confirm-provider-change", { providerId: "pointed" }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(
      answers.every((answer) => answer.status === 200 || answer.body.code === "NO_PENDING_CONNECTION_CHANGE"),
    ).toBe(true);

    // A stale owner session may not stage such a change.
    server.clock.advance(2 * 86400);
    const stale = await org.owner.browser.post("/sso/update-provider", {
      providerId: "pointed",
      issuer: second.issuer,
    });
    expect(stale.body.code).toBe("SESSION_NOT_FRESH");
  });
});

describe("break-glass held by an owner who is no longer one (48.5)", () => {
  it("drops off the list at the next policy save instead of blocking it", async () => {
    const org = await createOrganization(server);
    const second = await signUp(server, { email: "second-owner@glass.test", verified: true });
    await server.auth.api.addMember({
      body: { userId: second.user.id, role: "owner", organizationId: org.organizationId },
    });
    const set = await org.owner.browser.post("/organization/update-policy", {
      organizationId: org.organizationId,
      breakGlassUserIds: [second.user.id],
    });
    expect(set.status).toBe(200);
    // Demoted by a path that does not edit the policy (a directory's group, a connection's mapping).
    await db()
      .updateTable("member")
      .set({ role: "admin" })
      .where("organizationId", "=", org.organizationId)
      .where("userId", "=", second.user.id)
      .execute();
    const saved = await org.owner.browser.post("/organization/update-policy", {
      organizationId: org.organizationId,
      idleTimeout: 1800,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.policy.breakGlassUserIds).toEqual([]);
    // Naming a non-owner explicitly is still refused.
    const named = await org.owner.browser.post("/organization/update-policy", {
      organizationId: org.organizationId,
      breakGlassUserIds: [second.user.id],
    });
    expect(named.body.code).toBe("BREAK_GLASS_USER_MUST_BE_AN_OWNER");
  });
});

describe("credentials that are not people, on an account whose address was never proven", () => {
  it("the squatter's own API key goes when the owner proves the mailbox", async () => {
    const email = "owner-of-this@keys.test";
    const squatter = await signUp(server, { email, password: "the squatter's password" });
    const made = await squatter.browser.post("/api-key/create", { name: "left for later" });
    expect(made.status).toBe(200);
    const key = made.body.key as string;
    const verify = () => server.auth.api.verifyApiKey({ body: { key } }) as Promise<{ valid: boolean }>;
    expect((await verify()).valid).toBe(true);

    await server.browser().post("/request-password-reset", { email, redirectTo: "/reset" });
    const link = linkIn(await nthMail(capture, email, "Reset your password"), "/reset-password/");
    const token = new URL(link).pathname.split("/").pop() ?? "";
    const reset = await server.browser().post("/reset-password", { newPassword: "the owner's own password", token });
    expect(reset.status).toBe(200);
    expect((await verify()).valid).toBe(false);
  });
});

describe("deprovisioning ends what the person gave the organization's clients (issue 52)", () => {
  it("revokes the grants a person gave when the directory takes them out of their last organization", async () => {
    const org = await createOrganization(server);
    const created = await org.owner.browser.post("/oauth2/create-client", {
      client_name: "Acme portal",
      redirect_uris: ["https://portal.example/cb"],
      organizationId: org.organizationId,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const token = await scimToken(org.owner.browser, org.organizationId, "grants-dir");
    const person = await scim(token, "POST", "/Users", scimUser("grantor@grants.test"));
    const userId = person.body.id as string;
    const now = server.clock.now();
    await db()
      .insertInto("oauthGrant")
      .values({
        id: `grant-${userId}`,
        clientId: created.body.client_id,
        userId,
        scopes: "openid",
        resource: null,
        authTime: now,
        nonce: null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + 86_400_000),
        revokedAt: null,
      })
      .execute();
    const deactivated = await scim(token, "PATCH", `/Users/${userId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "replace", value: { active: false } }],
    });
    expect(deactivated.status).toBe(200);
    const grant = await db()
      .selectFrom("oauthGrant")
      .select("revokedAt")
      .where("userId", "=", userId)
      .executeTakeFirst();
    expect(grant?.revokedAt).not.toBeNull();
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestBrowser } from "./helpers/browser.js";
import { skipWithoutDnsServer, startDnsServer, type TestDnsServer } from "./helpers/dns.js";
import { type MailCapture, startMailCapture } from "./helpers/mail.js";
import { CLIENT_ID, CLIENT_SECRET, startOidcProvider, type TestOidcProvider } from "./helpers/oidc.js";
import { createOrganization, joinAs } from "./helpers/organization.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { WebhookReceiver } from "./helpers/webhook-receiver.js";

/**
 * Issue 54: a setup link lets a customer's IT admin, with no account, configure exactly what an
 * owner granted, for that organization, until it expires or is revoked; each act audited as the link.
 */
skipWithoutDnsServer();

let oidc: TestOidcProvider;
let dns: TestDnsServer;
let capture: MailCapture;
let receiver: WebhookReceiver;
let server: TestServer;
const txt: Record<string, string[]> = {};
const PROVIDER_IDS = ["acme-okta", "acme-late", "other-sso", "itadmin-sso", "fixup-sso"];

beforeAll(async () => {
  [oidc, dns, capture, receiver] = await Promise.all([
    startOidcProvider(),
    startDnsServer(),
    startMailCapture(),
    WebhookReceiver.start(),
  ]);
  server = await startTestServer({
    options: {
      scim: { enabled: true },
      sso: { enabled: true, dnsResolvers: [dns.server], allowPrivateIssuers: true },
      audit: { enabled: true },
      // The test's receiver is on loopback, as sso.allowPrivateIssuers allows the provider.
      organizationWebhooks: { enabled: true, allowPrivateUrls: true },
    },
    extra: { mail: { smtpUrl: capture.url } },
  });
  await oidc.configure(PROVIDER_IDS.map((id) => `${server.origin}/api/auth/sso/callback/${id}`));
});
afterAll(async () => {
  await server?.close();
  await Promise.all([oidc?.close(), dns?.close(), capture?.close(), receiver?.close()]);
});
afterEach(() => expect(server.loggedErrors).toEqual([]));

const db = () => server.auth.database.db;

const oidcConnection = (providerId: string, domain: string, extra: object = {}) => ({
  providerId,
  issuer: oidc.issuer,
  domain,
  oidcConfig: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
  ...extra,
});

async function createLink(owner: TestBrowser, body: object) {
  const res = await owner.post("/organization/create-setup-link", body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { link: { id: string; status: string; scopes: string[] }; token: string };
}

/** A browser with no account that has opened the link. */
async function openLink(token: string): Promise<TestBrowser> {
  const browser = server.browser();
  const opened = await browser.post("/setup/open", { token });
  expect(opened.status, JSON.stringify(opened.body)).toBe(200);
  return browser;
}

/** The organization's sealed entries of one action, in the chain's order (sealed first: entries are numbered after commit). */
const trail = async (organizationId: string, action: string) => {
  await server.sealAudit();
  return db()
    .selectFrom("auditTrail")
    .select(["action", "outcome", "actorType", "actorId", "organizationId", "details"])
    .where("organizationId", "=", organizationId)
    .where("action", "=", action)
    .orderBy("seq")
    .execute();
};

describe("owners hand out setup links", () => {
  it("creates a link shown once, kept as a digest, listed without its secret, for a day by default", async () => {
    const org = await createOrganization(server);
    const before = server.clock.now().getTime();
    const { link, token } = await createLink(org.owner.browser, { scopes: ["sso", "domains"], label: "Okta for IT" });
    expect(link).toMatchObject({ organizationId: org.organizationId, scopes: ["domains", "sso"], status: "active" });
    const expiresAt = new Date((link as any).expiresAt).getTime();
    expect(expiresAt - before).toBeGreaterThanOrEqual(24 * 3600 * 1000 - 5000);
    expect(expiresAt - before).toBeLessThanOrEqual(24 * 3600 * 1000 + 5000);
    const row = await db().selectFrom("setupLink").selectAll().where("id", "=", link.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(token.split(".")[1]);
    const listed = await org.owner.browser.get(`/organization/list-setup-links?organizationId=${org.organizationId}`);
    expect(listed.status).toBe(200);
    expect(listed.body.links).toEqual([expect.objectContaining({ id: link.id, label: "Okta for IT" })]);
    expect(JSON.stringify(listed.body)).not.toContain(token.split(".")[1]);
    expect(await trail(org.organizationId, "organization.setup_link_created")).toEqual([
      expect.objectContaining({ outcome: "success", actorType: "user", actorId: org.owner.user.id }),
    ]);
  });

  it("is an owner's act: an admin is refused, a stranger learns nothing, an old sign-in must sign in again", async () => {
    const org = await createOrganization(server);
    const admin = await joinAs(server, org.organizationId, "admin");
    const refused = await admin.browser.post("/organization/create-setup-link", { scopes: ["sso"] });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("SETUP_LINK_OWNER_REQUIRED");
    const stranger = await createOrganization(server);
    const foreign = await stranger.owner.browser.post("/organization/create-setup-link", {
      organizationId: org.organizationId,
      scopes: ["sso"],
    });
    expect(foreign.status).toBe(403);
    const { link } = await createLink(org.owner.browser, { scopes: ["sso"] });
    const revokeForeign = await stranger.owner.browser.post("/organization/revoke-setup-link", { linkId: link.id });
    expect(revokeForeign.status).toBe(404);
    expect(revokeForeign.body.code).toBe("SETUP_LINK_NOT_FOUND");
    server.clock.advance(86_401);
    try {
      const stale = await org.owner.browser.post("/organization/create-setup-link", { scopes: ["sso"] });
      expect(stale.status).toBe(403);
      expect(stale.body.code).toBe("SESSION_NOT_FRESH");
    } finally {
      server.clock.advance(-86_401);
    }
    expect(
      await db().selectFrom("setupLink").select("id").where("organizationId", "=", org.organizationId).execute(),
    ).toHaveLength(1);
  });

  it("auth.api creates one without a session, for the organization it names, audited as the system", async () => {
    const org = await createOrganization(server);
    const { link, token } = await server.auth.api.createSetupLink({
      body: { organizationId: org.organizationId, scopes: ["directory"], expiresIn: 3600, label: "Okta SCIM" },
    });
    expect(link).toMatchObject({ organizationId: org.organizationId, createdBy: null, scopes: ["directory"] });
    const it = await openLink(token);
    expect((await it.get("/setup/grant")).body.scopes).toEqual(["directory"]);
    expect(await trail(org.organizationId, "organization.setup_link_created")).toEqual([
      expect.objectContaining({ outcome: "success", actorType: "system" }),
    ]);
    await expect(
      server.auth.api.createSetupLink({ body: { organizationId: "no-such-org", scopes: ["sso"] } }),
    ).rejects.toMatchObject({ code: "ORGANIZATION_NOT_FOUND" });
    // With an owner's headers it is the owner's call, with the owner's checks.
    const viaHeaders = await server.auth.api.createSetupLink({
      body: { scopes: ["sso"] },
      headers: { cookie: org.owner.browser.cookieHeader() },
    });
    expect(viaHeaders.link.createdBy).toBe(org.owner.user.id);
  });

  it("refuses bad input with a 400 and stores nothing", async () => {
    const org = await createOrganization(server);
    for (const body of [
      { scopes: [] },
      { scopes: ["owner"] },
      { scopes: ["sso", "sso"] },
      { scopes: ["sso"], expiresIn: 8 * 24 * 3600 },
    ]) {
      const res = await org.owner.browser.post("/organization/create-setup-link", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(
      await db().selectFrom("setupLink").select("id").where("organizationId", "=", org.organizationId).execute(),
    ).toEqual([]);
  });
});

describe("the holder of a link", () => {
  it("registers a connection, proves its domain through DNS and gets a SCIM token, audited as the link", async () => {
    const org = await createOrganization(server);
    const { link, token } = await createLink(org.owner.browser, { scopes: ["sso", "domains", "directory"] });
    const it = await openLink(token);
    expect(it.cookie("gatehouse.setup_link")).toBeDefined();
    expect((await it.get("/get-session")).body).toBeNull();

    const grant = await it.get("/setup/grant");
    expect(grant.body).toMatchObject({
      organization: { id: org.organizationId },
      scopes: ["directory", "domains", "sso"],
    });

    const registered = await it.post("/setup/sso/register", oidcConnection("acme-okta", "acme-link.test"));
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    expect(registered.body).toMatchObject({
      organizationId: org.organizationId,
      redirectURI: `${server.origin}/api/auth/sso/callback/acme-okta`,
      domainVerified: false,
    });
    expect((await it.post("/setup/sso/test-connection", { providerId: "acme-okta" })).body).toEqual({
      ok: true,
      error: null,
    });

    const requested = await it.post("/setup/sso/request-domain-verification", { providerId: "acme-okta" });
    expect(requested.status).toBe(200);
    const early = await it.post("/setup/sso/verify-domain", { providerId: "acme-okta" });
    expect(early.status).toBe(502);
    expect(early.body.code).toBe("DOMAIN_VERIFICATION_FAILED");
    for (const record of requested.body.records) txt[record.name] = [record.value];
    await dns.setTxtRecords(txt);
    const verified = await it.post("/setup/sso/verify-domain", { providerId: "acme-okta" });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body).toEqual({ verified: true, domains: [{ domain: "acme-link.test", verified: true }] });

    const listed = await it.get("/setup/sso/providers");
    expect(listed.body.providers).toEqual([
      expect.objectContaining({ providerId: "acme-okta", domains: [expect.objectContaining({ verified: true })] }),
    ]);

    const scim = await it.post("/setup/scim/generate-token", { providerId: "acme-dir" });
    expect(scim.status).toBe(201);
    const users = await fetch(`${server.origin}/api/auth/scim/v2/Users`, {
      headers: { authorization: `Bearer ${scim.body.scimToken}` },
    });
    expect(users.status).toBe(200);
    const connections = await it.get("/setup/scim/connections");
    expect(connections.body).toMatchObject({
      baseURL: `${server.origin}/api/auth/scim/v2`,
      providers: [expect.objectContaining({ providerId: "acme-dir", organizationId: org.organizationId })],
    });

    const asLink = { outcome: "success", actorType: "setup-link", actorId: link.id };
    expect(await trail(org.organizationId, "organization.setup_link_opened")).toEqual([
      expect.objectContaining(asLink),
    ]);
    expect(await trail(org.organizationId, "organization.sso_connection_created")).toEqual([
      expect.objectContaining(asLink),
    ]);
    expect(await trail(org.organizationId, "organization.sso_domain_verified")).toEqual([
      expect.objectContaining({ actorType: "setup-link", actorId: link.id, outcome: "failure" }),
      expect.objectContaining(asLink),
    ]);
    expect(await trail(org.organizationId, "organization.scim_token_generated")).toEqual([
      expect.objectContaining(asLink),
    ]);
    // The owner sees when it was last used.
    const owners = await org.owner.browser.get("/organization/list-setup-links");
    expect(owners.body.links[0].lastUsedAt).not.toBeNull();
  });

  it("the connection it made signs the company's people in once its domain is proven", async () => {
    const org = await createOrganization(server);
    const { token } = await createLink(org.owner.browser, { scopes: ["sso", "domains"] });
    const it = await openLink(token);
    expect((await it.post("/setup/sso/register", oidcConnection("itadmin-sso", "itadmin.test"))).status).toBe(200);
    const requested = await it.post("/setup/sso/request-domain-verification", { providerId: "itadmin-sso" });
    for (const record of requested.body.records) txt[record.name] = [record.value];
    await dns.setTxtRecords(txt);
    expect((await it.post("/setup/sso/verify-domain", { providerId: "itadmin-sso" })).status).toBe(200);
    const person = oidc.addUser({ email: "first.hire@itadmin.test" });
    const browser = server.browser();
    const start = await browser.post("/sign-in/sso", { providerId: "itadmin-sso", callbackURL: "/dash" });
    const result = await oidc.authorize(start.body.url, person.sub);
    if (result.kind !== "redirect") throw new Error("expected a redirect");
    expect((await browser.get(result.location)).status).toBe(302);
    const session = (await browser.get("/get-session")).body;
    expect(session.user.email).toBe("first.hire@itadmin.test");
    const member = await db()
      .selectFrom("member")
      .select("role")
      .where("organizationId", "=", org.organizationId)
      .where("userId", "=", session.user.id)
      .executeTakeFirst();
    expect(member?.role).toBe("member");
  });

  it("fixes its own connection at once while no domain is verified; after that an owner confirms", async () => {
    const org = await createOrganization(server);
    const { link, token } = await createLink(org.owner.browser, { scopes: ["sso", "domains"], label: "Jo from IT" });
    const it = await openLink(token);
    expect((await it.post("/setup/sso/register", oidcConnection("fixup-sso", "fixup.test"))).status).toBe(200);
    const early = await it.post("/setup/sso/update-provider", {
      providerId: "fixup-sso",
      oidcConfig: { mapping: { email: "email", name: "nickname" } },
    });
    expect(early.status, JSON.stringify(early.body)).toBe(200);
    expect(early.body.pendingChange).toBeNull();
    expect(early.body.oidcConfig.mapping).toMatchObject({ name: "nickname" });

    const requested = await it.post("/setup/sso/request-domain-verification", { providerId: "fixup-sso" });
    for (const record of requested.body.records) txt[record.name] = [record.value];
    await dns.setTxtRecords(txt);
    expect((await it.post("/setup/sso/verify-domain", { providerId: "fixup-sso" })).status).toBe(200);

    const late = await it.post("/setup/sso/update-provider", {
      providerId: "fixup-sso",
      oidcConfig: { mapping: { email: "preferred_username" } },
      defaultRole: "admin",
    });
    expect(late.status, JSON.stringify(late.body)).toBe(200);
    // The role applies now (never the owner's); who asserts identity waits for an owner.
    expect(late.body.defaultRole).toBe("admin");
    expect(late.body.oidcConfig.mapping).toMatchObject({ email: "email", name: "nickname" });
    expect(late.body.pendingChange).toMatchObject({ fields: ["mapping"], requestedBy: `setup-link:${link.id}` });
    await server.settled();
    const notice = await capture.waitFor((mail) => mail.to === org.owner.email && mail.text.includes("fixup-sso"));
    expect(notice.text).toContain("Jo from IT");
    const owner = await it.post("/setup/sso/update-provider", { providerId: "fixup-sso", defaultRole: "owner" });
    expect(owner.body.code).toBe("SSO_ROLE_NOT_ALLOWED");
    // The link cannot confirm; the owner can.
    expect((await it.post("/sso/confirm-provider-change", { providerId: "fixup-sso" })).status).toBe(401);
    const confirmed = await org.owner.browser.post("/sso/confirm-provider-change", { providerId: "fixup-sso" });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.oidcConfig.mapping).toMatchObject({ email: "preferred_username" });
    expect(await trail(org.organizationId, "organization.sso_connection_updated")).toEqual([
      expect.objectContaining({ actorType: "setup-link", actorId: link.id, outcome: "success" }),
      expect.objectContaining({ actorType: "setup-link", actorId: link.id, outcome: "success" }),
      expect.objectContaining({ actorType: "setup-link", actorId: link.id, outcome: "failure" }),
      expect.objectContaining({ actorType: "user", actorId: org.owner.user.id, outcome: "success" }),
    ]);
  });

  it("sets up the audit stream: a webhook of audit entries it alone sees and tests", async () => {
    const org = await createOrganization(server);
    const theirs = await org.owner.browser.post("/organization/create-webhook", {
      organizationId: org.organizationId,
      url: `${receiver.url}/owners`,
      events: ["member.added"],
    });
    expect(theirs.status).toBe(200);
    const { link, token } = await createLink(org.owner.browser, { scopes: ["auditStream"] });
    const it = await openLink(token);
    const created = await it.post("/setup/audit-stream/create", { url: receiver.url });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ organizationId: org.organizationId, events: ["audit.entry"], enabled: true });
    receiver.secret = created.body.secret;
    const listed = await it.get("/setup/audit-stream/list");
    expect(listed.body.webhooks.map((w: { id: string }) => w.id)).toEqual([created.body.id]);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret);
    // The owners' own webhook is not the link's to see or to dial.
    const foreign = await it.post("/setup/audit-stream/test", { webhookId: theirs.body.id });
    expect([foreign.status, foreign.body.code]).toEqual([404, "WEBHOOK_NOT_FOUND"]);

    const sent = await it.post("/setup/audit-stream/test", { webhookId: created.body.id });
    expect(sent.status).toBe(200);
    await server.settled();
    expect(receiver.delivered("webhook.test")).toEqual([
      expect.objectContaining({
        id: sent.body.deliveryId,
        data: expect.objectContaining({ webhookId: created.body.id }),
      }),
    ]);
    // The organization's next audit entry streams to it.
    await createLink(org.owner.browser, { scopes: ["sso"], label: "streamed" });
    await server.settled();
    expect(receiver.delivered("audit.entry")).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ data: expect.objectContaining({ action: "organization.setup_link_created" }) }),
      ]),
    );
    expect(await trail(org.organizationId, "organization.webhook_created")).toEqual([
      expect.objectContaining({ actorType: "user" }),
      expect.objectContaining({ actorType: "setup-link", actorId: link.id, outcome: "success" }),
    ]);
    // Without the scope: refused.
    const other = await openLink((await createLink(org.owner.browser, { scopes: ["sso"] })).token);
    expect((await other.post("/setup/audit-stream/create", { url: `${receiver.url}/x` })).body.code).toBe(
      "SETUP_LINK_SCOPE_DENIED",
    );
  });

  it("may do only what its scopes grant", async () => {
    const org = await createOrganization(server);
    const { token } = await createLink(org.owner.browser, { scopes: ["domains"] });
    const it = await openLink(token);
    const register = await it.post("/setup/sso/register", oidcConnection("acme-late", "late.test"));
    expect(register.status).toBe(403);
    expect(register.body.code).toBe("SETUP_LINK_SCOPE_DENIED");
    const scim = await it.post("/setup/scim/generate-token", { providerId: "late-dir" });
    expect(scim.body.code).toBe("SETUP_LINK_SCOPE_DENIED");
    expect((await it.get("/setup/scim/connections")).body.code).toBe("SETUP_LINK_SCOPE_DENIED");
    // Listing connections is part of proving their domains.
    expect((await it.get("/setup/sso/providers")).status).toBe(200);
    expect(await db().selectFrom("ssoProvider").select("id").where("providerId", "=", "acme-late").execute()).toEqual(
      [],
    );
    expect(await db().selectFrom("scimProvider").select("id").where("providerId", "=", "late-dir").execute()).toEqual(
      [],
    );
  });

  it("may not let a directory take over existing members: that claim on accounts is an owner's", async () => {
    const org = await createOrganization(server);
    const { token } = await createLink(org.owner.browser, { scopes: ["directory"] });
    const it = await openLink(token);
    const refused = await it.post("/setup/scim/generate-token", {
      providerId: "takeover-dir",
      linkExistingMembers: true,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("SETUP_LINK_SCOPE_DENIED");
    expect(
      await db().selectFrom("scimProvider").select("id").where("providerId", "=", "takeover-dir").execute(),
    ).toEqual([]);
    // An owner's choice survives a rotation by the link.
    const owned = await org.owner.browser.post("/scim/generate-token", {
      providerId: "owned-dir",
      organizationId: org.organizationId,
      linkExistingMembers: true,
    });
    expect(owned.status).toBe(201);
    expect((await it.post("/setup/scim/generate-token", { providerId: "owned-dir" })).status).toBe(201);
    const row = await db()
      .selectFrom("scimProvider")
      .select("linkExistingMembers")
      .where("providerId", "=", "owned-dir")
      .executeTakeFirstOrThrow();
    expect(Boolean(row.linkExistingMembers)).toBe(true);
  });

  it("reaches only its own organization", async () => {
    const other = await createOrganization(server);
    expect(
      (await other.owner.browser.post("/sso/register", oidcConnection("other-sso", "other-org.test"))).status,
    ).toBe(200);
    const org = await createOrganization(server);
    const { token } = await createLink(org.owner.browser, { scopes: ["sso", "domains", "directory"] });
    const it = await openLink(token);
    for (const path of [
      "/setup/sso/request-domain-verification",
      "/setup/sso/verify-domain",
      "/setup/sso/test-connection",
    ]) {
      const res = await it.post(path, { providerId: "other-sso" });
      expect(res.status, path).toBe(404);
      expect(res.body.code, path).toBe("SSO_PROVIDER_NOT_FOUND");
    }
    const register = await it.post(
      "/setup/sso/register",
      oidcConnection("acme-late", "late.test", { organizationId: other.organizationId }),
    );
    expect(register.status).toBe(403);
    expect(register.body.code).toBe("SETUP_LINK_OTHER_ORGANIZATION");
    const scim = await it.post("/setup/scim/generate-token", {
      providerId: "other-dir",
      organizationId: other.organizationId,
    });
    expect(scim.body.code).toBe("SETUP_LINK_OTHER_ORGANIZATION");
    expect((await it.get("/setup/sso/providers")).body.providers).toEqual([]);
    // Nothing of the refusals lands in the other organization's trail.
    const foreign = await db()
      .selectFrom("auditTrail")
      .select("actorType")
      .where("organizationId", "=", other.organizationId)
      .where("actorType", "=", "setup-link")
      .execute();
    expect(foreign).toEqual([]);
  });

  it("is no session: every other route answers as to a stranger", async () => {
    const org = await createOrganization(server);
    const { token } = await createLink(org.owner.browser, { scopes: ["sso", "domains", "directory"] });
    const it = await openLink(token);
    expect((await it.get("/get-session")).body).toBeNull();
    for (const [path, body] of [
      ["/sso/register", oidcConnection("acme-late", "late.test", { organizationId: org.organizationId })],
      ["/scim/generate-token", { providerId: "x", organizationId: org.organizationId }],
      ["/organization/create-setup-link", { scopes: ["sso"], organizationId: org.organizationId }],
      ["/organization/update", { organizationId: org.organizationId, data: { name: "taken" } }],
      ["/update-user", { name: "x" }],
    ] as const) {
      expect((await it.post(path, body)).status, path).toBe(401);
    }
    for (const path of ["/sso/providers", "/organization/list-members", "/list-sessions"]) {
      expect((await it.get(path)).status, path).toBe(401);
    }
    // The secret itself is no bearer credential for the API either.
    const bearer = await server.browser().get("/sso/providers", { headers: { authorization: `Bearer ${token}` } });
    expect(bearer.status).toBe(401);
  });

  it("stops at expiry and at revocation, in a browser that opened it too", async () => {
    const org = await createOrganization(server);
    const short = await createLink(org.owner.browser, { scopes: ["sso"], expiresIn: 120 });
    const opened = await openLink(short.token);
    server.clock.advance(121);
    try {
      const late = await opened.get("/setup/grant");
      expect(late.status).toBe(401);
      expect(late.body.code).toBe("SETUP_LINK_INVALID");
      expect((await server.browser().post("/setup/open", { token: short.token })).body.code).toBe("SETUP_LINK_INVALID");
    } finally {
      server.clock.advance(-121);
    }

    const { link, token } = await createLink(org.owner.browser, { scopes: ["sso"] });
    const it = await openLink(token);
    expect((await it.get("/setup/grant")).status).toBe(200);
    const revoked = await org.owner.browser.post("/organization/revoke-setup-link", { linkId: link.id });
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe("revoked");
    expect((await it.get("/setup/grant")).body.code).toBe("SETUP_LINK_INVALID");
    expect((await it.post("/setup/sso/register", oidcConnection("acme-late", "late.test"))).status).toBe(401);
    expect((await server.browser().post("/setup/open", { token })).body.code).toBe("SETUP_LINK_INVALID");
    expect(await trail(org.organizationId, "organization.setup_link_revoked")).toEqual([
      expect.objectContaining({ outcome: "success", actorType: "user", actorId: org.owner.user.id }),
    ]);
  });

  it("refuses a forged or altered secret with the same answer as an unknown one", async () => {
    const org = await createOrganization(server);
    const { link, token } = await createLink(org.owner.browser, { scopes: ["sso"] });
    for (const forged of [`${link.id}.${"A".repeat(43)}`, `${token}x`, "nonsense", `.${token}`, `${link.id}.`]) {
      const res = await server.browser().post("/setup/open", { token: forged });
      expect(res.status, forged).toBe(401);
      expect(res.body.code, forged).toBe("SETUP_LINK_INVALID");
    }
    // A cookie the server did not sign is no link.
    const planted = server.browser();
    const res = await planted.get("/setup/grant", {
      headers: { cookie: `gatehouse.setup_link=${encodeURIComponent(token)}` },
    });
    expect(res.status).toBe(401);
  });
});

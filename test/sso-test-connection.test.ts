import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestBrowser } from "./helpers/browser.js";
import { signInRowCounts } from "./helpers/database.js";
import { skipWithoutDnsServer, startDnsServer, type TestDnsServer } from "./helpers/dns.js";
import { CLIENT_ID, CLIENT_SECRET, startOidcProvider, type TestOidcProvider } from "./helpers/oidc.js";
import { createOrganization } from "./helpers/organization.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { locationOf } from "./helpers/social.js";

/**
 * Issue 54, "test connection": a real sign-in through the provider whose result (claims, mapped
 * email and role, refusal) is shown to whoever started it, and which signs nobody in.
 */
skipWithoutDnsServer();

let oidc: TestOidcProvider;
let dns: TestDnsServer;
let server: TestServer;
const txt: Record<string, string[]> = {};
const PROVIDER_IDS = ["tested", "refusing", "declined", "linked-test"];

beforeAll(async () => {
  [oidc, dns] = await Promise.all([startOidcProvider(), startDnsServer()]);
  server = await startTestServer({
    options: {
      sso: { enabled: true, dnsResolvers: [dns.server], allowPrivateIssuers: true },
      audit: { enabled: true },
    },
  });
  await oidc.configure(PROVIDER_IDS.map((id) => `${server.origin}/api/auth/sso/callback/${id}`));
});
afterAll(async () => {
  await server?.close();
  await Promise.all([oidc?.close(), dns?.close()]);
});
afterEach(() => expect(server.loggedErrors).toEqual([]));

const db = () => server.auth.database.db;

const connection = (providerId: string, domain: string, extra: object = {}) => ({
  providerId,
  issuer: oidc.issuer,
  domain,
  oidcConfig: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, scopes: ["openid", "email", "profile", "groups"] },
  ...extra,
});

async function proveDomains(owner: TestBrowser, providerId: string) {
  const requested = await owner.post("/sso/request-domain-verification", { providerId });
  expect(requested.status).toBe(200);
  for (const record of requested.body.records) txt[record.name] = [record.value];
  await dns.setTxtRecords(txt);
  expect((await owner.post("/sso/verify-domain", { providerId })).status).toBe(200);
}

/** Starts a test at `prefix` ("/sso" or "/setup/sso"), signs in at the provider as `sub`, follows to the result. */
async function runTest(browser: TestBrowser, prefix: string, providerId: string, sub: string) {
  const start = await browser.post(`${prefix}/test-sign-in`, { providerId });
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  const answered = await oidc.authorize(start.body.url, sub);
  if (answered.kind !== "redirect") throw new Error("expected a redirect from the provider");
  const callback = await browser.get(answered.location);
  expect(callback.status).toBe(302);
  const landing = locationOf(callback);
  expect(landing.pathname).toBe(`/api/auth${prefix}/test-sign-in/result`);
  expect(landing.searchParams.get("error")).toBeNull();
  const testId = landing.searchParams.get("testId") as string;
  const result = await browser.get(`${prefix}/test-sign-in/result?testId=${testId}`);
  return { callback, testId, result };
}

describe("an owner tests a connection", () => {
  it("shows the claims, mapped email and role, and creates no user, account, member or session", async () => {
    const org = await createOrganization(server);
    const registered = await org.owner.browser.post(
      "/sso/register",
      connection("tested", "tested.test", { roleMapping: { claim: "groups", values: { "idp-admins": "admin" } } }),
    );
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    await proveDomains(org.owner.browser, "tested");
    const lead = oidc.addUser({ email: "Lead@tested.test", name: "Lea Lead", groups: ["idp-admins"] });
    const before = await signInRowCounts(db());

    const { callback, result } = await runTest(org.owner.browser, "/sso", "tested", lead.sub);

    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body).toMatchObject({
      providerId: "tested",
      email: "lead@tested.test",
      name: "Lea Lead",
      role: "admin",
      domainVerified: true,
      refusal: null,
      claims: { sub: lead.sub, email: "Lead@tested.test", groups: ["idp-admins"] },
    });
    expect(callback.headers.get("set-cookie") ?? "").not.toContain("session_token=");
    expect(await signInRowCounts(db())).toEqual(before);
    const actions = (
      await db().selectFrom("auditTrail").select("action").where("organizationId", "=", org.organizationId).execute()
    ).map((row) => row.action);
    expect(actions).toContain("organization.sso_connection_tested");
    expect(await db().selectFrom("auditTrail").select("id").where("action", "=", "user.sign_in").execute()).toEqual([]);
  });

  it("shows a refusal (an email outside the verified domains) as the result, not an error", async () => {
    const org = await createOrganization(server);
    expect((await org.owner.browser.post("/sso/register", connection("refusing", "refusing.test"))).status).toBe(200);
    await proveDomains(org.owner.browser, "refusing");
    const outsider = oidc.addUser({ email: "someone@elsewhere.test" });
    const before = await signInRowCounts(db());

    const { result, testId } = await runTest(org.owner.browser, "/sso", "refusing", outsider.sub);

    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({
      email: "someone@elsewhere.test",
      role: "member",
      domainVerified: false,
      refusal: "email_domain_not_verified",
    });
    expect(await signInRowCounts(db())).toEqual(before);
    // Kept 10 minutes, then gone.
    server.clock.advance(601);
    const expired = await org.owner.browser.get(`/sso/test-sign-in/result?testId=${testId}`);
    expect(expired.status).toBe(404);
    expect(expired.body.code).toBe("SSO_TEST_NOT_FOUND");
  });
});

describe("the provider refuses a test", () => {
  it("shows the provider's error code as the result", async () => {
    const org = await createOrganization(server);
    expect((await org.owner.browser.post("/sso/register", connection("declined", "declined.test"))).status).toBe(200);
    const start = await org.owner.browser.post("/sso/test-sign-in", { providerId: "declined" });
    expect(start.status).toBe(200);
    const answered = await oidc.authorize(start.body.url, oidc.addUser().sub, { deny: true });
    if (answered.kind !== "redirect") throw new Error("expected a redirect from the provider");
    const landing = locationOf(await org.owner.browser.get(answered.location));
    const result = await org.owner.browser.get(`/sso/test-sign-in/result?testId=${landing.searchParams.get("testId")}`);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body).toMatchObject({ providerId: "declined", claims: null, email: null, refusal: "access_denied" });
  });
});

describe("a setup link tests its organization's connection", () => {
  it("reads its own result; another owner or link reads nothing", async () => {
    const org = await createOrganization(server);
    expect((await org.owner.browser.post("/sso/register", connection("linked-test", "linked.test"))).status).toBe(200);
    const created = await org.owner.browser.post("/organization/create-setup-link", { scopes: ["sso"] });
    expect(created.status).toBe(200);
    const holder = server.browser();
    expect((await holder.post("/setup/open", { token: created.body.token })).status).toBe(200);
    const user = oidc.addUser({ email: "it@linked.test" });
    const before = await signInRowCounts(db());

    const { testId, result } = await runTest(holder, "/setup/sso", "linked-test", user.sub);

    expect(result.status, JSON.stringify(result.body)).toBe(200);
    // Before the domain is proven, the test says so: a real sign-in would not start yet.
    expect(result.body).toMatchObject({ email: "it@linked.test", domainVerified: false });
    expect(await signInRowCounts(db())).toEqual(before);

    // The organization's own owner did not start it, nor did another link or another organization.
    expect((await org.owner.browser.get(`/sso/test-sign-in/result?testId=${testId}`)).body.code).toBe(
      "SSO_TEST_NOT_FOUND",
    );
    const other = await org.owner.browser.post("/organization/create-setup-link", { scopes: ["sso"] });
    const otherHolder = server.browser();
    expect((await otherHolder.post("/setup/open", { token: other.body.token })).status).toBe(200);
    const foreign = await otherHolder.get(`/setup/sso/test-sign-in/result?testId=${testId}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("SSO_TEST_NOT_FOUND");
    const stranger = await createOrganization(server);
    expect((await stranger.owner.browser.get(`/sso/test-sign-in/result?testId=${testId}`)).status).toBe(404);
    // Nor can a link start a test on another organization's connection.
    const elsewhere = await otherHolder.post("/setup/sso/test-sign-in", { providerId: "refusing" });
    expect(elsewhere.body.code).toBe("SSO_PROVIDER_NOT_FOUND");

    const entries = await db()
      .selectFrom("auditTrail")
      .select(["actorType", "actorId"])
      .where("organizationId", "=", org.organizationId)
      .where("action", "=", "organization.sso_connection_tested")
      .execute();
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((entry) => entry.actorType === "setup-link")).toBe(true);
  });
});

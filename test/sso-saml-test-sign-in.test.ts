import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestBrowser } from "./helpers/browser.js";
import { selfSignedCertificate } from "./helpers/certificates.js";
import { signInRowCounts } from "./helpers/database.js";
import { skipWithoutDnsServer, startDnsServer, type TestDnsServer } from "./helpers/dns.js";
import { createOrganization } from "./helpers/organization.js";
import {
  type SamlMode,
  type SamlUser,
  samlIdpUnavailable,
  startSamlIdp,
  type TestSamlIdp,
} from "./helpers/saml-idp.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { locationOf } from "./helpers/social.js";

/**
 * Issue 54, a test sign-in through a SAML connection, with the real IdP (pysaml2): the response is
 * verified as a sign-in's is, and what it said (attributes, mapped email, name and role, whether the
 * domain is proven, the refusal a sign-in would meet) is kept for whoever started the test. Nobody
 * signs in: no user, account, member or session is written.
 */
const unavailable = samlIdpUnavailable();
let idp: TestSamlIdp;
let dns: TestDnsServer;
let server: TestServer;
const txt: Record<string, string[]> = {};
/** The test server is on http://127.0.0.1, so cookies carry no __Host- prefix. */
const FLOW_COOKIE = "gatehouse.saml_flow";

skipWithoutDnsServer();

const db = () => server.auth.database.db;

async function register(browser: TestBrowser, prefix: string, providerId: string, extra: object = {}) {
  const registered = await browser.post(`${prefix}/register`, {
    providerId,
    issuer: idp.entityId,
    domain: `${providerId}.test`,
    samlConfig: { entryPoint: idp.ssoURL, cert: idp.cert },
    ...extra,
  });
  expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  const metadata = await server.browser().get(`/sso/saml2/sp/metadata?providerId=${providerId}`);
  await idp.registerSp(metadata.body);
}

async function proveDomain(browser: TestBrowser, prefix: string, providerId: string) {
  const requested = await browser.post(`${prefix}/request-domain-verification`, { providerId });
  expect(requested.status).toBe(200);
  for (const record of requested.body.records) txt[record.name] = [record.value];
  await dns.setTxtRecords(txt);
  expect((await browser.post(`${prefix}/verify-domain`, { providerId })).status).toBe(200);
}

/** Starts a test at `prefix`, the IdP answers for `user`, the response is posted cross-site, the result read. */
async function runTest(browser: TestBrowser, prefix: string, providerId: string, user: SamlUser, mode?: SamlMode) {
  const start = await browser.post(`${prefix}/test-sign-in`, { providerId });
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  const answer = await idp.signIn(start.body.url, user, mode);
  const flow = browser.cookie(FLOW_COOKIE);
  expect(flow).toBeTruthy();
  const acs = await browser.request(answer.acs, {
    method: "POST",
    form: { SAMLResponse: answer.SAMLResponse, RelayState: answer.RelayState },
    headers: { origin: idp.base, cookie: `${FLOW_COOKIE}=${flow}` },
  });
  expect(acs.status).toBe(303);
  expect(acs.headers.get("set-cookie") ?? "").not.toContain("session_token=");
  const landing = locationOf(acs);
  expect(landing.pathname).toBe(`/api/auth${prefix}/test-sign-in/result`);
  expect(landing.searchParams.get("error")).toBeNull();
  const testId = landing.searchParams.get("testId") as string;
  const result = await browser.get(`${prefix}/test-sign-in/result?testId=${testId}`);
  return { testId, result };
}

describe.skipIf(unavailable !== null)("a test sign-in through a SAML connection", () => {
  beforeAll(async () => {
    [idp, dns] = await Promise.all([startSamlIdp(), startDnsServer()]);
    server = await startTestServer({
      options: { sso: { enabled: true, dnsResolvers: [dns.server] }, audit: { enabled: true } },
    });
  });
  afterAll(async () => {
    await server?.close();
    await idp?.close();
    await dns?.close();
  });
  afterEach(() => expect(server.loggedErrors).toEqual([]));

  it("an owner sees the attributes, mapped email, name and role (never owner); nobody is signed in", async () => {
    const org = await createOrganization(server);
    await register(org.owner.browser, "/sso", "saml-tested", {
      roleMapping: { claim: "groups", values: { "idp-owners": "admin" } },
    });
    // A mapping saved before owner roles were refused: the test shows what a sign-in gives, never owner.
    await db()
      .updateTable("ssoProvider")
      .set({ roleMapping: JSON.stringify({ claim: "groups", values: { "idp-owners": "owner,admin" } }) })
      .where("providerId", "=", "saml-tested")
      .execute();
    await proveDomain(org.owner.browser, "/sso", "saml-tested");
    const before = await signInRowCounts(db());

    const user = { id: "t-1", email: "Lead@saml-tested.test", name: "Lea Lead", groups: ["idp-owners"] };
    const { result, testId } = await runTest(org.owner.browser, "/sso", "saml-tested", user);

    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body).toMatchObject({
      providerId: "saml-tested",
      email: "lead@saml-tested.test",
      name: "Lea Lead",
      role: "admin",
      domainVerified: true,
      refusal: null,
    });
    expect(JSON.stringify(result.body.claims)).toContain("idp-owners");
    expect(await signInRowCounts(db())).toEqual(before);
    const actions = await db()
      .selectFrom("auditTrail")
      .select("action")
      .where("organizationId", "=", org.organizationId)
      .execute();
    expect(actions.map((a) => a.action)).toContain("organization.sso_connection_tested");
    expect(await db().selectFrom("auditTrail").select("id").where("action", "=", "user.sign_in").execute()).toEqual([]);

    // Only its starter reads it: another owner of another organization gets no test at all.
    const other = await createOrganization(server);
    const stranger = await other.owner.browser.get(`/sso/test-sign-in/result?testId=${testId}`);
    expect(stranger.status).toBe(404);
    expect(stranger.body.code).toBe("SSO_TEST_NOT_FOUND");
    // Kept 10 minutes, then gone.
    server.clock.advance(601);
    try {
      const expired = await org.owner.browser.get(`/sso/test-sign-in/result?testId=${testId}`);
      expect(expired.status).toBe(404);
    } finally {
      server.clock.advance(-601);
    }
  });

  it("a setup link's holder tests before the domain is proven and sees the refusal a sign-in would meet", async () => {
    const org = await createOrganization(server);
    const created = await org.owner.browser.post("/organization/create-setup-link", { scopes: ["sso", "domains"] });
    expect(created.status).toBe(200);
    const admin = server.browser();
    expect((await admin.post("/setup/open", { token: created.body.token })).status).toBe(200);
    await register(admin, "/setup/sso", "saml-link");
    const before = await signInRowCounts(db());

    const user = { id: "t-2", email: "it@saml-link.test", name: "Ira Tee" };
    const { result, testId } = await runTest(admin, "/setup/sso", "saml-link", user);

    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body).toMatchObject({
      email: "it@saml-link.test",
      name: "Ira Tee",
      role: "member",
      domainVerified: false,
      refusal: "email_domain_not_verified",
    });
    expect(await signInRowCounts(db())).toEqual(before);
    // The owner who made the link did not start this test: it is not theirs to read.
    expect((await org.owner.browser.get(`/sso/test-sign-in/result?testId=${testId}`)).status).toBe(404);

    await proveDomain(admin, "/setup/sso", "saml-link");
    const again = await runTest(admin, "/setup/sso", "saml-link", { ...user, id: "t-3" });
    expect(again.result.body).toMatchObject({ domainVerified: true, refusal: null });
    expect(await signInRowCounts(db())).toEqual(before);
  });

  it("a certificate that is not the IdP's reads as a wrong signature, with nothing else received", async () => {
    const org = await createOrganization(server);
    await register(org.owner.browser, "/sso", "saml-wrong-cert", {
      samlConfig: { entryPoint: idp.ssoURL, cert: selfSignedCertificate("not-the-idp", 2) },
    });
    const before = await signInRowCounts(db());

    const user = { id: "t-4", email: "x@saml-wrong-cert.test" };
    const { result } = await runTest(org.owner.browser, "/sso", "saml-wrong-cert", user);

    expect(result.body).toMatchObject({ refusal: "invalid_signature", claims: null, email: null, role: null });
    expect(await signInRowCounts(db())).toEqual(before);
  });

  it("comes back to the starter's own page with the test's id, never to a foreign one", async () => {
    const org = await createOrganization(server);
    await register(org.owner.browser, "/sso", "saml-return");
    const foreign = await org.owner.browser.post("/sso/test-sign-in", {
      providerId: "saml-return",
      callbackURL: "https://evil.example/steal",
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe("INVALID_CALLBACK_URL");

    const browser = org.owner.browser;
    const start = await browser.post("/sso/test-sign-in", {
      providerId: "saml-return",
      callbackURL: "/setup?step=sso",
    });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const answer = await idp.signIn(start.body.url, { id: "t-6", email: "r@saml-return.test" });
    const flow = browser.cookie(FLOW_COOKIE);
    const acs = await browser.request(answer.acs, {
      method: "POST",
      form: { SAMLResponse: answer.SAMLResponse, RelayState: answer.RelayState },
      headers: { origin: idp.base, cookie: `${FLOW_COOKIE}=${flow}` },
    });
    expect(acs.status).toBe(303);
    const landing = new URL(acs.headers.get("location") ?? "", server.origin);
    expect(landing.pathname).toBe("/setup");
    expect(landing.searchParams.get("step")).toBe("sso");
    const testId = landing.searchParams.get("ssoTestId") as string;
    const result = await browser.get(`/sso/test-sign-in/result?testId=${testId}`);
    expect(result.body).toMatchObject({ email: "r@saml-return.test", refusal: "email_domain_not_verified" });
  });

  it("an unsigned assertion is refused as a sign-in would refuse it", async () => {
    const org = await createOrganization(server);
    await register(org.owner.browser, "/sso", "saml-unsigned");
    const { result } = await runTest(
      org.owner.browser,
      "/sso",
      "saml-unsigned",
      { id: "t-5", email: "x@saml-unsigned.test" },
      "unsigned",
    );
    expect(result.body.refusal).toMatch(/signature|invalid_saml_response/);
    expect(result.body.claims).toBeNull();
  });
});

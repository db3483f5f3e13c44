import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestBrowser } from "./helpers/browser.js";
import { selfSignedCertificate } from "./helpers/certificates.js";
import { skipWithoutDnsServer, startDnsServer, type TestDnsServer } from "./helpers/dns.js";
import { createOrganization } from "./helpers/organization.js";
import { samlIdpUnavailable, startSamlIdp, type TestSamlIdp } from "./helpers/saml-idp.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

/**
 * Issue 54 with the real SAML IdP (pysaml2): an IT admin with only a setup link registers a SAML
 * connection from the IdP's metadata, proves its domain through dnsmasq, and people sign in through
 * it; bad metadata is refused with a message that says what is wrong.
 */
const unavailable = samlIdpUnavailable();
let idp: TestSamlIdp;
let dns: TestDnsServer;
let server: TestServer;

skipWithoutDnsServer();

async function openLink(owner: TestBrowser, scopes: string[]): Promise<TestBrowser> {
  const created = await owner.post("/organization/create-setup-link", { scopes, expiresIn: 7 * 24 * 3600 });
  expect(created.status).toBe(200);
  const browser = server.browser();
  expect((await browser.post("/setup/open", { token: created.body.token })).status).toBe(200);
  return browser;
}

describe.skipIf(unavailable !== null)("a setup link and a SAML identity provider", () => {
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

  it("registers the connection from the IdP's metadata, proves its domain, and people sign in", async () => {
    const org = await createOrganization(server);
    const it = await openLink(org.owner.browser, ["sso", "domains"]);
    const registered = await it.post("/setup/sso/register", {
      providerId: "link-saml",
      issuer: "urn:gatehouse:from-metadata",
      domain: "link-saml.test",
      samlConfig: { idpMetadata: { metadata: await idp.metadata() } },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    expect(registered.body).toMatchObject({
      type: "saml",
      issuer: idp.entityId,
      organizationId: org.organizationId,
      samlConfig: {
        callbackUrl: `${server.origin}/api/auth/sso/saml2/callback/link-saml`,
        spMetadataURL: `${server.origin}/api/auth/sso/saml2/sp/metadata?providerId=link-saml`,
      },
    });
    expect((await it.post("/setup/sso/test-connection", { providerId: "link-saml" })).body).toEqual({
      ok: true,
      error: null,
    });
    const requested = await it.post("/setup/sso/request-domain-verification", { providerId: "link-saml" });
    await dns.setTxtRecords(Object.fromEntries(requested.body.records.map((r: any) => [r.name, [r.value]])));
    expect((await it.post("/setup/sso/verify-domain", { providerId: "link-saml" })).status).toBe(200);

    // The IdP's admin reads the SP metadata without any credential, and the first hire signs in.
    const metadata = await server.browser().get("/sso/saml2/sp/metadata?providerId=link-saml");
    expect(metadata.status).toBe(200);
    await idp.registerSp(metadata.body);
    const person = server.browser();
    const start = await person.post("/sign-in/sso", { providerId: "link-saml", callbackURL: "/dash" });
    expect(start.status).toBe(200);
    const answer = await idp.signIn(start.body.url, { id: "hire", email: "hire@link-saml.test", name: "First Hire" });
    const flow = person.cookie("gatehouse.saml_flow");
    const acs = await person.request(answer.acs, {
      method: "POST",
      form: { SAMLResponse: answer.SAMLResponse, RelayState: answer.RelayState },
      headers: { origin: idp.base, cookie: flow ? `gatehouse.saml_flow=${flow}` : "" },
    });
    expect(acs.status).toBe(303);
    expect(new URL(acs.headers.get("location") ?? "", server.origin).pathname).toBe("/dash");
    expect((await person.get("/get-session")).body.user.email).toBe("hire@link-saml.test");
  });

  it("refuses bad metadata with a message that says what is wrong, and stores nothing", async () => {
    const org = await createOrganization(server);
    const it = await openLink(org.owner.browser, ["sso"]);
    const good = await idp.metadata();
    const cases: [string, string, RegExp][] = [
      ["with-entities", `<!DOCTYPE md [<!ENTITY x "${"x".repeat(64)}">]>${good}`, /DOCTYPE|entit/i],
      ["not-xml", "<EntityDescriptor", /not well-formed XML/],
      ["no-idp", '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"/>', /identity provider/],
    ];
    for (const [providerId, metadata, message] of cases) {
      const res = await it.post("/setup/sso/register", {
        providerId,
        issuer: "urn:gatehouse:from-metadata",
        domain: `${providerId}.test`,
        samlConfig: { idpMetadata: { metadata } },
      });
      expect(res.status, providerId).toBe(400);
      expect(res.body.code, providerId).toBe("SAML_CONFIG_INVALID");
      expect(res.body.message, providerId).toMatch(message);
    }
    const stored = await server.auth.database.db
      .selectFrom("ssoProvider")
      .select("providerId")
      .where("organizationId", "=", org.organizationId)
      .execute();
    expect(stored).toEqual([]);
  });

  it("says when the IdP's signing certificate has expired", async () => {
    const org = await createOrganization(server);
    const it = await openLink(org.owner.browser, ["sso"]);
    const registered = await it.post("/setup/sso/register", {
      providerId: "short-cert",
      issuer: "https://idp.short-cert.test/saml",
      domain: "short-cert.test",
      samlConfig: { entryPoint: "https://idp.short-cert.test/sso", cert: selfSignedCertificate("short-lived-idp", 1) },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    expect((await it.post("/setup/sso/test-connection", { providerId: "short-cert" })).body.ok).toBe(true);
    server.clock.advance(2 * 24 * 3600);
    try {
      const expired = await it.post("/setup/sso/test-connection", { providerId: "short-cert" });
      expect(expired.body.ok).toBe(false);
      expect(expired.body.error).toMatchObject({ code: "SAML_CONFIG_INVALID" });
      expect(expired.body.error.message).toMatch(/certificate expired on/);
    } finally {
      server.clock.advance(-2 * 24 * 3600);
    }
  });
});

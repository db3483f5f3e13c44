import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseSetCookie, type TestBrowser, type TestResponse } from "./helpers/browser.js";
import { skipWithoutDnsServer, startDnsServer, type TestDnsServer } from "./helpers/dns.js";
import { createOrganization, verifyEmail } from "./helpers/organization.js";
import {
  type SamlMode,
  type SamlPost,
  type SamlUser,
  samlIdpUnavailable,
  startSamlIdp,
  type TestSamlIdp,
} from "./helpers/saml-idp.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";
import { locationOf } from "./helpers/social.js";

/**
 * SAML 2.0 connections against a real IdP on loopback (pysaml2's, test/helpers/saml-idp.py): its
 * responses are signed by xmlsec1 with a key made for the run. CI installs python3-pysaml2 and
 * xmlsec1 (.ci/run); without them here, the file is skipped and says why.
 */
const unavailable = samlIdpUnavailable();
if (unavailable) console.warn(`sso-saml tests skipped: ${unavailable}`);

let idp: TestSamlIdp;
let dns: TestDnsServer;
let server: TestServer;
const txt: Record<string, string[]> = {};

const db = () => server.auth.database.db;
const errorOf = (response: TestResponse) => locationOf(response).searchParams.get("error");
const SP_ENTITY_ID = "urn:gatehouse:test:sp";
/** The test server is on http://127.0.0.1, so cookies carry no __Host- prefix. */
const FLOW_COOKIE = "gatehouse.saml_flow";

function samlConnection(providerId: string, domain: string, extra: Record<string, unknown> = {}) {
  return {
    providerId,
    issuer: idp.entityId,
    domain,
    samlConfig: { entryPoint: idp.ssoURL, cert: idp.cert },
    ...extra,
  };
}

/** An organization with a SAML connection whose domain is verified, known to the IdP by its SP metadata. */
async function verifiedConnection(
  providerId: string,
  domain: string,
  extra: Record<string, unknown> = {},
  on: TestServer = server,
) {
  const org = await createOrganization(on);
  const registered = await org.owner.browser.post("/sso/register", samlConnection(providerId, domain, extra));
  expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  const requested = await org.owner.browser.post("/sso/request-domain-verification", { providerId });
  for (const record of requested.body.records) txt[record.name] = [record.value];
  await dns.setTxtRecords(txt);
  expect((await org.owner.browser.post("/sso/verify-domain", { providerId })).status).toBe(200);
  const metadata = await on.browser().get(`/sso/saml2/sp/metadata?providerId=${providerId}`);
  expect(metadata.status).toBe(200);
  await idp.registerSp(metadata.body);
  return { ...org, connection: registered.body };
}

/**
 * The IdP's auto-posting form, as a browser sends it cross-site: from the IdP's origin, with only the
 * SameSite=None flow cookie (the Lax ones stay behind).
 */
function postToAcs(browser: TestBrowser, post: Pick<SamlPost, "acs" | "SAMLResponse" | "RelayState">) {
  const flow = browser.cookie(FLOW_COOKIE);
  return browser.request(post.acs, {
    method: "POST",
    form: { SAMLResponse: post.SAMLResponse, RelayState: post.RelayState },
    headers: { origin: idp.base, cookie: flow ? `${FLOW_COOKIE}=${flow}` : "" },
  });
}

/** SP-initiated sign-in: start, the IdP answers for `user`, the response is posted to the ACS. */
async function samlFlow(
  body: Record<string, unknown>,
  user: SamlUser,
  mode: SamlMode = "good",
  browser: TestBrowser = server.browser(),
) {
  const start = await browser.post("/sign-in/sso", { callbackURL: "/dash", errorCallbackURL: "/oops", ...body });
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  const answer = await idp.signIn(start.body.url, user, mode);
  const acs = await postToAcs(browser, answer);
  return { start, answer, acs, browser };
}

function tamper(samlResponse: string, from: string, to: string): string {
  const xml = Buffer.from(samlResponse, "base64").toString("utf8");
  expect(xml).toContain(from);
  return Buffer.from(xml.replaceAll(from, to), "utf8").toString("base64");
}

async function userByEmail(email: string) {
  return db().selectFrom("user").selectAll().where("email", "=", email).executeTakeFirst();
}

skipWithoutDnsServer();

describe.skipIf(unavailable !== null)("SAML 2.0 connections", () => {
  beforeAll(async () => {
    [idp, dns] = await Promise.all([startSamlIdp(), startDnsServer()]);
    server = await startTestServer({ options: { sso: { enabled: true, dnsResolvers: [dns.server] } } });
  });
  afterAll(async () => {
    await server?.close();
    await idp?.close();
    await dns?.close();
  });
  afterEach(() => expect(server.loggedErrors).toEqual([]));

  describe("registration", () => {
    it("answers the ACS URL, the SP entity id and the SP metadata an IdP admin needs", async () => {
      const { owner } = await createOrganization(server);
      const res = await owner.browser.post("/sso/register", samlConnection("reg-saml", "reg.test"));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const acs = `${server.origin}/api/auth/sso/saml2/callback/reg-saml`;
      const metadataURL = `${server.origin}/api/auth/sso/saml2/sp/metadata?providerId=reg-saml`;
      expect(res.body).toMatchObject({
        providerId: "reg-saml",
        type: "saml",
        issuer: idp.entityId,
        redirectURI: acs,
        samlConfig: {
          idpEntityId: idp.entityId,
          entryPoint: idp.ssoURL,
          audience: metadataURL,
          callbackUrl: acs,
          spMetadataURL: metadataURL,
          wantAssertionsSigned: true,
        },
      });
      expect(res.body.samlConfig.certFingerprints).toHaveLength(1);
      expect(res.body.oidcConfig).toBeUndefined();

      const xml = await server.browser().get("/sso/saml2/sp/metadata?providerId=reg-saml");
      expect(xml.status).toBe(200);
      expect(xml.headers.get("content-type")).toContain("application/samlmetadata+xml");
      expect(xml.body).toContain(`entityID="${metadataURL.replaceAll("&", "&amp;")}"`);
      expect(xml.body).toContain(`Location="${acs}"`);
      expect(xml.body).toContain('WantAssertionsSigned="true"');
      const json = await server.browser().get("/sso/saml2/sp/metadata?providerId=reg-saml&format=json");
      expect(json.body).toEqual({ providerId: "reg-saml", metadata: xml.body });
      expect((await server.browser().get("/sso/saml2/sp/metadata?providerId=nobody")).status).toBe(404);
    });

    it("test the connection: the kept settings check out and an AuthnRequest can be built", async () => {
      const { owner } = await createOrganization(server);
      expect((await owner.browser.post("/sso/register", samlConnection("probe-saml", "probe.test"))).status).toBe(200);
      const res = await owner.browser.post("/sso/test-connection", { providerId: "probe-saml" });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true, error: null });
    });

    it("reads the IdP's entity id, SSO URL and certificate from its metadata XML", async () => {
      const { owner } = await createOrganization(server);
      const res = await owner.browser.post("/sso/register", {
        providerId: "meta-saml",
        issuer: "urn:ignored-when-metadata-names-it",
        domain: "meta.test",
        samlConfig: { idpMetadata: { metadata: await idp.metadata() }, audience: SP_ENTITY_ID },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.samlConfig).toMatchObject({
        idpEntityId: idp.entityId,
        entryPoint: idp.ssoURL,
        audience: SP_ENTITY_ID,
      });
      expect(res.body.samlConfig.certFingerprints).toHaveLength(1);
    });

    it("refuses an incomplete or unsafe configuration with a 400 that saves nothing", async () => {
      const { owner } = await createOrganization(server);
      const base = samlConnection("bad-saml", "bad.test");
      const cases: [Record<string, unknown>, string | null][] = [
        [{ ...base, samlConfig: { entryPoint: idp.ssoURL } }, "SAML_CONFIG_INVALID"],
        [{ ...base, samlConfig: { cert: idp.cert } }, "SAML_CONFIG_INVALID"],
        [{ ...base, samlConfig: { entryPoint: idp.ssoURL, cert: "not a certificate" } }, "SAML_CONFIG_INVALID"],
        [{ ...base, samlConfig: { entryPoint: "http://idp.example.com/sso", cert: idp.cert } }, "SAML_CONFIG_INVALID"],
        [
          { ...base, samlConfig: { entryPoint: idp.ssoURL, cert: idp.cert, callbackUrl: "https://evil.example/acs" } },
          "SAML_CONFIG_INVALID",
        ],
        [{ ...base, samlConfig: { entryPoint: idp.ssoURL, cert: idp.cert, wantAssertionsSigned: false } }, null],
        [{ ...base, samlConfig: { idpMetadata: { metadata: "<not-xml" }, cert: idp.cert } }, "SAML_CONFIG_INVALID"],
        [{ ...base, oidcConfig: { clientId: "c", clientSecret: "s" } }, "SAML_CONFIG_INVALID"],
      ];
      for (const [body, code] of cases) {
        const res = await owner.browser.post("/sso/register", body);
        expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(400);
        expect(typeof res.body.code).toBe("string");
        if (code) expect(res.body.code).toBe(code);
      }
      expect(await db().selectFrom("ssoProvider").select("id").where("providerId", "=", "bad-saml").execute()).toEqual(
        [],
      );
    });
  });

  describe("sign-in", () => {
    it("a first sign-in creates the user (JIT) and joins the organization with the mapped role", async () => {
      const { organizationId } = await verifiedConnection("jit-saml", "jit.test", {
        roleMapping: { claim: "groups", values: { "idp-admins": "admin" } },
        samlConfig: {
          entryPoint: idp.ssoURL,
          cert: idp.cert,
          mapping: { name: "urn:mace:dir:attribute-def:displayName" },
        },
      });
      const user = { id: "jit-1", email: "Ann@JIT.test", name: "Ann Jit", groups: ["staff", "idp-admins"] };
      const { acs, browser } = await samlFlow({ email: "ann@jit.test", newUserCallbackURL: "/welcome" }, user);
      expect(acs.status).toBe(303);
      expect(acs.headers.get("location")).toBe("/welcome");
      const session = await browser.get("/get-session");
      expect(session.body.user).toMatchObject({ email: "ann@jit.test", name: "Ann Jit", emailVerified: true });
      expect(session.body.session.activeOrganizationId).toBe(organizationId);
      const member = await db()
        .selectFrom("member")
        .selectAll()
        .where("organizationId", "=", organizationId)
        .where("userId", "=", session.body.user.id)
        .executeTakeFirstOrThrow();
      expect(member.role).toBe("admin");
      const account = await db()
        .selectFrom("account")
        .selectAll()
        .where("userId", "=", session.body.user.id)
        .executeTakeFirstOrThrow();
      expect(account).toMatchObject({ providerId: "jit-saml", accountId: "jit-1" });

      // The next sign-in finds the same user through the link (and keeps the membership).
      const again = await samlFlow({ providerId: "jit-saml" }, user);
      expect(again.acs.headers.get("location")).toBe("/dash");
      expect((await again.browser.get("/get-session")).body.user.id).toBe(session.body.user.id);
    });

    it("an existing user with that address is linked through the verified domain (assertion-only signature)", async () => {
      const { organizationId } = await verifiedConnection("link-saml", "link.test");
      const existing = await signUp(server, { email: "bob@link.test", name: "Bob" });
      await verifyEmail(server, existing.user.id);
      const { acs, browser } = await samlFlow(
        { providerId: "link-saml" },
        { id: "bob-nameid", email: "bob@link.test" },
        "assertion-only",
      );
      expect(acs.status).toBe(303);
      expect(acs.headers.get("location")).toBe("/dash");
      expect((await browser.get("/get-session")).body.user.id).toBe(existing.user.id);
      const member = await db()
        .selectFrom("member")
        .select("role")
        .where("organizationId", "=", organizationId)
        .where("userId", "=", existing.user.id)
        .executeTakeFirstOrThrow();
      expect(member.role).toBe("member");
    });

    it("an email outside the connection's verified domains is refused", async () => {
      await verifiedConnection("dom-saml", "dom.test");
      const { acs } = await samlFlow({ providerId: "dom-saml" }, { id: "eve", email: "eve@elsewhere.test" });
      expect(locationOf(acs).pathname).toBe("/oops");
      expect(errorOf(acs)).toBe("email_domain_not_verified");
      expect(await userByEmail("eve@elsewhere.test")).toBeUndefined();
    });
  });

  describe("refused responses: an ?error= redirect to the app, no session, no user", () => {
    let n = 0;
    const person = () => {
      n++;
      return { id: `bad-${n}`, email: `bad${n}@refuse.test` };
    };
    beforeAll(async () => {
      await verifiedConnection("refuse-saml", "refuse.test");
    });

    async function expectRefused(acs: TestResponse, code: string, email: string) {
      expect(acs.status).toBe(303);
      expect(locationOf(acs).pathname).toBe("/oops");
      expect(errorOf(acs)).toBe(code);
      expect(acs.setCookies.some((c) => c.includes("session_token=") && !c.includes("Max-Age=0"))).toBe(false);
      expect(await userByEmail(email)).toBeUndefined();
    }

    it("a tampered assertion (its email changed after signing)", async () => {
      const browser = server.browser();
      const user = person();
      const start = await browser.post("/sign-in/sso", {
        providerId: "refuse-saml",
        callbackURL: "/dash",
        errorCallbackURL: "/oops",
      });
      const answer = await idp.signIn(start.body.url, user, "assertion-only");
      const forged = tamper(answer.SAMLResponse, user.email, "boss@refuse.test");
      await expectRefused(
        await postToAcs(browser, { ...answer, SAMLResponse: forged }),
        "invalid_signature",
        "boss@refuse.test",
      );
    });

    it("an unsigned response", async () => {
      const user = person();
      const { acs } = await samlFlow({ providerId: "refuse-saml" }, user, "unsigned");
      await expectRefused(acs, "invalid_signature", user.email);
    });

    it("a signed response whose assertion is not signed itself", async () => {
      const user = person();
      const { acs } = await samlFlow({ providerId: "refuse-saml" }, user, "response-only");
      await expectRefused(acs, "invalid_signature", user.email);
    });

    it("an expired assertion", async () => {
      const user = person();
      const { acs } = await samlFlow({ providerId: "refuse-saml" }, user, "expired");
      await expectRefused(acs, "assertion_expired", user.email);
    });

    it("an assertion for another audience", async () => {
      const user = person();
      const { acs } = await samlFlow({ providerId: "refuse-saml" }, user, "wrong-audience");
      await expectRefused(acs, "invalid_audience", user.email);
    });

    it("an assertion another IdP entity issued, signed with the connection's certificate", async () => {
      const user = person();
      const { answer, acs } = await samlFlow({ providerId: "refuse-saml" }, user, "other-issuer");
      expect(Buffer.from(answer.SAMLResponse, "base64").toString("utf8")).toContain(`${idp.base}/other-idp</`);
      await expectRefused(acs, "invalid_issuer", user.email);
    });

    it("an assertion for another recipient", async () => {
      const user = person();
      const { acs } = await samlFlow({ providerId: "refuse-saml" }, user, "wrong-recipient");
      await expectRefused(acs, "invalid_recipient", user.email);
    });

    it("a response replayed after it signed in", async () => {
      const user = person();
      const { acs, answer, browser } = await samlFlow({ providerId: "refuse-saml" }, user);
      expect(errorOf(acs)).toBeNull();
      const replay = await postToAcs(server.browser(), answer);
      expect(errorOf(replay)).toBe("state_not_found");
      // Even with a fresh flow's RelayState, the response answers another request.
      const fresh = await browser.post("/sign-in/sso", {
        providerId: "refuse-saml",
        callbackURL: "/dash",
        errorCallbackURL: "/oops",
      });
      const relayState = new URL(fresh.body.url).searchParams.get("RelayState") ?? "";
      // Posted by the browser that started the fresh flow, so only InResponseTo tells them apart.
      const crossed = await postToAcs(browser, { ...answer, RelayState: relayState });
      expect(locationOf(crossed).pathname).toBe("/oops");
      expect(errorOf(crossed)).toBe("invalid_in_response_to");
    });

    it("a response to one flow posted with another flow's RelayState", async () => {
      const user = person();
      const browser = server.browser();
      const first = await browser.post("/sign-in/sso", {
        providerId: "refuse-saml",
        callbackURL: "/dash",
        errorCallbackURL: "/oops",
      });
      const second = await browser.post("/sign-in/sso", {
        providerId: "refuse-saml",
        callbackURL: "/dash",
        errorCallbackURL: "/oops",
      });
      const answer = await idp.signIn(first.body.url, user);
      const relayState = new URL(second.body.url).searchParams.get("RelayState") ?? "";
      await expectRefused(
        await postToAcs(browser, { ...answer, RelayState: relayState }),
        "invalid_in_response_to",
        user.email,
      );
    });

    it("a response an attacker obtained for their own flow, posted from a victim's browser (login CSRF)", async () => {
      const attacker = person();
      const { answer } = await (async () => {
        const own = server.browser();
        const start = await own.post("/sign-in/sso", {
          providerId: "refuse-saml",
          callbackURL: "/dash",
          errorCallbackURL: "/oops",
        });
        return { answer: await idp.signIn(start.body.url, attacker) };
      })();
      // The victim's browser never started this flow, so it holds no flow cookie for it.
      const victim = server.browser();
      await expectRefused(await postToAcs(victim, answer), "state_mismatch", attacker.email);
    });

    it("the flow cookie crosses sites: SameSite=None, Secure, HttpOnly, as long as the state", async () => {
      const start = await server
        .browser()
        .post("/sign-in/sso", { providerId: "refuse-saml", callbackURL: "/dash", errorCallbackURL: "/oops" });
      const line = start.setCookies.find((l) => l.startsWith(`${FLOW_COOKIE}=`));
      expect(line).toBeDefined();
      const { attributes } = parseSetCookie(line ?? "");
      expect(attributes).toMatchObject({ samesite: "None", secure: true, httponly: true, "max-age": "300", path: "/" });
    });

    it("an unsolicited (IdP-initiated) response, by default", async () => {
      const user = person();
      const post = await idp.unsolicited({
        user,
        spEntityId: `${server.origin}/api/auth/sso/saml2/sp/metadata?providerId=refuse-saml`,
        acs: `${server.origin}/api/auth/sso/saml2/callback/refuse-saml`,
      });
      const acs = await postToAcs(server.browser(), post);
      expect(acs.status).toBe(303);
      expect(locationOf(acs).pathname).toBe("/api/auth/error");
      expect(errorOf(acs)).toBe("unsolicited_response");
      expect(await userByEmail(user.email)).toBeUndefined();
    });

    it("a malformed post is a 4xx or an ?error= redirect, never a 500", async () => {
      const browser = server.browser();
      const missing = await browser.request("/sso/saml2/callback/refuse-saml", {
        method: "POST",
        form: { RelayState: "x" },
        headers: { origin: idp.base },
      });
      expect(missing.status).toBe(400);
      const start = await browser.post("/sign-in/sso", {
        providerId: "refuse-saml",
        callbackURL: "/dash",
        errorCallbackURL: "/oops",
      });
      const relayState = new URL(start.body.url).searchParams.get("RelayState") ?? "";
      for (const junk of [
        "not base64 at all!",
        Buffer.from("<nope").toString("base64"),
        Buffer.from("{}").toString("base64"),
      ]) {
        const res = await browser.request("/sso/saml2/callback/refuse-saml", {
          method: "POST",
          form: { SAMLResponse: junk, RelayState: relayState },
          headers: { origin: idp.base },
        });
        expect(res.status).toBe(303);
        expect(errorOf(res)).toMatch(/^(invalid_|state_not_found)/);
      }
    });
  });

  describe("IdP-initiated sign-in switched on (sso.saml.allowIdpInitiated)", () => {
    it("signs in once; the same assertion replayed is refused, on this instance or another", async () => {
      const options = { sso: { enabled: true, dnsResolvers: [dns.server], saml: { allowIdpInitiated: true } } };
      const portal = await startTestServer({ options, shareable: true });
      // A second instance of the same service (same database, same public URL).
      const twin = await startTestServer({ options, shareDatabaseWith: portal, extra: { baseURL: portal.origin } });
      try {
        await verifiedConnection(
          "portal-saml",
          "portal.test",
          { samlConfig: { entryPoint: idp.ssoURL, cert: idp.cert, audience: SP_ENTITY_ID } },
          portal,
        );
        const user = { id: "pat", email: "pat@portal.test" };
        const post = await idp.unsolicited({
          user,
          spEntityId: SP_ENTITY_ID,
          acs: `${portal.origin}/api/auth/sso/saml2/sp/acs/portal-saml`,
          relayState: "/from-portal",
        });
        const browser = portal.browser();
        const first = await postToAcs(browser, post);
        expect(first.status).toBe(303);
        expect(first.headers.get("location")).toBe("/from-portal");
        expect((await browser.get("/get-session")).body.user.email).toBe("pat@portal.test");

        const replayed = await postToAcs(portal.browser(), post);
        expect(errorOf(replayed)).toBe("assertion_replayed");
        const elsewhere = await postToAcs(twin.browser(), {
          ...post,
          acs: post.acs.replace(portal.origin, twin.origin),
        });
        expect(errorOf(elsewhere)).toBe("assertion_replayed");
        // Both at once, on both instances, with a fresh assertion: exactly one signs in.
        const raced = await idp.unsolicited({
          user,
          spEntityId: SP_ENTITY_ID,
          acs: post.acs,
          relayState: "/from-portal",
        });
        const answers = await Promise.all([
          postToAcs(portal.browser(), raced),
          postToAcs(twin.browser(), { ...raced, acs: raced.acs.replace(portal.origin, twin.origin) }),
        ]);
        expect(answers.map((a) => errorOf(a)).sort()).toEqual(["assertion_replayed", null]);
        // A response that claims to answer a request is not taken as unsolicited.
        const start = await portal.browser().post("/sign-in/sso", { providerId: "portal-saml", callbackURL: "/dash" });
        const solicited = await idp.signIn(start.body.url, { id: "pat2", email: "pat2@portal.test" });
        const asUnsolicited = await postToAcs(portal.browser(), {
          ...solicited,
          acs: `${portal.origin}/api/auth/sso/saml2/callback/portal-saml`,
          RelayState: "",
        });
        expect(errorOf(asUnsolicited)).toMatch(/^invalid_/);
        expect(portal.loggedErrors).toEqual([]);
        expect(twin.loggedErrors).toEqual([]);
      } finally {
        await twin.close();
        await portal.close();
      }
    });
  });
});

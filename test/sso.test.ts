import { URI } from "otpauth";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestBrowser, TestResponse } from "./helpers/browser.js";
import { skipWithoutDnsServer, startDnsServer, type TestDnsServer } from "./helpers/dns.js";
import { CLIENT_ID, CLIENT_SECRET, startOidcProvider, type TestOidcProvider } from "./helpers/oidc.js";
import { createOrganization, joinAs } from "./helpers/organization.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";
import { locationOf, socialFlow } from "./helpers/social.js";

let oidc: TestOidcProvider;
let dns: TestDnsServer;
let server: TestServer;
/** Connection ids the provider knows redirect URIs for. */
const PROVIDER_IDS = [
  "acme",
  "beta",
  "roles",
  "linker",
  "unverified",
  "slugged",
  "other-org",
  "twin",
  "resync",
  "race",
  "tfa",
];
const txt: Record<string, string[]> = {};

skipWithoutDnsServer();

beforeAll(async () => {
  [oidc, dns] = await Promise.all([startOidcProvider(), startDnsServer()]);
  // The provider runs on loopback, which connections may name only when the operator allows it.
  server = await startTestServer({
    options: {
      sso: { enabled: true, dnsResolvers: [dns.server], allowPrivateIssuers: true },
      twoFactor: { enabled: true },
    },
  });
  await oidc.configure(PROVIDER_IDS.map((id) => `${server.origin}/api/auth/sso/callback/${id}`));
});
afterAll(async () => {
  await server?.close();
  await oidc?.close();
  await dns?.close();
});
afterEach(() => expect(server.loggedErrors).toEqual([]));

const db = () => server.auth.database.db;
const errorOf = (response: TestResponse) => locationOf(response).searchParams.get("error");

function connection(providerId: string, domain: string, extra: Record<string, unknown> = {}) {
  return {
    providerId,
    issuer: oidc.issuer,
    domain,
    oidcConfig: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
    ...extra,
  };
}

/** Publishes the TXT record request-domain-verification asks for and verifies. */
async function proveDomains(owner: TestBrowser, providerId: string) {
  const requested = await owner.post("/sso/request-domain-verification", { providerId });
  expect(requested.status).toBe(200);
  for (const record of requested.body.records) txt[record.name] = [record.value];
  await dns.setTxtRecords(txt);
  const verified = await owner.post("/sso/verify-domain", { providerId });
  expect(verified.status).toBe(200);
  return verified.body;
}

/** An organization with a registered connection whose domain is verified. */
async function verifiedConnection(providerId: string, domain: string, extra: Record<string, unknown> = {}) {
  const org = await createOrganization(server);
  const registered = await org.owner.browser.post("/sso/register", connection(providerId, domain, extra));
  expect(registered.status).toBe(200);
  await proveDomains(org.owner.browser, providerId);
  return org;
}

async function ssoFlow(body: Record<string, unknown>, sub: string, browser = server.browser()) {
  const flow = await socialFlow(browser, oidc, sub, { path: "/sign-in/sso", body: { callbackURL: "/dash", ...body } });
  return { ...flow, browser };
}

describe("sso off (the default)", () => {
  it("routes none of its endpoints", async () => {
    const plain = await startTestServer();
    try {
      const browser = plain.browser();
      expect((await browser.post("/sign-in/sso", { email: "a@acme.test", callbackURL: "/" })).status).toBe(404);
      expect((await browser.post("/sso/register", connection("x", "x.test"))).status).toBe(404);
      expect((await browser.get("/sso/callback/x?state=s&code=c")).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

describe("issuer addresses (the default: public only)", () => {
  it("refuses issuers on loopback, private and link-local addresses, by literal or by name", async () => {
    const guarded = await startTestServer({ options: { sso: { enabled: true } } });
    try {
      const { owner } = await createOrganization(guarded);
      const refused = async (issuer: string) =>
        (await owner.browser.post("/sso/register", connection("internal", "internal.test", { issuer }))).body;
      // Plain http is refused outright; https to a non-public address is refused before connecting.
      expect((await refused(oidc.issuer)).code).toBe("INVALID_ISSUER");
      // The provider's own port: without the guard these would reach it and fail later, in TLS.
      const { port } = new URL(oidc.issuer);
      for (const host of ["127.0.0.1", "localhost", "10.1.2.3", "169.254.169.254", "[::1]", "[::ffff:127.0.0.1]"]) {
        expect(await refused(`https://${host}:${port}`), host).toMatchObject({ code: "ISSUER_NOT_PUBLIC" });
      }
      const saved = await guarded.auth.database.db.selectFrom("ssoProvider").select("id").execute();
      expect(saved).toEqual([]);
    } finally {
      await guarded.close();
    }
  });
});

describe("connections per organization", () => {
  it("registers a connection: redirect URI in the reply, secret sealed at rest, domains unverified", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const res = await owner.browser.post("/sso/register", connection("acme", "Acme.test, sub.acme.test"));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      providerId: "acme",
      type: "oidc",
      organizationId,
      redirectURI: `${server.origin}/api/auth/sso/callback/acme`,
      domain: "acme.test,sub.acme.test",
      domainVerified: false,
      defaultRole: "member",
      oidcConfig: { clientIdLastFour: CLIENT_ID.slice(-4), scopes: ["openid", "email", "profile"], pkce: true },
    });
    expect(JSON.stringify(res.body)).not.toContain(CLIENT_SECRET);
    const row = await db()
      .selectFrom("ssoProvider")
      .selectAll()
      .where("providerId", "=", "acme")
      .executeTakeFirstOrThrow();
    expect(row.clientSecret).not.toContain(CLIENT_SECRET);
    expect(row.clientSecret.length).toBeGreaterThan(CLIENT_SECRET.length);

    const listed = await owner.browser.get("/sso/providers");
    expect(listed.body.providers.map((p: { providerId: string }) => p.providerId)).toEqual(["acme"]);
    const got = await owner.browser.get("/sso/get-provider?providerId=acme");
    expect(got.body.redirectURI).toBe(res.body.redirectURI);
  });

  it("owners update and delete; domains kept keep their state", async () => {
    const { owner } = await createOrganization(server);
    expect((await owner.browser.post("/sso/register", connection("beta", "beta.test"))).status).toBe(200);
    const updated = await owner.browser.post("/sso/update-provider", {
      providerId: "beta",
      domain: "beta.test,beta2.test",
      oidcConfig: { scopes: ["openid", "email"] },
      defaultRole: "admin",
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ domain: "beta.test,beta2.test", defaultRole: "admin" });
    expect(updated.body.oidcConfig.scopes).toEqual(["openid", "email"]);
    const deleted = await owner.browser.post("/sso/delete-provider", { providerId: "beta" });
    expect(deleted.body).toEqual({ success: true });
    expect((await owner.browser.get("/sso/get-provider?providerId=beta")).status).toBe(404);
    expect(await db().selectFrom("ssoDomain").selectAll().where("domain", "like", "beta%").execute()).toEqual([]);
  });

  it("only the organization's owners and admins; another organization's connection does not exist for them", async () => {
    const org = await createOrganization(server);
    expect((await org.owner.browser.post("/sso/register", connection("twin", "twin.test"))).status).toBe(200);
    const member = await joinAs(server, org.organizationId, "member");
    const admin = await joinAs(server, org.organizationId, "admin");

    const byMember = await member.browser.post("/sso/register", connection("nope", "nope.test"));
    expect(byMember.status).toBe(403);
    expect(byMember.body.code).toBe("SSO_INSUFFICIENT_ACCESS");
    expect((await member.browser.get("/sso/get-provider?providerId=twin")).status).toBe(403);
    expect((await member.browser.get("/sso/providers")).body.providers).toEqual([]);
    expect((await admin.browser.get("/sso/get-provider?providerId=twin")).status).toBe(200);

    const stranger = await createOrganization(server);
    for (const [path, body] of [
      ["/sso/update-provider", { providerId: "twin", defaultRole: "owner" }],
      ["/sso/delete-provider", { providerId: "twin" }],
      ["/sso/request-domain-verification", { providerId: "twin" }],
      ["/sso/verify-domain", { providerId: "twin" }],
    ] as const) {
      const res = await stranger.owner.browser.post(path, body);
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe("SSO_PROVIDER_NOT_FOUND");
    }
    expect((await stranger.owner.browser.get("/sso/get-provider?providerId=twin")).status).toBe(404);
    // Registering into an organization one does not manage, by naming its id.
    const intoOther = await stranger.owner.browser.post(
      "/sso/register",
      connection("sneaky", "sneaky.test", { organizationId: org.organizationId }),
    );
    expect(intoOther.status).toBe(403);
    expect(
      await db().selectFrom("ssoProvider").select("providerId").where("providerId", "=", "sneaky").execute(),
    ).toEqual([]);
  });

  it("refuses bad input with a 4xx that changes nothing", async () => {
    const { owner } = await createOrganization(server);
    const cases: [Record<string, unknown>, number, string?][] = [
      [connection("bad id!", "x.test"), 400],
      [connection("okid", "not a domain"), 400],
      [connection("okid", ""), 400],
      [{ ...connection("okid", "x.test"), oidcConfig: undefined }, 400, "OIDC_CONFIG_REQUIRED"],
      [connection("okid", "x.test", { samlConfig: { entryPoint: "https://idp" } }), 400, "SAML_CONFIG_INVALID"],
      [connection("okid", "x.test", { issuer: "http://idp.example.com" }), 400, "INVALID_ISSUER"],
      [connection("okid", "x.test", { issuer: "http://127.0.0.1:9" }), 400, "DISCOVERY_FAILED"],
      [connection("okid", "x.test", { defaultRole: "emperor" }), 400, "ROLE_NOT_FOUND"],
      [connection("okid", "x.test", { oidcConfig: { clientId: CLIENT_ID, clientSecret: "s", pkce: false } }), 400],
      [
        connection("okid", "x.test", {
          oidcConfig: { clientId: CLIENT_ID, clientSecret: "s", discoveryEndpoint: "http://127.0.0.1:1/x" },
        }),
        400,
        "DISCOVERY_FAILED",
      ],
      [connection("acme", "x.test"), 422, "SSO_PROVIDER_ID_TAKEN"],
    ];
    for (const [body, status, code] of cases) {
      const res = await owner.browser.post("/sso/register", body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(typeof res.body.code).toBe("string");
      if (code) expect(res.body.code).toBe(code);
    }
    expect(await db().selectFrom("ssoProvider").select("id").where("providerId", "=", "okid").execute()).toEqual([]);
    expect((await owner.browser.post("/sign-in/sso", { callbackURL: "/" })).body.code).toBe("SSO_IDENTIFIER_REQUIRED");
    expect((await owner.browser.post("/sign-in/sso", { email: "a@b.test" })).status).toBe(400);
  });
});

describe("test the connection (the Connections screen's button)", () => {
  it("answers ok when the issuer's discovery loads, the failure's code when it does not", async () => {
    const org = await createOrganization(server);
    expect((await org.owner.browser.post("/sso/register", connection("probe", "probe.test"))).status).toBe(200);
    const ok = await org.owner.browser.post("/sso/test-connection", { providerId: "probe" });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true, error: null });

    // The IdP moved away since the connection was saved: nothing answers at the issuer now.
    await db()
      .updateTable("ssoProvider")
      .set({ issuer: "http://127.0.0.1:9" })
      .where("providerId", "=", "probe")
      .execute();
    const failed = await org.owner.browser.post("/sso/test-connection", { providerId: "probe" });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ ok: false, error: { code: "DISCOVERY_FAILED" } });

    const member = await joinAs(server, org.organizationId, "member");
    const byMember = await member.browser.post("/sso/test-connection", { providerId: "probe" });
    expect(byMember.status).toBe(403);
    expect(byMember.body.code).toBe("SSO_INSUFFICIENT_ACCESS");
    const stranger = await createOrganization(server);
    expect((await stranger.owner.browser.post("/sso/test-connection", { providerId: "probe" })).status).toBe(404);
    expect((await org.owner.browser.post("/sso/test-connection", { providerId: "bad id!" })).status).toBe(400);
  });

  it("app-config tells the sign-in screen that SSO is on", async () => {
    expect((await server.browser().get("/app-config")).body.sso).toBe(true);
  });
});

describe("verified domains", () => {
  it("a domain routes sign-ins only after its TXT record proves it", async () => {
    const { owner } = await createOrganization(server);
    expect((await owner.browser.post("/sso/register", connection("other-org", "proof.test"))).status).toBe(200);
    const browser = server.browser();
    const byEmail = await browser.post("/sign-in/sso", { email: "ann@proof.test", callbackURL: "/" });
    expect(byEmail.status).toBe(404);
    const byId = await browser.post("/sign-in/sso", { providerId: "other-org", callbackURL: "/" });
    expect(byId.status).toBe(401);
    expect(byId.body.code).toBe("DOMAIN_NOT_VERIFIED");

    expect((await owner.browser.post("/sso/verify-domain", { providerId: "other-org" })).body.code).toBe(
      "NO_PENDING_VERIFICATION",
    );
    const requested = await owner.browser.post("/sso/request-domain-verification", { providerId: "other-org" });
    expect(requested.body.records).toEqual([
      {
        domain: "proof.test",
        name: "proof.test",
        value: `better-auth-token-other-org=${requested.body.domainVerificationToken}`,
      },
    ]);
    // Asked again, the same token: a record already published stays good.
    const again = await owner.browser.post("/sso/request-domain-verification", { providerId: "other-org" });
    expect(again.body.domainVerificationToken).toBe(requested.body.domainVerificationToken);

    // No record, then a record with another token: not verified, nothing changes.
    const missing = await owner.browser.post("/sso/verify-domain", { providerId: "other-org" });
    expect(missing.status).toBe(502);
    expect(missing.body.code).toBe("DOMAIN_VERIFICATION_FAILED");
    txt["proof.test"] = ["better-auth-token-other-org=not-the-token", "v=spf1 -all"];
    await dns.setTxtRecords(txt);
    expect((await owner.browser.post("/sso/verify-domain", { providerId: "other-org" })).status).toBe(502);
    expect((await browser.post("/sign-in/sso", { email: "ann@proof.test", callbackURL: "/" })).status).toBe(404);

    txt["proof.test"] = ["v=spf1 -all", requested.body.records[0].value];
    await dns.setTxtRecords(txt);
    const verified = await owner.browser.post("/sso/verify-domain", { providerId: "other-org" });
    expect(verified.body).toEqual({ verified: true, domains: [{ domain: "proof.test", verified: true }] });
    const routed = await browser.post("/sign-in/sso", { email: "Ann@Proof.test", callbackURL: "/" });
    expect(routed.status).toBe(200);
    expect(new URL(routed.body.url).searchParams.get("redirect_uri")).toBe(
      `${server.origin}/api/auth/sso/callback/other-org`,
    );
    expect((await owner.browser.post("/sso/request-domain-verification", { providerId: "other-org" })).status).toBe(
      409,
    );

    // Another organization claims the same domain and even publishes its record: the domain stays put.
    const rival = await createOrganization(server);
    expect((await rival.owner.browser.post("/sso/register", connection("rival", "proof.test"))).status).toBe(200);
    const rivalToken = await rival.owner.browser.post("/sso/request-domain-verification", { providerId: "rival" });
    txt["proof.test"] = [...(txt["proof.test"] ?? []), rivalToken.body.records[0].value];
    await dns.setTxtRecords(txt);
    const taken = await rival.owner.browser.post("/sso/verify-domain", { providerId: "rival" });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe("DOMAIN_VERIFIED_ELSEWHERE");
    const stillRouted = await browser.post("/sign-in/sso", { email: "ann@proof.test", callbackURL: "/" });
    expect(new URL(stillRouted.body.url).searchParams.get("redirect_uri")).toContain("/sso/callback/other-org");
  });
});

describe("sign-in", () => {
  it("by work email: a first sign-in creates the user, joins the organization with the default role", async () => {
    const { organizationId, owner: orgOwner } = await verifiedConnection("slugged", "signin.test");
    const person = oidc.addUser({ email: "dana@signin.test" });
    const { start, callback, browser } = await ssoFlow({ email: "dana@signin.test" }, person.sub);
    const q = new URL(start.body.url).searchParams;
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("nonce")).toMatch(/^[\w-]{32}$/);
    expect(q.get("login_hint")).toBe("dana@signin.test");
    expect(callback.status).toBe(302);
    expect(locationOf(callback).pathname).toBe("/dash");

    const session = await browser.get("/get-session");
    expect(session.body.user).toMatchObject({ email: "dana@signin.test", emailVerified: true });
    expect(session.body.session.activeOrganizationId).toBe(organizationId);
    const member = await db()
      .selectFrom("member")
      .selectAll()
      .where("userId", "=", session.body.user.id)
      .executeTakeFirstOrThrow();
    expect(member).toMatchObject({ organizationId, role: "member" });

    // Again, by organization slug and by provider id: the same user, still one membership.
    const org = await db()
      .selectFrom("organization")
      .select("slug")
      .where("id", "=", organizationId)
      .executeTakeFirstOrThrow();
    for (const body of [{ organizationSlug: org.slug }, { providerId: "slugged" }]) {
      const again = await ssoFlow(body, person.sub);
      expect(locationOf(again.callback).pathname).toBe("/dash");
      expect((await again.browser.get("/get-session")).body.user.id).toBe(session.body.user.id);
    }
    expect(
      await db().selectFrom("member").select("id").where("userId", "=", session.body.user.id).execute(),
    ).toHaveLength(1);

    // Removing the connection removes its links: a later connection reusing the id inherits nobody.
    expect((await orgOwner.browser.post("/sso/delete-provider", { providerId: "slugged" })).status).toBe(200);
    expect(await db().selectFrom("account").select("id").where("providerId", "=", "slugged").execute()).toEqual([]);
  });

  it("maps a groups claim to the role the member joins with", async () => {
    await verifiedConnection("roles", "roles.test", {
      oidcConfig: {
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        scopes: ["openid", "email", "profile", "groups"],
      },
      roleMapping: { claim: "groups", values: { "idp-admins": "admin" } },
    });
    const lead = oidc.addUser({ email: "lead@roles.test", groups: ["staff", "idp-admins"] });
    const staff = oidc.addUser({ email: "staff@roles.test", groups: ["staff"] });
    const roleOf = async (sub: string) => {
      const { browser } = await ssoFlow({ email: "x@roles.test" }, sub);
      const userId = (await browser.get("/get-session")).body.user.id;
      return (await db().selectFrom("member").select("role").where("userId", "=", userId).executeTakeFirstOrThrow())
        .role;
    };
    expect(await roleOf(lead.sub)).toBe("admin");
    expect(await roleOf(staff.sub)).toBe("member");
  });

  it("links an existing verified user through the verified domain; an unproven account is not handed over", async () => {
    await verifiedConnection("linker", "link.test");
    const existing = await signUp(server, { email: "erin@link.test", verified: true });
    const erin = oidc.addUser({ email: "erin@link.test" });
    const flow = await ssoFlow({ email: "erin@link.test" }, erin.sub);
    expect((await flow.browser.get("/get-session")).body.user.id).toBe(existing.user.id);

    const squatted = await signUp(server, { email: "finn@link.test" });
    const finn = oidc.addUser({ email: "finn@link.test" });
    const refused = await ssoFlow({ email: "finn@link.test" }, finn.sub);
    expect(errorOf(refused.callback)).toBe("account_not_linked");
    expect(await db().selectFrom("account").select("id").where("userId", "=", squatted.user.id).execute()).toHaveLength(
      1,
    );
  });

  it("never links an existing account when the IdP says email_verified: false; a new user is made unverified", async () => {
    await verifiedConnection("unverified", "unverified.test");
    const hana = await signUp(server, { email: "hana@unverified.test", verified: true });
    const claimed = oidc.addUser({ email: "hana@unverified.test", email_verified: false });
    const refused = await ssoFlow({ email: "hana@unverified.test" }, claimed.sub);
    expect(errorOf(refused.callback)).toBe("account_not_linked");
    expect(refused.callback.setCookies.some((c) => c.includes("session_token=") && !c.includes("Max-Age=0"))).toBe(
      false,
    );
    const links = await db().selectFrom("account").select("providerId").where("userId", "=", hana.user.id).execute();
    expect(links).toEqual([{ providerId: "credential" }]);

    // Said verified, the same address links (the organization's verified domain speaks for it).
    const proven = oidc.addUser({ email: "hana@unverified.test" });
    const linked = await ssoFlow({ email: "hana@unverified.test" }, proven.sub);
    expect((await linked.browser.get("/get-session")).body.user.id).toBe(hana.user.id);

    const ivy = oidc.addUser({ email: "ivy@unverified.test", email_verified: false });
    const created = await ssoFlow({ email: "ivy@unverified.test" }, ivy.sub);
    expect((await created.browser.get("/get-session")).body.user).toMatchObject({
      email: "ivy@unverified.test",
      emailVerified: false,
    });
  });

  it("refuses an address outside the connection's verified domains", async () => {
    const outsider = oidc.addUser({ email: "gus@elsewhere.test" });
    const { callback } = await ssoFlow({ providerId: "linker" }, outsider.sub);
    expect(errorOf(callback)).toBe("email_domain_not_verified");
    expect(await db().selectFrom("user").select("id").where("email", "=", "gus@elsewhere.test").execute()).toEqual([]);
  });

  it("refuses a wrong state, a wrong nonce and another connection's callback with ?error=", async () => {
    const person = oidc.addUser({ email: "hal@link.test" });
    const browser = server.browser();
    const start = await browser.post("/sign-in/sso", { providerId: "linker", callbackURL: "/dash" });
    const back = await oidc.authorize(start.body.url, person.sub);
    if (back.kind !== "redirect") throw new Error("expected a redirect");
    const forged = new URL(back.location);
    forged.searchParams.set("state", "x".repeat(32));
    expect(errorOf(await browser.get(forged.toString()))).toBe("state_not_found");

    // The nonce the provider signs is not the one this flow stored.
    const second = await browser.post("/sign-in/sso", { providerId: "linker", callbackURL: "/dash" });
    const tampered = new URL(second.body.url);
    tampered.searchParams.set("nonce", "n".repeat(32));
    const nonceBack = await oidc.authorize(tampered.toString(), person.sub);
    if (nonceBack.kind !== "redirect") throw new Error("expected a redirect");
    expect(errorOf(await browser.get(nonceBack.location))).toBe("invalid_code");

    // A flow started for one connection, finished at another's callback.
    const third = await browser.post("/sign-in/sso", { providerId: "linker", callbackURL: "/dash" });
    const thirdBack = await oidc.authorize(third.body.url, person.sub);
    if (thirdBack.kind !== "redirect") throw new Error("expected a redirect");
    const crossed = thirdBack.location.replace("/sso/callback/linker", "/sso/callback/roles");
    expect(errorOf(await browser.get(crossed))).toBe("oauth_provider_not_found");
    // Nor can the social callback finish it.
    const fourth = await browser.post("/sign-in/sso", { providerId: "linker", callbackURL: "/dash" });
    const fourthBack = await oidc.authorize(fourth.body.url, person.sub);
    if (fourthBack.kind !== "redirect") throw new Error("expected a redirect");
    expect(errorOf(await browser.get(fourthBack.location.replace("/sso/callback/linker", "/callback/linker")))).toMatch(
      /state_not_found|oauth_provider_not_found/,
    );
    expect((await browser.get("/get-session")).body).toBeNull();
    expect(await db().selectFrom("user").select("id").where("email", "=", "hal@link.test").execute()).toEqual([]);
  });
});

describe("a connection never makes anyone an owner", () => {
  const ownerRoles = [
    { defaultRole: "owner" },
    { defaultRole: "admin,owner" },
    { roleMapping: { claim: "groups", values: { "idp-admins": "admin", "idp-owners": "owner" } } },
  ];

  it("refuses an owner role at registration: nothing is saved", async () => {
    const { owner, organizationId } = await createOrganization(server);
    for (const roles of ownerRoles) {
      const res = await owner.browser.post("/sso/register", connection("ownerless", "ownerless.test", roles));
      expect([res.status, res.body.code], JSON.stringify(roles)).toEqual([400, "SSO_ROLE_NOT_ALLOWED"]);
      expect(res.body.message).toEqual(expect.any(String));
    }
    const saved = await db()
      .selectFrom("ssoProvider")
      .select("id")
      .where("organizationId", "=", organizationId)
      .execute();
    expect(saved).toEqual([]);
  });

  it("refuses an owner role in an update: the connection stays as it was", async () => {
    const { owner } = await createOrganization(server);
    expect((await owner.browser.post("/sso/register", connection("ownerless2", "ownerless2.test"))).status).toBe(200);
    const row = () => db().selectFrom("ssoProvider").selectAll().where("providerId", "=", "ownerless2").execute();
    const before = await row();
    for (const roles of ownerRoles) {
      const res = await owner.browser.post("/sso/update-provider", { providerId: "ownerless2", ...roles });
      expect([res.status, res.body.code], JSON.stringify(roles)).toEqual([400, "SSO_ROLE_NOT_ALLOWED"]);
    }
    expect(await row()).toEqual(before);
  });
});

describe("role mapping at every sign-in", () => {
  const groupsConnection = {
    oidcConfig: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, scopes: ["openid", "email", "profile", "groups"] },
    roleMapping: { claim: "groups", values: { "idp-admins": "admin" } },
  };
  const memberOf = (organizationId: string, userId: string) =>
    db()
      .selectFrom("member")
      .select(["id", "role"])
      .where("organizationId", "=", organizationId)
      .where("userId", "=", userId)
      .executeTakeFirstOrThrow();
  const signIn = async (sub: string) => {
    const flow = await ssoFlow({ providerId: "resync" }, sub);
    expect(locationOf(flow.callback).pathname, flow.callback.headers.get("location") ?? "").toBe("/dash");
    return { browser: flow.browser, userId: (await flow.browser.get("/get-session")).body.user.id as string };
  };

  it("gives a member the connection brought in the mapped role again at each sign-in; the IdP wins", async () => {
    const org = await verifiedConnection("resync", "resync.test", groupsConnection);
    const person = oidc.addUser({ email: "ivy@resync.test", groups: ["idp-admins"] });
    const { userId } = await signIn(person.sub);
    expect((await memberOf(org.organizationId, userId)).role).toBe("admin");

    // Taken out of the admins group at the IdP: the next sign-in makes them a plain member.
    person.groups = ["staff"];
    await signIn(person.sub);
    expect((await memberOf(org.organizationId, userId)).role).toBe("member");
    person.groups = ["idp-admins"];
    await signIn(person.sub);
    expect((await memberOf(org.organizationId, userId)).role).toBe("admin");

    // An owner's change by hand lasts until the next sign-in: the IdP is the source of truth.
    const { id: memberId } = await memberOf(org.organizationId, userId);
    const set = await org.owner.browser.post("/organization/update-member-role", { memberId, role: "member" });
    expect(set.status).toBe(200);
    expect((await memberOf(org.organizationId, userId)).role).toBe("member");
    await signIn(person.sub);
    expect((await memberOf(org.organizationId, userId)).role).toBe("admin");

    // No groups claim at all is no groups: the default role.
    delete person.groups;
    await signIn(person.sub);
    expect((await memberOf(org.organizationId, userId)).role).toBe("member");
  });

  it("leaves alone a member who was in the organization before the connection linked them", async () => {
    const org = await db()
      .selectFrom("ssoProvider")
      .select("organizationId")
      .where("providerId", "=", "resync")
      .executeTakeFirstOrThrow();
    const existing = await signUp(server, { email: "jo@resync.test", verified: true });
    await server.auth.api.addMember({
      body: { userId: existing.user.id, role: "admin", organizationId: org.organizationId },
    });
    const person = oidc.addUser({ email: "jo@resync.test", groups: ["staff"] });
    expect((await signIn(person.sub)).userId).toBe(existing.user.id);
    await signIn(person.sub);
    expect((await memberOf(org.organizationId, existing.user.id)).role).toBe("admin");
  });

  it("never demotes the organization's only owner", async () => {
    const org = await db()
      .selectFrom("ssoProvider")
      .select("organizationId")
      .where("providerId", "=", "resync")
      .executeTakeFirstOrThrow();
    // An owner is made by hand (a connection never makes one): here, straight in the table.
    const makeOwner = (userId: string) =>
      db()
        .updateTable("member")
        .set({ role: "owner" })
        .where("organizationId", "=", org.organizationId)
        .where("userId", "=", userId)
        .execute();
    const person = oidc.addUser({ email: "kim@resync.test", groups: ["idp-admins"] });
    const { userId, browser } = await signIn(person.sub);
    expect((await memberOf(org.organizationId, userId)).role).toBe("admin");
    await makeOwner(userId);
    // The owner who created the organization leaves (Kim is an owner too, so they may).
    const creator = await db()
      .selectFrom("member")
      .select("userId")
      .where("organizationId", "=", org.organizationId)
      .where("userId", "!=", userId)
      .where("role", "=", "owner")
      .execute();
    for (const { userId: other } of creator) {
      const { id } = await memberOf(org.organizationId, other);
      expect((await browser.post("/organization/remove-member", { memberIdOrEmail: id })).status).toBe(200);
    }
    person.groups = ["staff"];
    await signIn(person.sub);
    expect((await memberOf(org.organizationId, userId)).role).toBe("owner");

    // With another owner beside them, the IdP's word holds again.
    const second = oidc.addUser({ email: "lee@resync.test", groups: ["idp-admins"] });
    await makeOwner((await signIn(second.sub)).userId);
    await signIn(person.sub);
    expect((await memberOf(org.organizationId, userId)).role).toBe("member");
  });

  it("a connection saved before owner roles were refused still makes nobody an owner", async () => {
    const connectionRow = () =>
      db()
        .selectFrom("ssoProvider")
        .select(["organizationId", "defaultRole", "roleMapping"])
        .where("providerId", "=", "resync")
        .executeTakeFirstOrThrow();
    const saved = await connectionRow();
    const setRoles = (defaultRole: string, roleMapping: string | null) =>
      db().updateTable("ssoProvider").set({ defaultRole, roleMapping }).where("providerId", "=", "resync").execute();
    try {
      await setRoles("owner", JSON.stringify({ claim: "groups", values: { "idp-owners": "admin,owner" } }));
      const mapped = oidc.addUser({ email: "max@resync.test", groups: ["idp-owners"] });
      expect((await memberOf(saved.organizationId, (await signIn(mapped.sub)).userId)).role).toBe("admin");
      const byDefault = oidc.addUser({ email: "nia@resync.test", groups: ["staff"] });
      expect((await memberOf(saved.organizationId, (await signIn(byDefault.sub)).userId)).role).toBe("member");
    } finally {
      await setRoles(saved.defaultRole, saved.roleMapping);
    }
  });
});

describe("two first sign-ins of one new person at once", () => {
  it("leave one user, one link and one membership, and both browsers signed in", async () => {
    const { organizationId } = await verifiedConnection("race", "race.test");
    for (let round = 0; round < 3; round++) {
      const person = oidc.addUser({ email: `mo${round}@race.test` });
      const flows = await Promise.all([
        ssoFlow({ providerId: "race" }, person.sub),
        ssoFlow({ providerId: "race" }, person.sub),
      ]);
      for (const flow of flows) {
        expect(flow.callback.status).toBe(302);
        expect(locationOf(flow.callback).pathname, flow.callback.headers.get("location") ?? "").toBe("/dash");
      }
      const sessions = await Promise.all(flows.map((flow) => flow.browser.get("/get-session")));
      const users = await db()
        .selectFrom("user")
        .select("id")
        .where("email", "=", person.email as string)
        .execute();
      expect(users).toHaveLength(1);
      expect(sessions.map((s) => s.body.user.id)).toEqual([users[0]?.id, users[0]?.id]);
      const links = await db()
        .selectFrom("account")
        .select("id")
        .where("providerId", "=", "race")
        .where("accountId", "=", person.sub)
        .execute();
      expect(links).toHaveLength(1);
      const members = await db()
        .selectFrom("member")
        .select("id")
        .where("organizationId", "=", organizationId)
        .where("userId", "=", users[0]?.id as string)
        .execute();
      expect(members).toHaveLength(1);
    }
  });
});

describe("two-factor through SSO", () => {
  it("a user with two-factor on owes the code: no session until it is given", async () => {
    const { organizationId } = await verifiedConnection("tfa", "tfa.test");
    const person = oidc.addUser({ email: "nat@tfa.test" });
    const first = await ssoFlow({ providerId: "tfa" }, person.sub);
    const enabled = await first.browser.post("/two-factor/enable", {});
    expect(enabled.status).toBe(200);
    const codeFor = () =>
      (URI.parse(enabled.body.totpURI) as import("otpauth").TOTP).generate({ timestamp: server.clock.now().getTime() });
    expect((await first.browser.post("/two-factor/verify-totp", { code: codeFor() })).status).toBe(200);
    server.clock.advance(30);

    const { callback, browser } = await ssoFlow({ providerId: "tfa" }, person.sub);
    expect(callback.status).toBe(302);
    const location = locationOf(callback);
    expect(location.pathname).toBe("/dash");
    expect(location.searchParams.get("twoFactorRedirect")).toBe("true");
    expect(browser.cookieNames().some((name) => name.endsWith(".session_token"))).toBe(false);
    expect(browser.cookieNames().some((name) => name.endsWith(".two_factor"))).toBe(true);
    expect((await browser.get("/get-session")).body).toBeNull();

    const wrong = await browser.post("/two-factor/verify-totp", { code: "000000" });
    expect(wrong.status).toBe(401);
    expect((await browser.get("/get-session")).body).toBeNull();
    const ok = await browser.post("/two-factor/verify-totp", { code: codeFor() });
    expect(ok.status).toBe(200);
    const session = await browser.get("/get-session");
    expect(session.body.user.email).toBe("nat@tfa.test");
    // Still the one membership the first sign-in made.
    expect(
      await db()
        .selectFrom("member")
        .select("id")
        .where("organizationId", "=", organizationId)
        .where("userId", "=", session.body.user.id)
        .execute(),
    ).toHaveLength(1);
  });
});

import { URI } from "otpauth";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestBrowser } from "./helpers/browser.js";
import { skipWithoutDnsServer, startDnsServer, type TestDnsServer } from "./helpers/dns.js";
import { type MailCapture, startMailCapture } from "./helpers/mail.js";
import { nthMail, uniqueEmail } from "./helpers/mail-flows.js";
import { CLIENT_ID, CLIENT_SECRET, startOidcProvider, type TestOidcProvider } from "./helpers/oidc.js";
import { createOrganization, joinAs } from "./helpers/organization.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";
import { locationOf, providerOptions, socialFlow } from "./helpers/social.js";

let oidc: TestOidcProvider;
let dns: TestDnsServer;
let capture: MailCapture;
let server: TestServer;

skipWithoutDnsServer();

beforeAll(async () => {
  [oidc, dns, capture] = await Promise.all([startOidcProvider(), startDnsServer(), startMailCapture()]);
  server = await startTestServer({
    options: {
      organization: { enabled: true, teams: { enabled: true } },
      sso: { enabled: true, dnsResolvers: [dns.server], allowPrivateIssuers: true },
      twoFactor: { enabled: true },
      magicLink: { enabled: true },
      emailOTP: { enabled: true },
      audit: { enabled: true },
      socialProviders: { oidc: providerOptions(oidc) },
    },
    extra: { mail: { smtpUrl: capture.url } },
  });
  await oidc.configure([`${server.origin}/api/auth/callback/oidc`, `${server.origin}/api/auth/sso/callback/pol`]);
});
afterAll(async () => {
  await server?.close();
  await Promise.all([oidc?.close(), dns?.close(), capture?.close()]);
});
afterEach(() => expect(server.loggedErrors).toEqual([]));

function codeFor(totpURI: string): string {
  return (URI.parse(totpURI) as import("otpauth").TOTP).generate({ timestamp: server.clock.now().getTime() });
}

/** Turns two-factor on for a signed-in account (its session stays); the clock moves past the step used. */
async function enableTwoFactor(account: { browser: TestBrowser; password: string }): Promise<string> {
  const enabled = await account.browser.post("/two-factor/enable", { password: account.password });
  expect(enabled.status).toBe(200);
  const confirmed = await account.browser.post("/two-factor/verify-totp", { code: codeFor(enabled.body.totpURI) });
  expect(confirmed.status).toBe(200);
  server.clock.advance(30);
  return enabled.body.totpURI;
}

const setPolicy = (browser: TestBrowser, organizationId: string, rules: Record<string, unknown>) =>
  browser.post("/organization/update-policy", { organizationId, ...rules });

describe("setting the policy", () => {
  it("owners read and change it; admins and members cannot change it; members read it", async () => {
    const org = await createOrganization(server);
    const admin = await joinAs(server, org.organizationId, "admin");
    const member = await joinAs(server, org.organizationId, "member");

    const empty = await org.owner.browser.get(`/organization/get-policy?organizationId=${org.organizationId}`);
    expect(empty.status).toBe(200);
    expect(empty.body.policy).toMatchObject({ requireTwoFactor: false, requireSSO: false, maxSessionAge: null });
    expect(empty.body.caller.unmet).toEqual([]);

    for (const who of [admin, member]) {
      const refused = await setPolicy(who.browser, org.organizationId, { maxSessionAge: 3600 });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THE_ORGANIZATION_POLICY");
    }
    const stranger = await signUp(server);
    const outsider = await setPolicy(stranger.browser, org.organizationId, { maxSessionAge: 3600 });
    expect(outsider.status).toBe(403);
    expect(outsider.body.code).toBe("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");

    const set = await setPolicy(org.owner.browser, org.organizationId, {
      maxSessionAge: 86400,
      breakGlassUserIds: [org.owner.user.id],
    });
    expect(set.status).toBe(200);
    expect(set.body.policy).toMatchObject({ maxSessionAge: 86400, breakGlassUserIds: [org.owner.user.id] });
    // A partial update keeps what it does not name.
    const more = await setPolicy(org.owner.browser, org.organizationId, { idleTimeout: 3600 });
    expect(more.body.policy).toMatchObject({ maxSessionAge: 86400, idleTimeout: 3600 });
    // Members read the rules, not who holds the break-glass path.
    const read = await member.browser.get("/organization/get-policy");
    expect(read.status).toBe(200);
    expect(read.body.policy).toMatchObject({ maxSessionAge: 86400, idleTimeout: 3600, breakGlassUserIds: [] });

    await server.sealAudit();
    const trail = await org.owner.browser.get(
      `/organization/list-audit-trail?organizationId=${org.organizationId}&action=organization.policy_updated`,
    );
    expect(trail.body.entries.length).toBe(2);
  });

  it("refuses bad input with 4xx, never 500", async () => {
    const org = await createOrganization(server);
    const member = await joinAs(server, org.organizationId, "member");
    const bad: [Record<string, unknown>, string][] = [
      [{ maxSessionAge: -1 }, "VALIDATION_ERROR"],
      [{ maxSessionAge: 10 }, "VALIDATION_ERROR"],
      [{ idleTimeout: "soon" }, "VALIDATION_ERROR"],
      [{ allowedSignInMethods: ["carrier-pigeon"] }, "VALIDATION_ERROR"],
      [{ allowedSignInMethods: [] }, "VALIDATION_ERROR"],
      [{ requireTwoFactor: "yes" }, "VALIDATION_ERROR"],
      [{ unknownRule: true }, "VALIDATION_ERROR"],
      [{ breakGlassUserIds: ["x", "x", "x", "x", "x", "x"] }, "VALIDATION_ERROR"],
      [{ breakGlassUserIds: [member.user.id] }, "BREAK_GLASS_USER_MUST_BE_AN_OWNER"],
      [{ breakGlassUserIds: ["no-such-user"] }, "BREAK_GLASS_USER_MUST_BE_AN_OWNER"],
      [{ requireSSO: true }, "SSO_CONNECTION_REQUIRED"],
      // The owner has no second factor: requiring one would shut them out.
      [{ requireTwoFactor: true }, "POLICY_WOULD_LOCK_YOU_OUT"],
      [{ allowedSignInMethods: ["passkey"] }, "POLICY_WOULD_LOCK_YOU_OUT"],
    ];
    for (const [body, code] of bad) {
      const res = await setPolicy(org.owner.browser, org.organizationId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code, JSON.stringify(body)).toBe(code);
    }
    const noOrg = await signUp(server);
    const none = await noOrg.browser.post("/organization/update-policy", { maxSessionAge: 3600 });
    expect(none.status).toBe(400);
    expect(none.body.code).toBe("NO_ACTIVE_ORGANIZATION");
    const notJson = await org.owner.browser.request("/organization/update-policy", {
      method: "POST",
      body: "{",
      headers: { "content-type": "application/json" },
    });
    expect(notJson.status).toBe(400);
  });
});

describe("enforcement on routes acting in the organization", () => {
  it("requireTwoFactor: a member without one is refused until they turn it on; apps see why", async () => {
    const org = await createOrganization(server);
    await enableTwoFactor(org.owner);
    const member = await joinAs(server, org.organizationId, "member");
    const elsewhere = await createOrganization(server, { owner: member as never });
    await member.browser.post("/organization/set-active", { organizationId: org.organizationId });
    expect((await setPolicy(org.owner.browser, org.organizationId, { requireTwoFactor: true })).status).toBe(200);

    for (const [path, body] of [
      ["/organization/list-members", null],
      ["/organization/get-full-organization", null],
      ["/organization/list-invitations", null],
      ["/organization/has-permission", { permissions: { member: ["create"] } }],
      ["/organization/list-teams", null],
    ] as const) {
      const res = body ? await member.browser.post(path, body) : await member.browser.get(path);
      expect(res.status, path).toBe(403);
      expect(res.body.code, path).toBe("TWO_FACTOR_REQUIRED_BY_ORGANIZATION");
      expect(res.body.organizationId).toBe(org.organizationId);
    }
    // Naming the organization by slug, or by a team of it, is the same organization, whichever is active.
    const team = await org.owner.browser.post("/organization/create-team", { name: "Ops" });
    expect(team.status).toBe(200);
    const bySlug = await member.browser.get(`/organization/get-full-organization?organizationSlug=${org.slug}`);
    expect(bySlug.body.code).toBe("TWO_FACTOR_REQUIRED_BY_ORGANIZATION");
    const byTeam = await member.browser.get(`/organization/list-team-members?teamId=${team.body.id}`);
    expect(byTeam.status).toBe(403);
    expect(byTeam.body.code).toBe("TWO_FACTOR_REQUIRED_BY_ORGANIZATION");
    // Making it active again is refused too (issue 48.3: the session's token would carry it).
    const reactivated = await member.browser.post("/organization/set-active", { organizationId: org.organizationId });
    expect(reactivated.status).toBe(403);
    expect(reactivated.body.code).toBe("TWO_FACTOR_REQUIRED_BY_ORGANIZATION");
    // auth.api calls with the member's cookie meet the same check.
    const viaApi = await server.auth.api
      .listMembers({ headers: { cookie: member.browser.cookieHeader() }, query: {} } as never)
      .then(
        () => null,
        (error: { code?: string }) => error.code,
      );
    expect(viaApi).toBe("TWO_FACTOR_REQUIRED_BY_ORGANIZATION");

    // get-active-member answers, with what the session still owes.
    const active = await member.browser.get("/organization/get-active-member");
    expect(active.status).toBe(200);
    expect(active.body.organizationPolicy).toMatchObject({
      requireTwoFactor: true,
      unmet: ["TWO_FACTOR_REQUIRED_BY_ORGANIZATION"],
    });
    // Another organization without a policy is not touched; nor is leaving.
    const other = await member.browser.get(`/organization/list-members?organizationId=${elsewhere.organizationId}`);
    expect(other.status).toBe(200);

    await enableTwoFactor({ ...member, password: "correct horse battery" });
    const allowed = await member.browser.get("/organization/list-members");
    expect(allowed.status).toBe(200);
    expect((await member.browser.get("/organization/get-active-member")).body.organizationPolicy.unmet).toEqual([]);
    // The hot read keeps its one round trip with a policy in force.
    await server.settled();
    const before = server.queryCount();
    expect((await member.browser.get("/organization/list-members")).status).toBe(200);
    expect(server.queryCount() - before).toBe(1);
    for (const path of ["/organization/get-active-member", "/get-session"]) {
      const at = server.queryCount();
      expect((await member.browser.get(path)).status).toBe(200);
      expect(server.queryCount() - at, path).toBe(1);
    }
  });

  it("maxSessionAge: a session older than it cannot act; a new sign-in can", async () => {
    const org = await createOrganization(server);
    const member = await joinAs(server, org.organizationId, "member");
    expect((await setPolicy(org.owner.browser, org.organizationId, { maxSessionAge: 3600 })).status).toBe(200);
    expect((await member.browser.get("/organization/list-members")).status).toBe(200);
    server.clock.advance(3601);
    const old = await member.browser.get("/organization/list-members");
    expect(old.status).toBe(403);
    expect(old.body.code).toBe("SESSION_TOO_OLD_FOR_ORGANIZATION");
    const renamed = await member.browser.post("/organization/update-member-role", { memberId: "x", role: "admin" });
    expect(renamed.body.code).toBe("SESSION_TOO_OLD_FOR_ORGANIZATION");
    const again = server.browser();
    expect(
      (await again.post("/sign-in/email", { email: member.email, password: "correct horse battery" })).status,
    ).toBe(200);
    expect((await again.get(`/organization/list-members?organizationId=${org.organizationId}`)).status).toBe(200);
  });

  it("idleTimeout: acting keeps the session alive; idling past it ends its acting", async () => {
    const org = await createOrganization(server);
    const member = await joinAs(server, org.organizationId, "member");
    expect((await setPolicy(org.owner.browser, org.organizationId, { idleTimeout: 600 })).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      server.clock.advance(400);
      expect((await member.browser.get("/organization/list-members")).status).toBe(200);
    }
    server.clock.advance(601);
    const idle = await member.browser.get("/organization/list-members");
    expect(idle.status).toBe(403);
    expect(idle.body.code).toBe("SESSION_IDLE_FOR_ORGANIZATION");
    // Only that organization: the account itself is still signed in.
    expect((await member.browser.get("/get-session")).body.session).toBeTruthy();
  });

  it("allowedSignInMethods: a session signed in by another method cannot act", async () => {
    const org = await createOrganization(server);
    const member = await joinAs(server, org.organizationId, "member");
    const set = await setPolicy(org.owner.browser, org.organizationId, { allowedSignInMethods: ["password"] });
    expect(set.status).toBe(200);
    expect((await member.browser.get("/organization/list-members")).status).toBe(200);

    const byCode = server.browser();
    await byCode.post("/email-otp/send-verification-otp", { email: member.email, type: "sign-in" });
    const mail = await nthMail(capture, member.email, "Your sign-in code");
    const otp = /\b(\d{6})\b/.exec(mail.text)?.[1];
    expect((await byCode.post("/sign-in/email-otp", { email: member.email, otp })).status).toBe(200);
    const notActive = await byCode.post("/organization/set-active", { organizationId: org.organizationId });
    expect(notActive.body.code).toBe("SIGN_IN_METHOD_NOT_ALLOWED_BY_ORGANIZATION");
    const refused = await byCode.get(`/organization/list-members?organizationId=${org.organizationId}`);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("SIGN_IN_METHOD_NOT_ALLOWED_BY_ORGANIZATION");
    // The organization is not active for it: get-policy tells the session why.
    const standing = await byCode.get(`/organization/get-policy?organizationId=${org.organizationId}`);
    expect(standing.body.caller).toMatchObject({
      signInMethod: "email-otp",
      allowedSignInMethods: ["password"],
    });
  });
});

describe("enforced SSO for verified domains", () => {
  const DOMAIN = "policy.test";
  let org: Awaited<ReturnType<typeof createOrganization>>;
  let alice: Awaited<ReturnType<typeof signUp>>;
  let glass: Awaited<ReturnType<typeof signUp>> & { totpURI: string };
  let bob: Awaited<ReturnType<typeof signUp>>;
  /** An owner of the domain with a second factor, not (yet) on the break-glass list. */
  let other: Awaited<ReturnType<typeof signUp>>;
  let otherTotpURI: string;

  beforeAll(async () => {
    org = await createOrganization(server);
    const registered = await org.owner.browser.post("/sso/register", {
      providerId: "pol",
      issuer: oidc.issuer,
      domain: DOMAIN,
      oidcConfig: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
    });
    expect(registered.status).toBe(200);
    const requested = await org.owner.browser.post("/sso/request-domain-verification", { providerId: "pol" });
    await dns.setTxtRecords(Object.fromEntries(requested.body.records.map((r: any) => [r.name, [r.value]])));
    expect((await org.owner.browser.post("/sso/verify-domain", { providerId: "pol" })).status).toBe(200);

    alice = await signUp(server, { email: `alice@${DOMAIN}`, verified: true });
    bob = await signUp(server, { email: uniqueEmail("bob"), verified: true });
    const glassAccount = await signUp(server, { email: `glass@${DOMAIN}`, verified: true });
    glass = { ...glassAccount, totpURI: await enableTwoFactor(glassAccount) };
    // Signing up with a password for the domain is refused once SSO is required: these come first.
    other = await signUp(server, { email: `other@${DOMAIN}`, verified: true });
    otherTotpURI = await enableTwoFactor(other);
    for (const who of [alice, bob]) {
      await server.auth.api.addMember({
        body: { userId: who.user.id, role: "member", organizationId: org.organizationId },
      });
    }
    await server.auth.api.addMember({
      body: { userId: glass.user.id, role: "owner", organizationId: org.organizationId },
    });
    const set = await setPolicy(org.owner.browser, org.organizationId, {
      requireSSO: true,
      breakGlassUserIds: [glass.user.id],
    });
    expect(set.status).toBe(200);
  });

  const expectSsoRequired = (res: { status: number; body: any }) => {
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("SSO_REQUIRED");
    expect(res.body.message).toContain('"pol"');
    expect(res.body.providerId).toBe("pol");
  };

  it("refuses password sign-in and sign-up for the domain, not for other domains", async () => {
    expectSsoRequired(await server.browser().post("/sign-in/email", { email: alice.email, password: alice.password }));
    const signUpRefused = await server
      .browser()
      .post("/sign-up/email", { name: "New", email: `new@${DOMAIN}`, password: "correct horse battery" });
    expectSsoRequired(signUpRefused);
    // The refused sign-up left no account behind.
    const left = await server.auth.database.db
      .selectFrom("user")
      .select("id")
      .where("email", "=", `new@${DOMAIN}`)
      .executeTakeFirst();
    expect(left).toBeUndefined();
    expect((await server.browser().post("/sign-in/email", { email: bob.email, password: bob.password })).status).toBe(
      200,
    );
  });

  it("refuses an email code and a sign-in link for the domain", async () => {
    const browser = server.browser();
    await browser.post("/email-otp/send-verification-otp", { email: alice.email, type: "sign-in" });
    const mail = await nthMail(capture, alice.email, "Your sign-in code");
    const otp = /\b(\d{6})\b/.exec(mail.text)?.[1];
    expectSsoRequired(await browser.post("/sign-in/email-otp", { email: alice.email, otp }));

    const linked = server.browser();
    expect((await linked.post("/sign-in/magic-link", { email: alice.email })).status).toBe(200);
    const link = await nthMail(capture, alice.email, "Your sign-in link");
    const token = new URL(/https?:\/\/\S+\/magic-link\?\S+/.exec(link.text)?.[0] ?? "").searchParams.get("token");
    const verified = await linked.post("/magic-link/verify", { token });
    const refusedAs = verified.headers.get("location") ?? JSON.stringify(verified.body);
    expect(refusedAs.toLowerCase()).toContain("sso_required");
    expect((await linked.get("/get-session")).body).toBeNull();
  });

  it("refuses social sign-in for the domain", async () => {
    const user = oidc.addUser({ email: `carol@${DOMAIN}` });
    const { callback } = await socialFlow(server.browser(), oidc, user.sub, { body: { provider: "oidc" } });
    expect(locationOf(callback).searchParams.get("error")).toBe("sso_required");
  });

  it("a session signed in before SSO was required cannot act in the organization", async () => {
    expectSsoRequired(await alice.browser.post("/organization/set-active", { organizationId: org.organizationId }));
    expectSsoRequired(await alice.browser.get(`/organization/list-members?organizationId=${org.organizationId}`));
    // bob's address is not in the domain: the rule is not his.
    await bob.browser.post("/organization/set-active", { organizationId: org.organizationId });
    expect((await bob.browser.get("/organization/list-members")).status).toBe(200);
  });

  it("break-glass owners sign in with a password and a second factor, audited", async () => {
    const browser = server.browser();
    const step = await browser.post("/sign-in/email", { email: glass.email, password: glass.password });
    expect(step.status).toBe(200);
    expect(step.body.twoFactorRedirect).toBe(true);
    const verified = await browser.post("/two-factor/verify-totp", { code: codeFor(glass.totpURI) });
    expect(verified.status).toBe(200);
    await browser.post("/organization/set-active", { organizationId: org.organizationId });
    const acting = await browser.get("/organization/list-members");
    expect(acting.status).toBe(200);
    const state = await browser.get("/organization/get-active-member");
    expect(state.body.organizationPolicy).toMatchObject({ breakGlass: true, signInMethod: "password", unmet: [] });

    await server.sealAudit();
    const trail = await org.owner.browser.get(
      `/organization/list-audit-trail?organizationId=${org.organizationId}&action=organization.sso_break_glass_sign_in`,
    );
    expect(trail.status).toBe(200);
    expect(trail.body.entries).toHaveLength(1);
    expect(trail.body.entries[0]).toMatchObject({ actorId: glass.user.id, details: { providerId: "pol" } });
  });

  it("a break-glass owner who loses the owner role is refused like anyone", async () => {
    await server.auth.api.addMember({
      body: { userId: other.user.id, role: "owner", organizationId: org.organizationId },
    });
    const policy = await org.owner.browser.get(`/organization/get-policy?organizationId=${org.organizationId}`);
    const ids = [...policy.body.policy.breakGlassUserIds, other.user.id];
    expect((await setPolicy(org.owner.browser, org.organizationId, { breakGlassUserIds: ids })).status).toBe(200);
    // Signed in by the break-glass path while an owner: that session ends with the owner role.
    const glassSession = server.browser();
    await glassSession.post("/sign-in/email", { email: other.email, password: other.password });
    expect((await glassSession.post("/two-factor/verify-totp", { code: codeFor(otherTotpURI) })).status).toBe(200);
    await glassSession.post("/organization/set-active", { organizationId: org.organizationId });
    expect((await glassSession.get("/organization/list-members")).status).toBe(200);
    const member = await server.auth.database.db
      .selectFrom("member")
      .select("id")
      .where("userId", "=", other.user.id)
      .executeTakeFirstOrThrow();
    const demoted = await org.owner.browser.post("/organization/update-member-role", {
      memberId: member.id,
      role: "member",
      organizationId: org.organizationId,
    });
    expect(demoted.status).toBe(200);
    expect((await glassSession.get("/get-session")).body).toBeNull();
    expect((await glassSession.get("/organization/list-members")).status).toBe(401);
    // Off the list too: the list holds owners only, and making them an owner again does not restore it.
    const after = await org.owner.browser.get(`/organization/get-policy?organizationId=${org.organizationId}`);
    expect(after.body.policy.breakGlassUserIds).not.toContain(other.user.id);
    expectSsoRequired(await server.browser().post("/sign-in/email", { email: other.email, password: other.password }));

    // An owner again, on the list again, signed in by it again; then removed from the organization.
    const promoted = await org.owner.browser.post("/organization/update-member-role", {
      memberId: member.id,
      role: "owner",
      organizationId: org.organizationId,
    });
    expect(promoted.status).toBe(200);
    expect((await setPolicy(org.owner.browser, org.organizationId, { breakGlassUserIds: ids })).status).toBe(200);
    server.clock.advance(31);
    const again = server.browser();
    await again.post("/sign-in/email", { email: other.email, password: other.password });
    expect((await again.post("/two-factor/verify-totp", { code: codeFor(otherTotpURI) })).status).toBe(200);
    const removed = await org.owner.browser.post("/organization/remove-member", {
      memberIdOrEmail: member.id,
      organizationId: org.organizationId,
    });
    expect(removed.status).toBe(200);
    expect((await again.get("/get-session")).body).toBeNull();
    const left = await org.owner.browser.get(`/organization/get-policy?organizationId=${org.organizationId}`);
    expect(left.body.policy.breakGlassUserIds).not.toContain(other.user.id);
  });

  it("a break-glass session demoted by any path (a directory, a connection's mapping) cannot act as one", async () => {
    server.clock.advance(31); // past the TOTP step an earlier case used
    const glassSession = server.browser();
    await glassSession.post("/sign-in/email", { email: glass.email, password: glass.password });
    expect((await glassSession.post("/two-factor/verify-totp", { code: codeFor(glass.totpURI) })).status).toBe(200);
    await glassSession.post("/organization/set-active", { organizationId: org.organizationId });
    expect((await glassSession.get("/organization/list-members")).status).toBe(200);
    const demote = (role: string) =>
      server.auth.database.db
        .updateTable("member")
        .set({ role })
        .where("userId", "=", glass.user.id)
        .where("organizationId", "=", org.organizationId)
        .execute();
    // A write that does not pass through update-member-role (SCIM groups and SSO role mapping have their own).
    await demote("admin");
    try {
      expectSsoRequired(await glassSession.get("/organization/list-members"));
      const state = await glassSession.get("/organization/get-active-member");
      expect(state.body.organizationPolicy ?? state.body).toMatchObject({ breakGlass: false });
    } finally {
      await demote("owner");
    }
  });

  it("SSO itself signs the domain's users in and lets them act", async () => {
    const user = oidc.addUser({ email: alice.email });
    const browser = server.browser();
    const flow = await socialFlow(browser, oidc, user.sub, {
      path: "/sign-in/sso",
      body: { providerId: "pol", callbackURL: "/dash" },
    });
    expect(locationOf(flow.callback).pathname).toBe("/dash");
    const acting = await browser.get(`/organization/list-members?organizationId=${org.organizationId}`);
    expect(acting.status).toBe(200);
  });
});

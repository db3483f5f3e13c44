import { createAuthClient } from "better-auth/client";
import { organizationClient, twoFactorClient } from "better-auth/client/plugins";
import { type TOTP, URI } from "otpauth";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cookieFetch } from "./helpers/cookie-fetch.js";
import { type MailCapture, startMailCapture } from "./helpers/mail.js";
import { linkIn, nthMail, uniqueEmail } from "./helpers/mail-flows.js";
import {
  startOidcProvider,
  startTamperingTokenEndpoint,
  type TamperingTokenEndpoint,
  type TestOidcProvider,
} from "./helpers/oidc.js";
import { verifyEmail } from "./helpers/organization.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { providerOptions } from "./helpers/social.js";

/**
 * Apps written against the better-auth browser client keep working: its own client (and its
 * organization plugin), unchanged, drives the real Gatehouse server.
 */
let oidc: TestOidcProvider;
/** The provider's token endpoint behind a proxy that can break ID-token signatures (provider "proxied"). */
let tokenEndpoint: TamperingTokenEndpoint;
let mail: MailCapture;
let server: TestServer;
/** account.accountLinking.allowUnlinkingAll on. */
let unlinkAll: TestServer;
const OFFLINE_SCOPES = ["openid", "email", "profile", "offline_access"];

beforeAll(async () => {
  oidc = await startOidcProvider();
  tokenEndpoint = await startTamperingTokenEndpoint(oidc);
  mail = await startMailCapture();
  server = await startTestServer({
    extra: { mail: { smtpUrl: mail.url } },
    options: {
      twoFactor: { enabled: true },
      socialProviders: {
        oidc: providerOptions(oidc),
        proxied: providerOptions(oidc, {
          tokenEndpoint: tokenEndpoint.url,
          prompt: "consent",
          scopes: OFFLINE_SCOPES,
        }),
        // offline_access needs prompt=consent at an OpenID provider; then a refresh token is issued.
        offline: providerOptions(oidc, { prompt: "consent", scopes: OFFLINE_SCOPES }),
      },
    },
  });
  unlinkAll = await startTestServer({
    options: {
      account: { accountLinking: { allowUnlinkingAll: true } },
      socialProviders: { oidc: providerOptions(oidc) },
    },
  });
  await oidc.configure([
    `${server.origin}/api/auth/callback/oidc`,
    `${server.origin}/api/auth/callback/offline`,
    `${server.origin}/api/auth/callback/proxied`,
    `${unlinkAll.origin}/api/auth/callback/oidc`,
  ]);
});
afterAll(async () => {
  await unlinkAll?.close();
  await server?.close();
  await tokenEndpoint?.close();
  await oidc?.close();
  await mail?.close();
});
afterEach(() => {
  expect(server.loggedErrors).toEqual([]);
  expect(unlinkAll.loggedErrors).toEqual([]);
});

function betterAuthClient(target: TestServer = server) {
  const jar = cookieFetch();
  const client = createAuthClient({
    baseURL: target.origin,
    plugins: [organizationClient()],
    // Node sends no Origin of its own; a page on the app's origin would.
    fetchOptions: { customFetchImpl: jar, headers: { origin: target.origin } },
  });
  return { client, jar };
}

type BetterAuthClient = ReturnType<typeof betterAuthClient>;

/**
 * Finishes a redirect flow the client started (sign-in or link): logs in at the provider as `sub`
 * and brings the provider's redirect back to the callback in the client's cookie jar.
 */
async function finishAtProvider({ jar }: BetterAuthClient, url: string | undefined, sub: string): Promise<URL> {
  const result = await oidc.authorize(url as string, sub);
  if (result.kind !== "redirect") throw new Error("expected a redirect from the provider");
  const callback = await jar(result.location, { redirect: "manual" });
  return new URL(callback.headers.get("location") as string, "http://relative.invalid");
}

describe("better-auth/client against Gatehouse", () => {
  it("signs up, reads the session, signs out", async () => {
    const { client, jar } = betterAuthClient();
    const email = `compat-${Date.now()}@example.com`;
    const signUp = await client.signUp.email({ name: "Compat", email, password: "sturdy-pass-123" });
    expect(signUp.error).toBeNull();
    expect(signUp.data?.user.email).toBe(email);
    expect(signUp.data?.token).toEqual(expect.any(String));
    expect(jar.jar.has("gatehouse.session_token")).toBe(true);

    const session = await client.getSession();
    expect(session.error).toBeNull();
    expect(session.data?.user.email).toBe(email);
    expect(session.data?.session.userId).toBe(signUp.data?.user.id);

    const signOut = await client.signOut();
    expect(signOut.data).toEqual({ success: true });
    expect((await client.getSession()).data).toBeNull();
  });

  it("turns TOTP two-factor on and signs in with it through the twoFactorClient plugin", async () => {
    const jar = cookieFetch();
    const redirects: unknown[] = [];
    const client = createAuthClient({
      baseURL: server.origin,
      plugins: [twoFactorClient({ onTwoFactorRedirect: (context) => void redirects.push(context) })],
      fetchOptions: { customFetchImpl: jar, headers: { origin: server.origin } },
    });
    const email = `compat-2fa-${Date.now()}@example.com`;
    const password = "sturdy-pass-123";
    const signedUp = await client.signUp.email({ name: "Two", email, password });
    // Enrolling a factor waits for a verified address (issue 28).
    await server.auth.database.db
      .updateTable("user")
      .set({ emailVerified: true })
      .where("id", "=", signedUp.data?.user.id ?? "")
      .execute();
    const enabled = await client.twoFactor.enable({ password });
    expect(enabled.error).toBeNull();
    const totp = URI.parse((enabled.data as { totpURI: string }).totpURI) as TOTP;
    const codeNow = () => totp.generate({ timestamp: server.clock.now().getTime() });
    expect((await client.twoFactor.verifyTotp({ code: codeNow() })).error).toBeNull();
    expect((await client.getSession()).data?.user.twoFactorEnabled).toBe(true);
    await client.signOut();
    server.clock.advance(30);

    const signIn = await client.signIn.email({ email, password });
    expect(signIn.error).toBeNull();
    expect(signIn.data).toMatchObject({ twoFactorRedirect: true, twoFactorMethods: ["totp", "otp"] });
    expect(redirects).toEqual([{ twoFactorMethods: ["totp", "otp"] }]);
    expect((await client.getSession()).data).toBeNull();

    const verified = await client.twoFactor.verifyTotp({ code: codeNow() });
    expect(verified.error).toBeNull();
    expect(verified.data?.token).toEqual(expect.any(String));
    expect((await client.getSession()).data?.user.email).toBe(email);
  });

  it("signs in with email and password and reports a wrong password the way the client expects", async () => {
    const { client } = betterAuthClient();
    const email = `compat-in-${Date.now()}@example.com`;
    await client.signUp.email({ name: "In", email, password: "sturdy-pass-123" });
    await client.signOut();

    const wrong = await client.signIn.email({ email, password: "not the password" });
    expect(wrong.data).toBeNull();
    expect(wrong.error).toMatchObject({ status: 401, code: "INVALID_EMAIL_OR_PASSWORD" });

    const signIn = await client.signIn.email({ email, password: "sturdy-pass-123" });
    expect(signIn.error).toBeNull();
    expect(signIn.data).toMatchObject({ redirect: false, user: { email } });
    expect((await client.getSession()).data?.user.email).toBe(email);
  });

  it("updates the user and lists sessions through the same client", async () => {
    const { client } = betterAuthClient();
    await client.signUp.email({
      name: "Up",
      email: `compat-up-${Date.now()}@example.com`,
      password: "sturdy-pass-123",
    });
    expect((await client.updateUser({ name: "Updated" })).data).toEqual({ status: true });
    expect((await client.getSession({ query: { disableCookieCache: true } })).data?.user.name).toBe("Updated");
    const sessions = await client.listSessions();
    expect(sessions.error).toBeNull();
    expect(sessions.data).toHaveLength(1);
  });
});

describe("better-auth organization client against Gatehouse", () => {
  it("creates an organization, invites, and the invitee accepts", async () => {
    const owner = betterAuthClient().client;
    const stamp = Date.now();
    const signedUp = await owner.signUp.email({
      name: "Owner",
      email: `ba-owner-${stamp}@example.com`,
      password: "sturdy-pass-123",
    });
    // Only a verified address may invite (the mailed link, done here directly).
    await verifyEmail(server, signedUp.data!.user.id);
    const created = await owner.organization.create({ name: "Compat Org", slug: `compat-${stamp}` });
    expect(created.error).toBeNull();
    expect(created.data).toMatchObject({ name: "Compat Org", slug: `compat-${stamp}` });

    const inviteeEmail = `ba-invitee-${stamp}@example.com`;
    const invitation = await owner.organization.inviteMember({ email: inviteeEmail, role: "member" });
    expect(invitation.error).toBeNull();
    expect(invitation.data).toMatchObject({ email: inviteeEmail, role: "member", status: "pending" });

    const invitee = betterAuthClient().client;
    await invitee.signUp.email({ name: "Invitee", email: inviteeEmail, password: "sturdy-pass-123" });
    const details = await invitee.organization.getInvitation({ query: { id: invitation.data!.id } });
    expect(details.data).toMatchObject({
      organizationName: "Compat Org",
      inviterEmail: `ba-owner-${stamp}@example.com`,
    });
    const accepted = await invitee.organization.acceptInvitation({ invitationId: invitation.data!.id });
    expect(accepted.error).toBeNull();
    expect(accepted.data?.invitation.status).toBe("accepted");

    const full = await invitee.organization.getFullOrganization();
    expect(full.data?.id).toBe(created.data!.id);
    expect(full.data?.members.map((m) => m.user.email).sort()).toEqual(
      [`ba-invitee-${stamp}@example.com`, `ba-owner-${stamp}@example.com`].sort(),
    );
    const mine = await invitee.organization.list();
    expect(mine.data?.map((o) => o.slug)).toEqual([`compat-${stamp}`]);

    const left = await invitee.organization.leave({ organizationId: created.data!.id });
    expect(left.error).toBeNull();
    expect((await owner.organization.getFullOrganization()).data?.members).toHaveLength(1);
  });
});

describe("accounts named by row id or by the provider's account id", () => {
  it("unlink-account, account-info, get-access-token and refresh-token take either, narrowed by providerId", async () => {
    const caller = betterAuthClient();
    const { client } = caller;
    const email = `ba-acct-${Date.now()}@example.com`;
    await client.signUp.email({ name: "Accounts", email, password: "sturdy-pass-123" });
    const providerUser = oidc.addUser({ email });
    const link = await client.linkSocial({ provider: "offline" as any, callbackURL: "/settings" });
    expect(link.error).toBeNull();
    expect((await finishAtProvider(caller, link.data?.url, providerUser.sub)).pathname).toBe("/settings");

    const accounts = await client.listAccounts();
    const linked = accounts.data?.find((a) => a.providerId === "offline");
    const credential = accounts.data?.find((a) => a.providerId === "credential");
    expect(linked?.accountId).toBe(providerUser.sub);
    const rowId = linked?.id as string;

    // The row id (WIRE) and the provider's account id (SPEC), with or without providerId.
    for (const accountId of [rowId, providerUser.sub]) {
      const posted = await client.accountInfo({ accountId, providerId: "offline" } as any);
      expect(posted.error).toBeNull();
      expect(posted.data).toMatchObject({ user: { email }, account: { id: rowId, accountId: providerUser.sub } });
      const got = await client.accountInfo({ query: { accountId } });
      expect(got.error).toBeNull();
      expect(got.data?.account.id).toBe(rowId);
      const token = await client.getAccessToken({ providerId: "offline", accountId } as any);
      expect(token.error).toBeNull();
      expect(token.data?.accessToken).toEqual(expect.any(String));
    }
    const refreshed = await client.refreshToken({ providerId: "offline", accountId: rowId } as any);
    expect(refreshed.error).toBeNull();
    expect(refreshed.data).toMatchObject({ providerId: "offline", accountId: rowId });

    // providerId narrows: the row id of the offline account is no credential account.
    const mismatched = await client.unlinkAccount({ providerId: "credential", accountId: rowId } as any);
    expect(mismatched.error).toMatchObject({ status: 400, code: "ACCOUNT_NOT_FOUND" });
    // Another user's account is never found, by either id.
    const other = betterAuthClient();
    await other.client.signUp.email({
      name: "Other",
      email: `ba-other-${Date.now()}@example.com`,
      password: "sturdy-pass-123",
    });
    for (const accountId of [rowId, providerUser.sub]) {
      const foreign = await other.client.accountInfo({ accountId } as any);
      expect(foreign.error).toMatchObject({ status: 400, code: "ACCOUNT_NOT_FOUND" });
    }

    const unlinked = await client.unlinkAccount({ providerId: "offline", accountId: rowId } as any);
    expect(unlinked.error).toBeNull();
    expect(unlinked.data).toEqual({ status: true });
    const last = await client.unlinkAccount({ providerId: "credential", accountId: credential?.id as string } as any);
    expect(last.error).toMatchObject({ status: 400, code: "FAILED_TO_UNLINK_LAST_ACCOUNT" });
    expect(last.error?.message).toBe("You can't unlink your last account");
    expect((await client.listAccounts()).data?.map((a) => a.providerId)).toEqual(["credential"]);
  });

  it("with allowUnlinkingAll the last account goes too, named by the provider's account id", async () => {
    const caller = betterAuthClient(unlinkAll);
    const providerUser = oidc.addUser();
    const start = await caller.client.signIn.social({
      provider: "oidc" as any,
      callbackURL: "/home",
      disableRedirect: true,
    });
    expect((await finishAtProvider(caller, start.data?.url, providerUser.sub)).pathname).toBe("/home");
    const unlinked = await caller.client.unlinkAccount({ providerId: "oidc", accountId: providerUser.sub } as any);
    expect(unlinked.data).toEqual({ status: true });
    expect((await caller.client.listAccounts()).data).toEqual([]);
  });
});

describe("provider callback errors (SPEC 8) for a flow the client started", () => {
  /** Starts a sign-in with the client and logs in at the provider; returns the callback URL, not yet followed. */
  async function providerRedirect(caller: BetterAuthClient, sub: string): Promise<URL> {
    const start = await caller.client.signIn.social({
      provider: "oidc" as any,
      callbackURL: "/home",
      errorCallbackURL: "/oops",
      disableRedirect: true,
    });
    const result = await oidc.authorize(start.data?.url as string, sub);
    if (result.kind !== "redirect") throw new Error("expected a redirect from the provider");
    return new URL(result.location);
  }
  const follow = async ({ jar }: BetterAuthClient, url: URL) => {
    const response = await jar(url.toString(), { redirect: "manual" });
    return new URL(response.headers.get("location") as string, "http://relative.invalid");
  };

  it("a forged or already used code redirects with error=invalid_code and signs nobody in", async () => {
    const user = oidc.addUser();
    const forgedCaller = betterAuthClient();
    for (const keepIssuer of [true, false]) {
      const forged = await providerRedirect(forgedCaller, user.sub);
      forged.searchParams.set("code", "forged-code-0123456789");
      // A hand-made callback carries only state and code.
      if (!keepIssuer) forged.searchParams.delete("iss");
      const forgedAt = await follow(forgedCaller, forged);
      expect(forgedAt.pathname).toBe("/oops");
      expect(forgedAt.searchParams.get("error")).toBe("invalid_code");
      expect((await forgedCaller.client.getSession()).data).toBeNull();
    }

    const caller = betterAuthClient();
    const first = await providerRedirect(caller, user.sub);
    expect((await follow(caller, first)).pathname).toBe("/home");
    const replayer = betterAuthClient();
    const second = await providerRedirect(replayer, user.sub);
    second.searchParams.set("code", first.searchParams.get("code") as string);
    const replayedAt = await follow(replayer, second);
    expect(replayedAt.pathname).toBe("/oops");
    expect(replayedAt.searchParams.get("error")).toBe("invalid_code");
    expect((await replayer.client.getSession()).data).toBeNull();
  });

  it("a repeated state or code parameter redirects with error=invalid_callback_request", async () => {
    const user = oidc.addUser();
    for (const repeated of ["state", "code"]) {
      const caller = betterAuthClient();
      const url = await providerRedirect(caller, user.sub);
      url.searchParams.append(repeated, "another-value");
      const at = await follow(caller, url);
      expect(at.searchParams.get("error")).toBe("invalid_callback_request");
      expect((await caller.client.getSession()).data).toBeNull();
    }
    const caller = betterAuthClient();
    const callback = new URL(`${server.origin}/api/auth/callback/oidc?state=a&state=b&code=c&code=d`);
    expect((await follow(caller, callback)).searchParams.get("error")).toBe("invalid_callback_request");
  });
});

describe("ID tokens from the token endpoint are verified against the provider's JWKS", () => {
  const signIn = async (caller: BetterAuthClient, sub: string) => {
    const start = await caller.client.signIn.social({
      provider: "proxied" as any,
      callbackURL: "/home",
      errorCallbackURL: "/oops",
      disableRedirect: true,
    });
    return finishAtProvider(caller, start.data?.url, sub);
  };
  const db = () => server.auth.database.db;

  it("a broken signature redirects with error=unable_to_get_user_info and creates nothing", async () => {
    tokenEndpoint.tamper = true;
    const tamperedBefore = tokenEndpoint.tampered;
    const caller = betterAuthClient();
    const user = oidc.addUser();
    const at = await signIn(caller, user.sub);
    expect(tokenEndpoint.tampered).toBe(tamperedBefore + 1);
    expect(at.pathname).toBe("/oops");
    expect(at.searchParams.get("error")).toBe("unable_to_get_user_info");
    expect((await caller.client.getSession()).data).toBeNull();
    expect(
      await db()
        .selectFrom("user")
        .select("id")
        .where("email", "=", user.email as string)
        .execute(),
    ).toEqual([]);
    expect(await db().selectFrom("account").select("id").where("accountId", "=", user.sub).execute()).toEqual([]);
  });

  it("a refresh whose ID token has a broken signature fails and keeps the stored tokens", async () => {
    tokenEndpoint.tamper = false;
    const caller = betterAuthClient();
    const user = oidc.addUser();
    expect((await signIn(caller, user.sub)).pathname).toBe("/home");
    const before = await caller.client.getAccessToken({ providerId: "proxied" } as any);
    expect(before.data?.idToken).toEqual(expect.any(String));

    tokenEndpoint.tamper = true;
    const tamperedBefore = tokenEndpoint.tampered;
    const refreshed = await caller.client.refreshToken({ providerId: "proxied" } as any);
    expect(tokenEndpoint.tampered).toBe(tamperedBefore + 1);
    expect(refreshed.error).toMatchObject({ code: "FAILED_TO_REFRESH_ACCESS_TOKEN" });
    const after = await caller.client.getAccessToken({ providerId: "proxied" } as any);
    expect(after.data).toMatchObject({ accessToken: before.data?.accessToken, idToken: before.data?.idToken });

    tokenEndpoint.tamper = false;
    const good = await caller.client.refreshToken({ providerId: "proxied" } as any);
    expect(good.error).toBeNull();
    expect(good.data?.accessToken).not.toBe(before.data?.accessToken);
  });
});

describe("sendVerificationEmail", () => {
  it("keeps its callbackURL in the mailed link, signed in and signed out", async () => {
    const { client } = betterAuthClient();
    const email = uniqueEmail("ba-resend");
    await client.signUp.email({ name: "Resend", email, password: "sturdy-pass-123" });
    // With two-factor on, sign-up mailed the first link (a factor needs a verified address).
    const signUpLink = new URL(linkIn(await nthMail(mail, email, "Verify your email address"), "/verify-email"));
    expect(signUpLink.searchParams.get("callbackURL")).toBe("/");
    const sent = await client.sendVerificationEmail({ email, callbackURL: "/again" });
    expect(sent.error).toBeNull();
    expect(sent.data).toEqual({ status: true });
    const first = new URL(linkIn(await nthMail(mail, email, "Verify your email address", 2), "/verify-email"));
    expect(first.searchParams.get("callbackURL")).toBe("/again");

    await client.signOut();
    await client.sendVerificationEmail({ email, callbackURL: "/again/signed-out?x=1" });
    const second = new URL(linkIn(await nthMail(mail, email, "Verify your email address", 3), "/verify-email"));
    expect(second.searchParams.get("callbackURL")).toBe("/again/signed-out?x=1");

    // The link leads there once followed.
    const followed = await fetch(second, { redirect: "manual" });
    expect(followed.headers.get("location")).toBe(`${server.origin}/again/signed-out?x=1`);
  });
});

describe("updateSession", () => {
  it("sets additional session fields only: the active organization and team stay the server's", async () => {
    const { client } = betterAuthClient();
    const stamp = Date.now();
    await client.signUp.email({ name: "Sess", email: `ba-sess-${stamp}@example.com`, password: "sturdy-pass-123" });
    const org = await client.organization.create({ name: "Session Org", slug: `sess-${stamp}` });
    const before = await client.getSession({ query: { disableCookieCache: true } });
    expect(before.data?.session.activeOrganizationId).toBe(org.data?.id);

    for (const field of ["activeOrganizationId", "activeTeamId"]) {
      const refused = await client.updateSession({ [field]: "someone-elses" } as any);
      expect(refused.error).toMatchObject({ status: 400, code: "FIELD_NOT_ALLOWED" });
      expect(refused.error?.message).toBe(`${field} is not allowed to be set`);
    }
    const nothing = await client.updateSession({ activeTeamId: null, theme: "dark" } as any);
    expect(nothing.error).toMatchObject({ status: 400, message: "No fields to update" });
    const after = await client.getSession({ query: { disableCookieCache: true } });
    expect(after.data?.session).toMatchObject({ activeOrganizationId: org.data?.id, activeTeamId: null });

    await client.signOut();
    expect((await client.updateSession({ theme: "dark" } as any)).error?.status).toBe(401);
  });
});

describe("organization.getOrganization (new in 1.7)", () => {
  it("answers the organization without members: the active one by default, or by id or slug", async () => {
    const { client } = betterAuthClient();
    const stamp = Date.now();
    await client.signUp.email({ name: "Getter", email: `ba-get-${stamp}@example.com`, password: "sturdy-pass-123" });
    const first = await client.organization.create({ name: "First", slug: `first-${stamp}` });
    const second = await client.organization.create({
      name: "Second",
      slug: `second-${stamp}`,
      keepCurrentActiveOrganization: true,
    });
    const getOrganization = (client.organization as any).getOrganization as (arg?: object) => Promise<any>;

    const active = await getOrganization();
    expect(active.error).toBeNull();
    expect(active.data).toMatchObject({ id: first.data?.id, name: "First", slug: `first-${stamp}` });
    expect(active.data).not.toHaveProperty("members");
    expect((await getOrganization({ query: { organizationSlug: `second-${stamp}` } })).data?.id).toBe(second.data?.id);
    expect((await getOrganization({ query: { organizationId: second.data?.id } })).data?.name).toBe("Second");
    const unknown = await getOrganization({ query: { organizationId: "no-such-organization" } });
    expect(unknown.error).toMatchObject({ status: 400, code: "ORGANIZATION_NOT_FOUND" });

    const stranger = betterAuthClient().client;
    await stranger.signUp.email({
      name: "Stranger",
      email: `ba-stranger-${stamp}@example.com`,
      password: "sturdy-pass-123",
    });
    const strangerGet = (stranger.organization as any).getOrganization as (arg?: object) => Promise<any>;
    expect((await strangerGet()).data).toBeNull();
    const foreign = await strangerGet({ query: { organizationId: first.data?.id } });
    expect(foreign.error).toMatchObject({ status: 403, code: "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION" });
  });
});

import { build } from "esbuild";
import * as oidc from "openid-client";
import { URI } from "otpauth";
import type { BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { createNodeAuthClient } from "../src/client/index.js";
import type { createOAuthClientBody } from "../src/contract/oauth-provider.js";
import {
  screenshot,
  seriousA11yViolations,
  signInThroughApi,
  signUpThroughApi,
  submitSignUpForm,
} from "./helpers/browser.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/*
 * The OAuth provider's screens in a real browser (docs/oauth-provider.md): the app's sign-in page as
 * the provider's loginPage, the consent page, the device page, connected applications on the account
 * and an organization's OAuth clients. openid-client is the relying party; its callback is a route
 * the browser context answers itself (https://rp.example is nowhere).
 */

const e2e = setUpServiceAndBrowser({
  options: {
    oauthProvider: { enabled: true, devicePollingInterval: 1 },
    // An admin role that manages OAuth clients and nothing else (issue 52's note: the area once asked user:list).
    admin: { roles: { steward: { oauthClient: ["list", "update", "delete"] } } },
  },
});
const REDIRECT = "https://rp.example/callback";
const PASSWORD = "correct horse battery";

const newUser = (name: string) => ({
  name,
  email: `${name.toLowerCase()}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`,
  password: PASSWORD,
});

/** A browser context whose visits to the relying party's callback land on a blank page (the URL is what counts). */
async function contextWithRelyingParty(options?: BrowserContextOptions): Promise<BrowserContext> {
  const context = await e2e.newContext(options);
  await context.route("https://rp.example/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>RP</title>" }),
  );
  return context;
}

async function relyingParty(clientId: string, clientSecret?: string) {
  const issuer = new URL(`${e2e.service.origin}/api/auth`);
  return oidc.discovery(issuer, clientId, clientSecret, clientSecret ? undefined : oidc.None(), {
    execute: [oidc.allowInsecureRequests],
  });
}

async function authorizationRequest(config: oidc.Configuration, scope: string) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  return { url, verifier, state, nonce };
}

/** On the consent page: Allow, and the code the RP got redeemed as it would (PKCE, state, nonce checked). */
async function allowAndRedeem(
  page: Page,
  rp: oidc.Configuration,
  request: Awaited<ReturnType<typeof authorizationRequest>>,
) {
  await page.getByTestId("oauth-consent-allow").click();
  await page.waitForURL(/^https:\/\/rp\.example\/callback\?/);
  return oidc.authorizationCodeGrant(rp, new URL(page.url()), {
    pkceCodeVerifier: request.verifier,
    expectedState: request.state,
    expectedNonce: request.nonce,
  });
}

/** In a signed-in `context`: the request to consent, Allow, and the code redeemed. */
async function consentAndRedeem(
  context: BrowserContext,
  rp: oidc.Configuration,
  request: Awaited<ReturnType<typeof authorizationRequest>>,
) {
  const page = await context.newPage();
  await page.goto(request.url.href);
  return { page, tokens: await allowAndRedeem(page, rp, request) };
}

/** A user signed up over the API with an app of their own: its relying party and a request for `scope`. */
async function newUserWithApp(name: string, client: z.input<typeof createOAuthClientBody>, scope: string) {
  const user = newUser(name);
  const api = createNodeAuthClient({ baseURL: e2e.service.origin });
  await api.signUp.email(user);
  const made = await api.oauth2.createClient(client);
  const rp = await relyingParty(made.data!.client_id, made.data!.client_secret);
  const request = await authorizationRequest(rp, scope);
  return { user, api, made, rp, request };
}

/** An owner with an active organization, through the API: the node client and the organization's id. */
async function ownerWithOrganization() {
  const owner = newUser("Olga");
  const api = createNodeAuthClient({ baseURL: e2e.service.origin });
  await api.signUp.email(owner);
  const created = await api.organization.create({ name: "Acme Apps", slug: `acme-${Date.now()}` });
  if (created.error) throw new Error(JSON.stringify(created.error));
  return { owner, api, organizationId: created.data.id };
}

async function clientFromScreen(page: Page) {
  return {
    clientId: await page.getByTestId("oauth-client-id").inputValue(),
    secret: await page.getByTestId("oauth-client-secret").inputValue(),
  };
}

describe("the OAuth provider's screens", () => {
  it("an owner registers a client on the organization screen; a user signs in and consents; the RP gets tokens", async () => {
    const { owner, organizationId } = await ownerWithOrganization();
    const ownerContext = await e2e.newContext();
    await signInThroughApi(ownerContext, e2e.service.origin, owner);
    await ownerContext.request.post(`${e2e.service.origin}/api/auth/organization/set-active`, {
      data: { organizationId },
      headers: { origin: e2e.service.origin },
    });
    const admin = await ownerContext.newPage();
    await admin.goto(`${e2e.service.origin}/organization`);
    await admin.getByRole("link", { name: "OAuth applications" }).click();
    await admin.getByTestId("oauth-clients-empty").waitFor();
    await admin.getByTestId("oauth-client-name").fill("Acme Dashboard");
    await admin.getByTestId("oauth-client-redirect-uris").fill(REDIRECT);
    await admin.getByTestId("oauth-client-refresh").check();
    await admin.getByTestId("oauth-client-logout").getByText("Sign-out addresses (optional)").click();
    await admin.getByTestId("oauth-client-post-logout-uris").fill("https://rp.example/bye");
    await admin.getByTestId("oauth-client-frontchannel").fill("https://rp.example/frontchannel");
    expect(await seriousA11yViolations(admin)).toEqual([]);
    await admin.getByTestId("oauth-client-create").click();
    await admin.getByTestId("oauth-client-once").waitFor();
    const first = await clientFromScreen(admin);
    expect(first.secret.length).toBeGreaterThan(30);
    const registered = await e2e.service.auth.database.db
      .selectFrom("oauthClient")
      .select(["postLogoutRedirectUris", "frontchannelLogoutUri"])
      .where("clientId", "=", first.clientId)
      .executeTakeFirstOrThrow();
    expect(registered).toEqual({
      postLogoutRedirectUris: JSON.stringify(["https://rp.example/bye"]),
      frontchannelLogoutUri: "https://rp.example/frontchannel",
    });
    await admin.getByTestId("oauth-client-done").click();
    // The secret is gone from the screen once copied; the list names the client.
    expect(await admin.getByTestId("oauth-client-secret").count()).toBe(0);
    await expect.poll(() => admin.getByTestId("oauth-client-row").textContent()).toContain("Acme Dashboard");
    expect(await seriousA11yViolations(admin)).toEqual([]);
    await screenshot(admin, "oauth-clients");

    // A rotation shows the new secret once; the first one stops working.
    await admin.getByTestId("oauth-client-rotate").click();
    await admin.getByTestId("confirm-accept").click();
    await admin.getByTestId("oauth-client-once").waitFor();
    const rotated = await clientFromScreen(admin);
    expect(rotated.clientId).toBe(first.clientId);
    expect(rotated.secret).not.toBe(first.secret);
    const stale = await fetch(`${e2e.service.origin}/api/auth/oauth2/token`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${btoa(`${first.clientId}:${first.secret}`)}`,
      },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: "x" }),
    });
    expect(stale.status).toBe(401);

    // Someone else signs in to the application through the app's pages.
    const user = newUser("Ulla");
    await signUpThroughApi(e2e.service.origin, user);
    const rp = await relyingParty(rotated.clientId, rotated.secret);
    const request = await authorizationRequest(rp, "openid profile email offline_access");
    const context = await contextWithRelyingParty();
    const page = await context.newPage();
    await page.goto(request.url.href);
    await page.waitForURL(/\/sign-in\?.*sig=/);
    await page.getByTestId("sign-in-oauth").waitFor();
    await page.getByTestId("sign-in-email").fill(user.email);
    await page.getByTestId("sign-in-password").fill(user.password);
    // The sign-in itself carries the signed request and answers where to go: no second request.
    const continued: string[] = [];
    page.on("request", (r) => r.url().endsWith("/oauth2/continue") && continued.push(r.url()));
    let signInReply: { redirect?: boolean; url?: string } = {};
    await page.route("**/api/auth/sign-in/email", async (route) => {
      const response = await route.fetch();
      signInReply = await response.json();
      await route.fulfill({ response });
    });
    await page.getByTestId("sign-in-submit").click();

    await page.waitForURL(/\/oauth\/consent\?/);
    expect(signInReply.redirect).toBe(true);
    expect(new URL(signInReply.url!).pathname).toBe("/oauth/consent");
    expect(continued).toEqual([]);
    await expect.poll(() => page.getByTestId("oauth-client-name").textContent()).toBe("Acme Dashboard");
    const words = await page.getByTestId("oauth-scopes").locator("li").allTextContents();
    expect(words).toEqual([
      "Confirm who you are",
      "See your name and profile picture",
      "See your email address",
      "Keep access while you are away",
    ]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "oauth-consent");
    await page.getByTestId("oauth-consent-allow").click();
    await page.waitForURL(/^https:\/\/rp\.example\/callback\?/);

    const tokens = await oidc.authorizationCodeGrant(rp, new URL(page.url()), {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
      idTokenExpected: true,
    });
    expect(tokens.claims()).toMatchObject({ email: user.email, aud: rotated.clientId });
    expect(tokens.refresh_token).toBeDefined();

    // Deleting the client on the screen ends what it was given.
    await admin.getByTestId("oauth-client-done").click();
    await admin.getByTestId("oauth-client-delete").click();
    await admin.getByTestId("confirm-accept").click();
    await admin.getByTestId("oauth-clients-empty").waitFor();
    await expect(oidc.refreshTokenGrant(rp, tokens.refresh_token!)).rejects.toThrow();
  });

  it("a new account made from the login page goes on to consent; Deny sends access_denied back", async () => {
    const { request } = await newUserWithApp(
      "Dora",
      { client_name: "Nosy App", redirect_uris: [REDIRECT] },
      "openid email",
    );
    const context = await contextWithRelyingParty();
    const page = await context.newPage();
    await page.goto(request.url.href);
    await page.waitForURL(/\/sign-in\?.*sig=/);
    // "Create an account" keeps the signed request; the sign-up then carries on with it.
    await page.getByRole("link", { name: "Create an account" }).click();
    await page.waitForURL(/\/sign-up\?.*sig=/);
    await submitSignUpForm(page, newUser("Newt"));
    await page.waitForURL(/\/oauth\/consent\?/);
    await expect.poll(() => page.getByTestId("oauth-client-name").textContent()).toBe("Nosy App");
    await page.getByTestId("oauth-consent-deny").click();
    await page.waitForURL(/^https:\/\/rp\.example\/callback\?/);
    const back = new URL(page.url()).searchParams;
    expect(back.get("error")).toBe("access_denied");
    expect(back.get("state")).toBe(request.state);
  });

  it("a device asks by form; the user approves its code on /device; the device's poll gets tokens", async () => {
    const user = newUser("Dev");
    const api = createNodeAuthClient({ baseURL: e2e.service.origin });
    await api.signUp.email(user);
    const made = await api.oauth2.createClient({
      client_name: "Living Room TV",
      token_endpoint_auth_method: "none",
      grant_types: ["urn:ietf:params:oauth:grant-type:device_code"],
    });
    expect(made.error).toBeNull();
    const clientId = made.data!.client_id;
    const form = (body: Record<string, string>) => ({
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(body),
    });
    const asked = await fetch(
      `${e2e.service.origin}/api/auth/device/code`,
      form({ client_id: clientId, scope: "openid profile" }),
    );
    expect(asked.status).toBe(200);
    const device = (await asked.json()) as { device_code: string; user_code: string; verification_uri: string };
    expect(new URL(device.verification_uri).pathname).toBe("/device");
    const poll = () =>
      fetch(
        `${e2e.service.origin}/api/auth/oauth2/token`,
        form({
          grant_type: "urn:ietf:params:oauth:grant-type:device_code",
          device_code: device.device_code,
          client_id: clientId,
        }),
      );
    expect(((await (await poll()).json()) as { error: string }).error).toBe("authorization_pending");

    const context = await e2e.newContext();
    await signInThroughApi(context, e2e.service.origin, user);
    const page = await context.newPage();
    await page.goto(device.verification_uri);
    // Typed as people type it: lower case, without the dash.
    await page.getByTestId("device-code").fill(device.user_code.replace("-", "").toLowerCase());
    await page.getByTestId("device-submit").click();
    await expect.poll(() => page.getByTestId("device-client").textContent()).toContain("Living Room TV");
    expect(await page.getByTestId("device-scopes").locator("li").allTextContents()).toEqual([
      "Confirm who you are",
      "See your name and profile picture",
    ]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "oauth-device");
    await page.getByTestId("device-allow").click();
    await page.getByTestId("device-approved").waitFor();

    // Polled as RFC 8628 3.5 asks of a device: every `interval` seconds, five more after each slow_down.
    let tokens: { access_token?: string; error?: string } = {};
    let waitMs = 1000;
    for (let polls = 0; polls < 5 && tokens.access_token === undefined; polls++) {
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      tokens = (await (await poll()).json()) as typeof tokens;
      if (tokens.error === "slow_down") waitMs += 5000;
      else expect(tokens.error).toBeUndefined();
    }
    expect(tokens.access_token).toBeDefined();
  });

  it("the consent page keeps only the scopes the user ticks; openid stays", async () => {
    const { user, rp, request } = await newUserWithApp(
      "Sina",
      { client_name: "Greedy App", redirect_uris: [REDIRECT], grant_types: ["authorization_code", "refresh_token"] },
      "openid profile email offline_access",
    );
    const context = await contextWithRelyingParty();
    await signInThroughApi(context, e2e.service.origin, user);
    const page = await context.newPage();
    await page.goto(request.url.href);
    const choices = page.getByTestId("oauth-scopes-choice");
    await expect.poll(() => choices.count()).toBe(4);
    expect(await page.locator('[data-testid="oauth-scopes-choice"][value="openid"]').isDisabled()).toBe(true);
    await page.getByRole("checkbox", { name: "See your name and profile picture" }).uncheck();
    await page.getByRole("checkbox", { name: "Keep access while you are away" }).uncheck();
    expect(await seriousA11yViolations(page)).toEqual([]);
    const tokens = await allowAndRedeem(page, rp, request);
    expect(tokens.scope?.split(" ").sort()).toEqual(["email", "openid"]);
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.claims()).toMatchObject({ email: user.email });
    expect(tokens.claims()?.name).toBeUndefined();
  });

  it("an owner edits a client's redirect URIs and disables it; an admin lists every client, disables and deletes", async () => {
    const { owner, api, organizationId } = await ownerWithOrganization();
    const made = await api.oauth2.createClient({
      client_name: "Acme Reports",
      redirect_uris: [REDIRECT],
      organizationId,
    });
    const clientId = made.data!.client_id;
    const ownerContext = await e2e.newContext();
    await signInThroughApi(ownerContext, e2e.service.origin, owner);
    await ownerContext.request.post(`${e2e.service.origin}/api/auth/organization/set-active`, {
      data: { organizationId },
      headers: { origin: e2e.service.origin },
    });
    const screen = await ownerContext.newPage();
    await screen.goto(`${e2e.service.origin}/organization/oauth-clients`);
    const row = screen.locator(`[data-testid="oauth-client-row"][data-client-id="${clientId}"]`);
    await row.getByTestId("oauth-client-edit").click();
    await row.getByTestId("oauth-client-edit-uris").fill(`${REDIRECT}\nhttps://rp.example/second`);
    await row.getByTestId("oauth-client-edit-post-logout-uris").fill("https://rp.example/bye");
    // A front-channel page on another host is refused, with the reason, and nothing changes.
    await row.getByTestId("oauth-client-edit-frontchannel").fill("https://elsewhere.example/logout");
    await row.getByTestId("oauth-client-save").click();
    await expect.poll(() => screen.getByRole("alert").textContent()).toContain("frontchannel_logout_uri");
    expect((await api.oauth2.getClient({ query: { client_id: clientId } })).data?.redirect_uris).toEqual([REDIRECT]);
    await row.getByTestId("oauth-client-edit-frontchannel").fill("https://rp.example/frontchannel");
    await row.getByTestId("oauth-client-save").click();
    await screen.getByTestId("oauth-clients-notice").waitFor();
    await expect
      .poll(async () => (await api.oauth2.getClient({ query: { client_id: clientId } })).data)
      .toMatchObject({
        redirect_uris: [REDIRECT, "https://rp.example/second"],
        post_logout_redirect_uris: ["https://rp.example/bye"],
        frontchannel_logout_uri: "https://rp.example/frontchannel",
      });
    await row.getByTestId("oauth-client-toggle").click();
    await screen.getByTestId("confirm-accept").click();
    await row.getByTestId("oauth-client-disabled").waitFor();
    expect((await api.oauth2.getClient({ query: { client_id: clientId } })).data?.disabled).toBe(true);
    expect(await seriousA11yViolations(screen)).toEqual([]);
    await row.getByTestId("oauth-client-toggle").click();
    await expect.poll(() => row.getByTestId("oauth-client-disabled").count()).toBe(0);
    expect((await api.oauth2.getClient({ query: { client_id: clientId } })).data?.disabled).toBe(false);

    // An admin sees it among every client, with its organization, and disables then deletes it.
    const admin = newUser("Ada");
    const adminId = await signUpThroughApi(e2e.service.origin, admin);
    await e2e.service.auth.database.db.updateTable("user").set({ role: "admin" }).where("id", "=", adminId).execute();
    const adminContext = await e2e.newContext();
    await signInThroughApi(adminContext, e2e.service.origin, admin);
    const area = await adminContext.newPage();
    await area.goto(`${e2e.service.origin}/admin`);
    await area.getByRole("link", { name: "OAuth applications" }).click();
    const listed = area.locator(`[data-testid="oauth-client-row"][data-client-id="${clientId}"]`);
    await expect.poll(() => listed.textContent()).toContain(`organization ${organizationId}`);
    expect(await listed.getByTestId("oauth-client-rotate").count()).toBe(0);
    expect(await seriousA11yViolations(area)).toEqual([]);
    await screenshot(area, "admin-oauth-clients");
    await listed.getByTestId("oauth-client-toggle").click();
    await area.getByTestId("confirm-accept").click();
    await listed.getByTestId("oauth-client-disabled").waitFor();
    await listed.getByTestId("oauth-client-delete").click();
    await area.getByTestId("confirm-accept").click();
    await expect.poll(() => listed.count()).toBe(0);
    expect((await api.oauth2.getClient({ query: { client_id: clientId } })).error?.status).toBe(404);
  });

  it("a role with OAuth clients only opens the admin area at its clients, with no users or trail", async () => {
    const { api, organizationId } = await ownerWithOrganization();
    const made = await api.oauth2.createClient({
      client_name: "Steward's view",
      redirect_uris: [REDIRECT],
      organizationId,
    });
    const steward = newUser("Steward");
    const stewardId = await signUpThroughApi(e2e.service.origin, steward);
    await e2e.service.auth.database.db
      .updateTable("user")
      .set({ role: "steward" })
      .where("id", "=", stewardId)
      .execute();
    const context = await e2e.newContext();
    await signInThroughApi(context, e2e.service.origin, steward);
    const area = await context.newPage();
    await area.goto(`${e2e.service.origin}/admin`);
    await area.waitForURL(/\/admin\/oauth-clients$/);
    const listed = area.locator(`[data-testid="oauth-client-row"][data-client-id="${made.data!.client_id}"]`);
    await expect.poll(() => listed.count()).toBe(1);
    expect(await area.getByRole("link", { name: "OAuth applications" }).count()).toBe(1);
    expect(await area.getByRole("link", { name: "Users" }).count()).toBe(0);
    expect(await area.getByTestId("admin-refused").count()).toBe(0);
  });

  it("end-session frames the app's front-channel logout page in the browser, then returns to the app", async () => {
    const { user, rp, request } = await newUserWithApp(
      "Fran",
      {
        client_name: "Front Office",
        redirect_uris: [REDIRECT],
        post_logout_redirect_uris: ["https://rp.example/bye"],
        frontchannel_logout_uri: "https://rp.example/frontchannel",
      },
      "openid",
    );
    const context = await contextWithRelyingParty();
    // The relying party's pages, as the browser asked for them (the frame's included).
    const visited: URL[] = [];
    context.on("request", (req) => {
      if (req.url().startsWith("https://rp.example/")) visited.push(new URL(req.url()));
    });
    await signInThroughApi(context, e2e.service.origin, user);
    const { page, tokens } = await consentAndRedeem(context, rp, request);
    const logout = oidc.buildEndSessionUrl(rp, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: "https://rp.example/bye",
      state: "bye-state",
    });
    await page.goto(logout.href);
    await page.waitForURL("https://rp.example/bye?state=bye-state");
    const frame = visited.find((url) => url.pathname === "/frontchannel");
    expect(frame?.searchParams.get("iss")).toBe(`${e2e.service.origin}/api/auth`);
    expect(frame?.searchParams.get("sid")).toBe(tokens.claims()!.sid);
    const session = await context.request.get(`${e2e.service.origin}/api/auth/get-session`);
    expect(await session.json()).toBeNull();
  });

  it("revoking a connected application on the account screen makes its refresh token fail", async () => {
    const { user, rp, request } = await newUserWithApp(
      "Rita",
      { client_name: "Calendar Sync", redirect_uris: [REDIRECT], grant_types: ["authorization_code", "refresh_token"] },
      "openid email offline_access",
    );
    const context = await contextWithRelyingParty();
    await signInThroughApi(context, e2e.service.origin, user);
    const { page, tokens } = await consentAndRedeem(context, rp, request);
    // The refresh token works before the revocation (so its failure after is the revocation's doing).
    const refreshed = await oidc.refreshTokenGrant(rp, tokens.refresh_token!);

    await page.goto(`${e2e.service.origin}/account`);
    await page.getByTestId("profile-nav-applications").click();
    const row = page.getByTestId("connected-app");
    await expect.poll(() => row.textContent()).toContain("Calendar Sync");
    expect(await row.getByTestId("connected-app-scopes").locator("li").allTextContents()).toEqual([
      "Confirm who you are",
      "See your email address",
      "Keep access while you are away",
    ]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "oauth-apps");
    await row.getByTestId("connected-app-revoke").click();
    await page.getByTestId("confirm-accept").click();
    await page.getByTestId("connected-apps-empty").waitFor();
    const refused = await oidc.refreshTokenGrant(rp, refreshed.refresh_token!).catch((error) => error);
    expect(refused).toBeInstanceOf(oidc.ResponseBodyError);
    expect(refused.error).toBe("invalid_grant");
  });

  it("better-auth's own oauthProviderClient on the login page adds oauth_query and is sent on to consent", async () => {
    // better-auth's browser client with the provider's client plugin, bundled as an application would.
    const { outputFiles } = await build({
      stdin: {
        contents: `import { createAuthClient } from "better-auth/client";
          import { oauthProviderClient } from "@better-auth/oauth-provider/client";
          window.betterAuthClient = createAuthClient({ plugins: [oauthProviderClient()] });`,
        resolveDir: process.cwd(),
        loader: "js",
      },
      bundle: true,
      write: false,
      format: "iife",
      platform: "browser",
      logLevel: "silent",
    });
    const { user, rp, request } = await newUserWithApp(
      "Bert",
      { client_name: "Better App", redirect_uris: [REDIRECT] },
      "openid email",
    );
    // The bundle goes in as an inline script, which the app's policy (script-src 'self') would refuse.
    const context = await contextWithRelyingParty({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(request.url.href);
    await page.waitForURL(/\/sign-in\?.*sig=/);
    const signedQuery = new URL(page.url()).search.slice(1);
    await page.addScriptTag({ content: outputFiles[0]!.text });
    let sent: Record<string, unknown> = {};
    await page.route("**/api/auth/sign-in/email", async (route) => {
      sent = route.request().postDataJSON();
      await route.continue();
    });
    // Not awaited in the page: the client follows the answer's url, which ends this document.
    await page.evaluate(
      ({ email, password }) => {
        void (window as any).betterAuthClient.signIn.email({ email, password });
      },
      { email: user.email, password: user.password },
    );
    await page.waitForURL(/\/oauth\/consent\?/);
    expect(sent.oauth_query).toBe(signedQuery);
    const tokens = await allowAndRedeem(page, rp, request);
    expect(tokens.claims()).toMatchObject({ email: user.email });
  });

  it("a sign-in that owes a second factor carries the request to /two-factor and on to consent", async () => {
    const user = newUser("Tess");
    const api = createNodeAuthClient({ baseURL: e2e.service.origin });
    const signedUp = await api.signUp.email(user);
    // Enrolling waits for a verified address; how it gets verified is not this test's subject.
    await e2e.service.auth.database.db
      .updateTable("user")
      .set({ emailVerified: true })
      .where("id", "=", signedUp.data!.user.id)
      .execute();
    const enabled = await api.twoFactor.enable({ password: user.password });
    const totp = URI.parse(enabled.data!.totpURI) as import("otpauth").TOTP;
    expect((await api.twoFactor.verifyTotp({ code: totp.generate() })).error).toBeNull();
    const made = await api.oauth2.createClient({ client_name: "Careful App", redirect_uris: [REDIRECT] });
    const rp = await relyingParty(made.data!.client_id, made.data!.client_secret);
    const request = await authorizationRequest(rp, "openid");

    const context = await contextWithRelyingParty();
    const page = await context.newPage();
    await page.goto(request.url.href);
    await page.waitForURL(/\/sign-in\?.*sig=/);
    await page.getByTestId("sign-in-email").fill(user.email);
    await page.getByTestId("sign-in-password").fill(user.password);
    await page.getByTestId("sign-in-submit").click();
    await page.waitForURL(/\/two-factor\?.*sig=/);
    // The next period's code: the one used to enrol is spent (the server accepts one step either side).
    await page.getByTestId("two-factor-code").fill(totp.generate({ timestamp: Date.now() + 30_000 }));
    await page.getByTestId("two-factor-submit").click();
    await page.waitForURL(/\/oauth\/consent\?/);
    const tokens = await allowAndRedeem(page, rp, request);
    expect(tokens.claims()?.sub).toBe(signedUp.data!.user.id);
  });

  it("prompt=login asks a signed-in user to sign in again, without offering to continue as they are", async () => {
    const { user, request } = await newUserWithApp(
      "Paul",
      { client_name: "Strict App", redirect_uris: [REDIRECT] },
      "openid",
    );
    request.url.searchParams.set("prompt", "login");
    const context = await contextWithRelyingParty();
    await signInThroughApi(context, e2e.service.origin, user);
    const page = await context.newPage();
    const signedInAs = page.getByText(`You are signed in as ${user.email}.`);
    // Without a request the sign-in page offers to go on as the signed-in user...
    await page.goto(`${e2e.service.origin}/sign-in`);
    await signedInAs.waitFor();
    // ...with one asking for a new sign-in it does not.
    await page.goto(request.url.href);
    await page.waitForURL(/\/sign-in\?.*sig=/);
    await page.getByTestId("sign-in-oauth").waitFor();
    expect(await signedInAs.count()).toBe(0);
    await page.getByTestId("sign-in-email").fill(user.email);
    await page.getByTestId("sign-in-password").fill(user.password);
    await page.getByTestId("sign-in-submit").click();
    await page.waitForURL(/\/oauth\/consent\?/);
  });

  it("a mailed sign-in link asked for on the login page comes back through authorize to consent", async () => {
    const { user, rp, request } = await newUserWithApp(
      "Lina",
      { client_name: "Linked App", redirect_uris: [REDIRECT] },
      "openid email",
    );
    const context = await contextWithRelyingParty();
    const page = await context.newPage();
    await page.goto(request.url.href);
    await page.waitForURL(/\/sign-in\?.*sig=/);
    await page.getByTestId("magic-link-link").click();
    await page.getByTestId("magic-link-email").fill(user.email);
    await page.getByTestId("magic-link-submit").click();
    await page.getByTestId("magic-link-sent").waitFor();
    const mail = await e2e.service.mail!.waitFor((m) => m.to === user.email && /sign-in link/.test(m.subject), 15_000);
    await page.goto(/https?:\/\/\S+\/magic-link\?\S+/.exec(mail.text)?.[0] ?? "");
    await page.getByTestId("magic-link-continue").click();
    // The link's callback is the signed request at /oauth2/authorize, which the new session answers.
    await page.waitForURL(/\/oauth\/consent\?/);
    const tokens = await allowAndRedeem(page, rp, request);
    expect(tokens.claims()).toMatchObject({ email: user.email });
  });
});

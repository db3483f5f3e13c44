import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRemoteJWKSet, jwtVerify } from "jose";
import * as oauth from "oauth4webapi";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BearerError, createResourceServer } from "../src/server/resource-server.js";
import { sweepExpired } from "../src/server/services/housekeeping.js";
import { PARALLEL_REQUESTS } from "./helpers/burst.js";
import { dialectUnderTest } from "./helpers/database.js";
import { allowAtConsent } from "./helpers/oauth-consent.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/*
 * The provider driven by panva's oauth4webapi as the relying party: a client no one here wrote
 * reads discovery, runs code + PKCE, validates the ID token's claims (signatures checked with jose
 * against GET /jwks), calls UserInfo, refreshes, introspects and revokes.
 */

const REDIRECT = "https://rp.example/callback";
const API = "https://api.example.com";
const insecure = { [oauth.allowInsecureRequests]: true };
const OPTIONS = {
  organization: { enabled: true },
  audit: { enabled: true },
  oauthProvider: { enabled: true, loginPage: "/sign-in", consentPage: "/consent", validAudiences: [API, `${API}/mcp`] },
};

interface Registered {
  client_id: string;
  client_secret?: string;
}

describe("OAuth 2.1 and OpenID provider, with oauth4webapi as the relying party", () => {
  let server: TestServer;
  let issuer: string;
  let as: oauth.AuthorizationServer;

  beforeAll(async () => {
    server = await startTestServer({ shareable: true, options: OPTIONS });
    issuer = `${server.origin}/api/auth`;
    const response = await oauth.discoveryRequest(new URL(issuer), { algorithm: "oidc", ...insecure });
    as = await oauth.processDiscoveryResponse(new URL(issuer), response);
  });
  afterAll(() => server.close());
  afterEach(() => expect(server.loggedErrors).toEqual([]));

  async function register(
    browser: ReturnType<TestServer["browser"]>,
    body: Record<string, unknown> = {},
  ): Promise<Registered> {
    const res = await browser.post("/oauth2/create-client", {
      client_name: "Relying party",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      ...body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }

  const rpClient = (registered: Registered): oauth.Client => ({
    client_id: registered.client_id,
    id_token_signed_response_alg: "EdDSA",
  });

  async function authorizationURL(clientId: string, extra: Record<string, string> = {}) {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: clientId,
      redirect_uri: REDIRECT,
      response_type: "code",
      scope: "openid profile email offline_access",
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
      ...extra,
    }).toString();
    return { url: url.toString(), verifier, state, nonce };
  }

  /** Signs up, registers a client and runs the browser through authorize and consent to the callback. */
  async function codeFlow(extra: Record<string, string> = {}) {
    const { browser, user } = await signUp(server);
    const registered = await register(browser);
    const request = await authorizationURL(registered.client_id, extra);
    const { consent, callback } = await allowAtConsent(browser, request.url);
    expect(`${consent.origin}${consent.pathname}`).toBe(`${server.origin}/consent`);
    return { browser, user, registered, request, callback };
  }

  async function exchange(registered: Registered, callback: URL, request: { state: string; verifier: string }) {
    const client = rpClient(registered);
    const params = oauth.validateAuthResponse(as, client, callback, request.state);
    return oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(registered.client_secret!),
      params,
      REDIRECT,
      request.verifier,
      insecure,
    );
  }

  it("publishes discovery under the issuer, with S256 only and the iss response parameter", () => {
    expect(as.issuer).toBe(issuer);
    expect(as.code_challenge_methods_supported).toEqual(["S256"]);
    expect(as.authorization_response_iss_parameter_supported).toBe(true);
    expect(as.jwks_uri).toBe(`${issuer}/jwks`);
  });

  it("code + PKCE: ID token, UserInfo, refresh rotation, introspection and revocation", async () => {
    const { user, registered, request, callback } = await codeFlow();
    expect(callback.searchParams.get("iss")).toBe(issuer);
    const client = rpClient(registered);
    const auth = oauth.ClientSecretBasic(registered.client_secret!);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await exchange(registered, callback, request),
      { expectedNonce: request.nonce, requireIdToken: true },
    );
    const claims = oauth.getValidatedIdTokenClaims(tokens)!;
    expect(claims).toMatchObject({ sub: user.id, aud: registered.client_id, iss: issuer, email: user.email });
    const jwks = createRemoteJWKSet(new URL(as.jwks_uri!));
    await jwtVerify(tokens.id_token!, jwks, { issuer, audience: registered.client_id });
    const access = await jwtVerify(tokens.access_token, jwks, { issuer, typ: "at+jwt" });
    expect(access.payload).toMatchObject({ sub: user.id, client_id: registered.client_id });

    const info = await oauth.processUserInfoResponse(
      as,
      client,
      user.id,
      await oauth.userInfoRequest(as, client, tokens.access_token, insecure),
    );
    expect(info).toMatchObject({ sub: user.id, email: user.email, email_verified: false, name: user.name });

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure),
    );
    expect(refreshed.refresh_token).toBeDefined();
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);

    const introspected = await oauth.processIntrospectionResponse(
      as,
      client,
      await oauth.introspectionRequest(as, client, auth, refreshed.access_token, insecure),
    );
    expect(introspected).toMatchObject({ active: true, sub: user.id, client_id: registered.client_id });

    const revoked = await oauth.revocationRequest(as, client, auth, refreshed.refresh_token!, insecure);
    expect(revoked.status).toBe(200);
    const after = await oauth.processIntrospectionResponse(
      as,
      client,
      await oauth.introspectionRequest(as, client, auth, refreshed.access_token, insecure),
    );
    expect(after.active).toBe(false);
    const userInfoAfter = await oauth.userInfoRequest(as, client, refreshed.access_token, insecure);
    expect(userInfoAfter.status).toBe(401);
    expect(userInfoAfter.headers.get("www-authenticate")).toContain("invalid_token");
  });

  it("a replayed refresh token revokes the whole grant", async () => {
    const { registered, request, callback } = await codeFlow();
    const client = rpClient(registered);
    const auth = oauth.ClientSecretBasic(registered.client_secret!);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await exchange(registered, callback, request),
      { expectedNonce: request.nonce },
    );
    const first = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure),
    );
    // The old token again: refused, and the token the honest client holds now dies with the grant.
    const replay = await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure);
    expect(replay.status).toBe(400);
    expect((await replay.json()).error).toBe("invalid_grant");
    const next = await oauth.refreshTokenGrantRequest(as, client, auth, first.refresh_token!, insecure);
    expect((await next.json()).error).toBe("invalid_grant");
    const introspected = await oauth.processIntrospectionResponse(
      as,
      client,
      await oauth.introspectionRequest(as, client, auth, first.access_token, insecure),
    );
    expect(introspected.active).toBe(false);
    const entries = await server.auth.database.db
      .selectFrom("auditTrail")
      .select(["action", "outcome", "details"])
      .where("action", "=", "oauth.token_issued")
      .where("outcome", "=", "failure")
      .execute();
    expect(entries.some((entry) => JSON.parse(entry.details!).replay === "refresh_token_reused")).toBe(true);
  });

  it("a replay on one instance ends the grant on another at once (the revocation is in the shared database)", async () => {
    const other = await startTestServer({
      shareDatabaseWith: server,
      options: OPTIONS,
      extra: { baseURL: server.origin },
    });
    try {
      const { registered, request, callback } = await codeFlow();
      const client = rpClient(registered);
      const auth = oauth.ClientSecretBasic(registered.client_secret!);
      const tokens = await oauth.processAuthorizationCodeResponse(
        as,
        client,
        await exchange(registered, callback, request),
        { expectedNonce: request.nonce },
      );
      const first = await (
        await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure)
      ).json();
      // The other instance: the same BASE_URL (so the same issuer), reached at its own address.
      const elsewhere = (url: string | undefined) => url!.replace(server.origin, other.origin);
      const otherAs = {
        ...as,
        token_endpoint: elsewhere(as.token_endpoint),
        introspection_endpoint: elsewhere(as.introspection_endpoint),
      };
      const live = await oauth.introspectionRequest(otherAs, client, auth, first.access_token, insecure);
      expect((await live.json()).active).toBe(true);
      const replay = await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure);
      expect(replay.status).toBe(400);
      const dead = await oauth.introspectionRequest(otherAs, client, auth, first.access_token, insecure);
      expect((await dead.json()).active).toBe(false);
      const refreshElsewhere = await oauth.refreshTokenGrantRequest(
        otherAs,
        client,
        auth,
        first.refresh_token,
        insecure,
      );
      expect((await refreshElsewhere.json()).error).toBe("invalid_grant");
      expect(other.loggedErrors).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it("RP-initiated logout: the ID token as hint signs the browser out and returns to a registered URI", async () => {
    const { browser } = await signUp(server);
    const registered = await register(browser, { post_logout_redirect_uris: ["https://rp.example/bye"] });
    const request = await authorizationURL(registered.client_id);
    const { callback } = await allowAtConsent(browser, request.url);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      rpClient(registered),
      await exchange(registered, callback, request),
      { expectedNonce: request.nonce },
    );
    const endSession = (params: Record<string, string>) =>
      browser.get(`/oauth2/end-session?${new URLSearchParams(params)}`);
    // No hint: nothing happens (any page could aim this GET at the browser).
    const bare = await endSession({ post_logout_redirect_uri: "https://rp.example/bye" });
    expect(new URL(bare.headers.get("location")!).pathname).toBe("/api/auth/error");
    expect((await browser.get("/get-session")).body).not.toBeNull();
    // An unregistered target is not followed.
    const foreign = await endSession({
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: "https://evil.example",
    });
    expect(foreign.headers.get("location")).not.toContain("evil.example");
    expect((await browser.get("/get-session")).body).not.toBeNull();
    const res = await endSession({
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: "https://rp.example/bye",
      state: "s1",
    });
    expect(res.headers.get("location")).toBe("https://rp.example/bye?state=s1");
    expect((await browser.get("/get-session")).body).toBeNull();
  });

  it("a banned user's grant issues nothing more: refresh, introspection and UserInfo refuse", async () => {
    const { user, registered, request, callback } = await codeFlow();
    const client = rpClient(registered);
    const auth = oauth.ClientSecretBasic(registered.client_secret!);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await exchange(registered, callback, request),
      { expectedNonce: request.nonce },
    );
    await server.auth.database.db.updateTable("user").set({ banned: true }).where("id", "=", user.id).execute();
    const refreshed = await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure);
    expect((await refreshed.json()).error).toBe("invalid_grant");
    const introspected = await oauth.introspectionRequest(as, client, auth, tokens.access_token, insecure);
    expect((await introspected.json()).active).toBe(false);
    expect((await oauth.userInfoRequest(as, client, tokens.access_token, insecure)).status).toBe(401);
  });

  it("update-client changes redirect URIs and disables a client: its tokens stop at once", async () => {
    const { browser, registered, request, callback } = await codeFlow();
    const client = rpClient(registered);
    const auth = oauth.ClientSecretBasic(registered.client_secret!);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await exchange(registered, callback, request),
      { expectedNonce: request.nonce },
    );
    // UserInfo by POST too.
    const byPost = await fetch(as.userinfo_endpoint!, {
      method: "POST",
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect((await byPost.json()).sub).toBeTypeOf("string");

    const moved = await browser.post("/oauth2/update-client", {
      client_id: registered.client_id,
      update: { redirect_uris: ["https://rp.example/new"] },
    });
    expect(moved.body.redirect_uris).toEqual(["https://rp.example/new"]);
    const old = await browser.get((await authorizationURL(registered.client_id)).url);
    expect(new URL(old.headers.get("location")!).pathname).toBe("/api/auth/error");
    const badUri = await browser.post("/oauth2/update-client", {
      client_id: registered.client_id,
      update: { redirect_uris: ["http://rp.example/cb"] },
    });
    expect([badUri.status, badUri.body.code]).toEqual([400, "OAUTH_INVALID_REDIRECT_URI"]);

    const disabled = await browser.post("/oauth2/update-client", {
      client_id: registered.client_id,
      update: { disabled: true },
    });
    expect(disabled.body.disabled).toBe(true);
    // Another client (a resource server) asks about the disabled client's token.
    const introspector = await register(browser, { grant_types: ["client_credentials"], redirect_uris: [] });
    const introspection = await oauth.introspectionRequest(
      as,
      { client_id: introspector.client_id },
      oauth.ClientSecretBasic(introspector.client_secret!),
      tokens.access_token,
      insecure,
    );
    expect((await introspection.json()).active).toBe(false);
    const refreshed = await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure);
    expect([refreshed.status, (await refreshed.json()).error]).toEqual([401, "invalid_client"]);
  });

  it("a code is single use (a replay revokes what it gave) and lasts a minute", async () => {
    const { registered, request, callback } = await codeFlow();
    const client = rpClient(registered);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await exchange(registered, callback, request),
      { expectedNonce: request.nonce },
    );
    const replay = await exchange(registered, callback, request);
    expect([replay.status, (await replay.json()).error]).toEqual([400, "invalid_grant"]);
    const auth = oauth.ClientSecretBasic(registered.client_secret!);
    const introspected = await oauth.processIntrospectionResponse(
      as,
      client,
      await oauth.introspectionRequest(as, client, auth, tokens.access_token, insecure),
    );
    expect(introspected.active).toBe(false);

    const late = await codeFlow();
    server.clock.advance(61);
    const expired = await exchange(late.registered, late.callback, late.request);
    expect([expired.status, (await expired.json()).error]).toEqual([400, "invalid_grant"]);
  });

  it("refuses a wrong PKCE verifier, and spends the code doing so", async () => {
    const { registered, request, callback } = await codeFlow();
    const wrong = await exchange(registered, callback, { ...request, verifier: oauth.generateRandomCodeVerifier() });
    expect([wrong.status, (await wrong.json()).error]).toEqual([400, "invalid_grant"]);
    const right = await exchange(registered, callback, request);
    expect(right.status).toBe(400);
  });

  it("remembers consent: the second authorization goes straight back with a code", async () => {
    const { browser, registered } = await codeFlow();
    const again = await authorizationURL(registered.client_id);
    const res = await browser.get(again.url);
    const location = new URL(res.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get("code")).toBeTruthy();
    expect(location.searchParams.get("state")).toBe(again.state);
    // prompt=consent asks again.
    const forced = await browser.get((await authorizationURL(registered.client_id, { prompt: "consent" })).url);
    expect(new URL(forced.headers.get("location")!).pathname).toBe("/consent");
    // Withdrawn, it is asked again too.
    const consents = (await browser.get("/oauth2/get-consents")).body;
    expect(consents).toHaveLength(1);
    expect((await browser.post("/oauth2/delete-consent", { id: consents[0].id })).status).toBe(200);
    const after = await browser.get(again.url);
    expect(new URL(after.headers.get("location")!).pathname).toBe("/consent");
  });

  it("consent to fewer scopes than asked: the tokens carry those only; openid cannot be left out", async () => {
    const { browser } = await signUp(server);
    const registered = await register(browser);
    const request = await authorizationURL(registered.client_id);
    const consentPage = new URL((await browser.get(request.url)).headers.get("location")!);
    const oauthQuery = consentPage.search.slice(1);
    const withoutOpenid = await browser.post("/oauth2/consent", {
      accept: true,
      scope: "email",
      oauth_query: oauthQuery,
    });
    expect([withoutOpenid.status, withoutOpenid.body.code]).toEqual([400, "OAUTH_INVALID_REQUEST"]);
    const notAsked = await browser.post("/oauth2/consent", {
      accept: true,
      scope: "openid phone",
      oauth_query: oauthQuery,
    });
    expect(notAsked.status).toBe(400);
    const answer = await browser.post("/oauth2/consent", {
      accept: true,
      scope: "openid email",
      oauth_query: oauthQuery,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const response = await exchange(registered, new URL(answer.body.url), request);
    const tokens = await oauth.processAuthorizationCodeResponse(as, rpClient(registered), response, {
      expectedNonce: request.nonce,
    });
    expect(tokens.scope?.split(" ").sort()).toEqual(["email", "openid"]);
    expect(tokens.refresh_token).toBeUndefined();
    const claims = oauth.getValidatedIdTokenClaims(tokens)!;
    expect(claims.email).toBeDefined();
    expect(claims.name).toBeUndefined();
    // The consent remembered is the part accepted: asking for all again shows the page again.
    const again = await browser.get((await authorizationURL(registered.client_id)).url);
    expect(new URL(again.headers.get("location")!).pathname).toBe("/consent");
  });

  it("signed out: on to the login page with a signed query; signing in and coming back continues", async () => {
    const { browser: owner } = await signUp(server);
    const registered = await register(owner);
    const { browser, email, password } = await signUp(server);
    await browser.post("/sign-out", {});
    const request = await authorizationURL(registered.client_id, { prompt: "login" });
    const toLogin = await browser.get(request.url);
    const login = new URL(toLogin.headers.get("location")!);
    expect(login.pathname).toBe("/sign-in");
    expect(login.searchParams.get("sig")).toBeTruthy();
    expect(login.searchParams.get("client_id")).toBe(registered.client_id);
    // A tampered query is not the request that was signed.
    const tampered = new URLSearchParams(login.search);
    tampered.set("redirect_uri", "https://evil.example/callback");
    const refused = await browser.post("/sign-in/email", { email, password });
    expect(refused.status).toBe(200);
    const tamperedRes = await browser.get(`/oauth2/authorize?${tampered}`);
    expect(tamperedRes.headers.get("location")).not.toContain("evil.example");
    // The genuine query after signing in: prompt=login is answered by that sign-in, on to consent.
    const back = await browser.get(`/oauth2/authorize${login.search}`);
    expect(new URL(back.headers.get("location")!).pathname).toBe("/consent");
    // As better-auth's client does it: the sign-in posted with oauth_query answers where to go next.
    await browser.post("/sign-out", {});
    const signedIn = await browser.post("/sign-in/email", { email, password, oauth_query: login.search.slice(1) });
    expect(signedIn.body).toMatchObject({ redirect: true, token: expect.any(String) });
    expect(new URL(signedIn.body.url).pathname).toBe("/consent");
    // A forged query does not continue (and does not stop the sign-in).
    const forgedSignIn = await browser.post("/sign-in/email", { email, password, oauth_query: tampered.toString() });
    expect([forgedSignIn.status, forgedSignIn.body.url]).toEqual([200, undefined]);
    // Or POST /oauth2/continue with the query the login page got.
    const continued = await browser.post("/oauth2/continue", { created: true, oauth_query: login.search.slice(1) });
    expect(new URL(continued.body.url).pathname).toBe("/consent");
    const forged = await browser.post("/oauth2/continue", { oauth_query: tampered.toString() });
    expect([forged.status, forged.body.code]).toEqual([400, "OAUTH_QUERY_INVALID"]);
    // Without the signature, prompt=login asks again.
    const unsigned = await browser.get(request.url);
    expect(new URL(unsigned.headers.get("location")!).pathname).toBe("/sign-in");
  });

  it("max_age: a sign-in older than asked sends the user to sign in again; auth_time says when", async () => {
    const { browser, registered } = await codeFlow();
    server.clock.advance(120);
    const stale = await browser.get((await authorizationURL(registered.client_id, { max_age: "60" })).url);
    expect(new URL(stale.headers.get("location")!).pathname).toBe("/sign-in");
    const silent = await browser.get(
      (await authorizationURL(registered.client_id, { max_age: "60", prompt: "none" })).url,
    );
    expect(new URL(silent.headers.get("location")!).searchParams.get("error")).toBe("login_required");
    const request = await authorizationURL(registered.client_id, { max_age: "600" });
    const fresh = new URL((await browser.get(request.url)).headers.get("location")!);
    expect(fresh.searchParams.get("code")).toBeTruthy();
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      rpClient(registered),
      await exchange(registered, fresh, request),
      { expectedNonce: request.nonce, maxAge: 600 },
    );
    expect(oauth.getValidatedIdTokenClaims(tokens)!.auth_time).toBeTypeOf("number");
  });

  it("audits consent, every token issue, revocation and withdrawn consent", async () => {
    const { browser, user, registered, request, callback } = await codeFlow();
    await exchange(registered, callback, request);
    // A second authorization (consent remembered) to revoke afterwards.
    const second = await authorizationURL(registered.client_id);
    const back = new URL((await browser.get(second.url)).headers.get("location")!);
    const again = { request: second, response: await exchange(registered, back, second) };
    const entries = await server.auth.database.db
      .selectFrom("auditTrail")
      .select(["action", "outcome", "subjectId", "details"])
      .where("subjectId", "=", user.id)
      .where("action", "like", "oauth.%")
      .orderBy("seq")
      .execute();
    expect(entries.map((entry) => [entry.action, entry.outcome])).toEqual([
      ["oauth.client_created", "success"],
      ["oauth.consent_granted", "success"],
      ["oauth.token_issued", "success"],
      ["oauth.token_issued", "success"],
    ]);
    expect(JSON.parse(entries[2]!.details!)).toMatchObject({
      clientId: registered.client_id,
      grantType: "authorization_code",
    });
    // Revoking the token and withdrawing the consent are recorded too.
    const tokens = await oauth.processAuthorizationCodeResponse(as, rpClient(registered), again.response, {
      expectedNonce: again.request.nonce,
    });
    const auth = oauth.ClientSecretBasic(registered.client_secret!);
    await oauth.revocationRequest(as, rpClient(registered), auth, tokens.refresh_token!, insecure);
    const consents = (await browser.get("/oauth2/get-consents")).body;
    await browser.post("/oauth2/delete-consent", { id: consents[0].id });
    const later = await server.auth.database.db
      .selectFrom("auditTrail")
      .select(["action", "outcome"])
      .where("subjectId", "=", user.id)
      .where("action", "in", ["oauth.token_revoked", "oauth.consent_revoked"])
      .orderBy("seq")
      .execute();
    expect(later).toEqual([
      { action: "oauth.token_revoked", outcome: "success" },
      { action: "oauth.consent_revoked", outcome: "success" },
    ]);
  });

  it("prompt=none without a session answers login_required to the client, with state and iss", async () => {
    const { browser } = await signUp(server);
    const registered = await register(browser);
    const request = await authorizationURL(registered.client_id, { prompt: "none" });
    const res = await server.browser().get(request.url);
    const location = new URL(res.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      error: "login_required",
      state: request.state,
      iss: issuer,
    });
  });

  it("never redirects to an unregistered URI, refuses plain PKCE and a public client without PKCE", async () => {
    const { browser } = await signUp(server);
    const registered = await register(browser);
    const open = await browser.get(
      (await authorizationURL(registered.client_id, { redirect_uri: `${REDIRECT}/../evil` })).url,
    );
    expect(new URL(open.headers.get("location")!).pathname).toBe("/api/auth/error");
    const prefix = await browser.get(
      (await authorizationURL(registered.client_id, { redirect_uri: `${REDIRECT}x` })).url,
    );
    expect(prefix.headers.get("location")).not.toContain("callbackx");

    const plain = await browser.get(
      (await authorizationURL(registered.client_id, { code_challenge_method: "plain" })).url,
    );
    expect(new URL(plain.headers.get("location")!).searchParams.get("error")).toBe("invalid_request");

    const pub = await register(browser, { token_endpoint_auth_method: "none" });
    expect(pub.client_secret).toBeUndefined();
    const url = new URL((await authorizationURL(pub.client_id)).url);
    url.searchParams.delete("code_challenge");
    url.searchParams.delete("code_challenge_method");
    const noPkce = await browser.get(url.toString());
    expect(new URL(noPkce.headers.get("location")!).searchParams.get("error")).toBe("invalid_request");
  });

  it("client credentials: a machine token bound to the resource indicator; openid is not for machines", async () => {
    const { browser } = await signUp(server);
    const registered = await register(browser, { grant_types: ["client_credentials"], redirect_uris: [] });
    const client = rpClient(registered);
    const auth = oauth.ClientSecretBasic(registered.client_secret!);
    const tokens = await oauth.processClientCredentialsResponse(
      as,
      client,
      await oauth.clientCredentialsGrantRequest(as, client, auth, { resource: API }, insecure),
    );
    const { payload } = await jwtVerify(tokens.access_token, createRemoteJWKSet(new URL(as.jwks_uri!)), {
      issuer,
      audience: API,
    });
    expect(payload.sub).toBe(registered.client_id);
    const foreign = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      auth,
      { resource: "https://elsewhere.example" },
      insecure,
    );
    expect((await foreign.json()).error).toBe("invalid_target");
    const wrongSecret = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic("nope"),
      {},
      insecure,
    );
    expect([wrongSecret.status, (await wrongSecret.json()).error]).toEqual([401, "invalid_client"]);
  });

  it("MCP: a resource server with the helper publishes RFC 9728 metadata and accepts only its own live tokens", async () => {
    const { browser } = await signUp(server);
    const machine = await register(browser, { grant_types: ["client_credentials"], redirect_uris: [] });
    const introspector = await register(browser, { grant_types: ["client_credentials"], redirect_uris: [] });
    const resourceServer = createResourceServer({
      resource: `${API}/mcp`,
      issuer,
      scopesSupported: ["openid"],
      introspection: { clientId: introspector.client_id, clientSecret: introspector.client_secret! },
    });
    const http = createServer(async (req, res) => {
      if (req.url === resourceServer.metadataPath) {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(resourceServer.metadata()));
        return;
      }
      try {
        const claims = await resourceServer.verify({ headers: req.headers });
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ sub: claims.sub }));
      } catch (error) {
        if (!(error instanceof BearerError)) throw error;
        res.writeHead(error.status, { "www-authenticate": error.challenge }).end();
      }
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    try {
      expect(resourceServer.metadataPath).toBe("/.well-known/oauth-protected-resource/mcp");
      const metadata = await (await fetch(`${base}${resourceServer.metadataPath}`)).json();
      expect(metadata).toMatchObject({ resource: `${API}/mcp`, authorization_servers: [issuer] });
      const call = (token?: string) =>
        fetch(`${base}/mcp`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      const bare = await call();
      expect(bare.status).toBe(401);
      expect(bare.headers.get("www-authenticate")).toContain(
        `resource_metadata="${API}/.well-known/oauth-protected-resource/mcp"`,
      );
      const client = rpClient(machine);
      const auth = oauth.ClientSecretBasic(machine.client_secret!);
      const tokenFor = async (resource: string) =>
        (
          await oauth.processClientCredentialsResponse(
            as,
            client,
            await oauth.clientCredentialsGrantRequest(as, client, auth, { resource }, insecure),
          )
        ).access_token;
      // Another resource's token is not this one's.
      expect((await call(await tokenFor(API))).status).toBe(401);
      const token = await tokenFor(`${API}/mcp`);
      const ok = await call(token);
      expect([ok.status, (await ok.json()).sub]).toEqual([200, machine.client_id]);
      // Revoked: refused at once (the helper introspects), though the JWT has not expired.
      expect((await oauth.revocationRequest(as, client, auth, token, insecure)).status).toBe(200);
      const revoked = await call(token);
      expect(revoked.status).toBe(401);
      expect(revoked.headers.get("www-authenticate")).toContain('error="invalid_token"');
      // The provider's own metadata, as a resource (its UserInfo).
      expect((await browser.get("/.well-known/oauth-protected-resource")).body).toMatchObject({
        resource: issuer,
        authorization_servers: [issuer],
      });
    } finally {
      await new Promise((resolve) => http.close(resolve));
    }
  });

  it("device authorization (RFC 8628): pending, slow_down, approval on the app's page, tokens once", async () => {
    const { browser, user } = await signUp(server);
    const registered = await register(browser, {
      token_endpoint_auth_method: "none",
      grant_types: ["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"],
      redirect_uris: [],
    });
    const client: oauth.Client = {
      client_id: registered.client_id,
      token_endpoint_auth_method: "none",
      id_token_signed_response_alg: "EdDSA",
    };
    expect(as.device_authorization_endpoint).toBe(`${issuer}/device/code`);
    const device = await oauth.processDeviceAuthorizationResponse(
      as,
      client,
      await oauth.deviceAuthorizationRequest(as, client, oauth.None(), { scope: "openid offline_access" }, insecure),
    );
    expect(device.user_code).toMatch(/^[B-Z]{4}-[B-Z]{4}$/);
    expect(device.verification_uri).toBe(`${server.origin}/device`);
    expect(device.interval).toBe(5);
    const poll = () => oauth.deviceCodeGrantRequest(as, client, oauth.None(), device.device_code, insecure);
    const errorOf = async (res: Response) => [res.status, (await res.json()).error];
    expect(await errorOf(await poll())).toEqual([400, "authorization_pending"]);
    // Again at once: too fast, and the interval grows.
    expect(await errorOf(await poll())).toEqual([400, "slow_down"]);
    server.clock.advance(11);

    // The app's device page: what is asked, then the user's approval (codes are typed in any case).
    const typed = device.user_code.toLowerCase().replace("-", " ");
    const shown = await browser.get(`/device?user_code=${encodeURIComponent(typed)}`);
    expect(shown.body).toMatchObject({
      status: "pending",
      client_id: registered.client_id,
      scope: "openid offline_access",
    });
    const wrong = await browser.post("/device/approve", { userCode: "BBBB-BBBB" });
    expect([wrong.status, wrong.body.code]).toEqual([400, "OAUTH_USER_CODE_INVALID"]);
    expect((await browser.post("/device/approve", { userCode: typed })).status).toBe(200);
    expect((await browser.post("/device/deny", { userCode: typed })).status).toBe(400);

    const tokens = await oauth.processDeviceCodeResponse(as, client, await poll());
    expect(oauth.getValidatedIdTokenClaims(tokens)!.sub).toBe(user.id);
    expect(tokens.refresh_token).toBeDefined();
    server.clock.advance(11);
    expect(await errorOf(await poll())).toEqual([400, "invalid_grant"]);

    // Denied, and expired.
    const denied = await oauth.processDeviceAuthorizationResponse(
      as,
      client,
      await oauth.deviceAuthorizationRequest(as, client, oauth.None(), {}, insecure),
    );
    expect((await browser.post("/device/deny", { userCode: denied.user_code })).status).toBe(200);
    await server.sealAudit();
    const denial = await server.auth.database.db
      .selectFrom("auditTrail")
      .select("details")
      .where("action", "=", "oauth.device_denied")
      .where("outcome", "=", "success")
      .execute();
    // Written with the answer (a success no transaction recorded would say `unchanged`).
    const mine = denial.map((e) => JSON.parse(e.details ?? "{}")).filter((d) => d.clientId === registered.client_id);
    expect(mine).toHaveLength(1);
    expect(mine[0].unchanged).toBeUndefined();
    const deniedPoll = await oauth.deviceCodeGrantRequest(as, client, oauth.None(), denied.device_code, insecure);
    expect(await errorOf(deniedPoll)).toEqual([400, "access_denied"]);
    server.clock.advance(1801);
    const expiredPoll = await oauth.deviceCodeGrantRequest(as, client, oauth.None(), denied.device_code, insecure);
    expect(await errorOf(expiredPoll)).toEqual([400, "expired_token"]);
  });

  it("keeps client secrets, codes and refresh tokens as digests only", async () => {
    const { registered, request, callback } = await codeFlow();
    const tokens = await (await exchange(registered, callback, request)).json();
    const { db } = server.auth.database;
    const client = await db
      .selectFrom("oauthClient")
      .selectAll()
      .where("clientId", "=", registered.client_id)
      .executeTakeFirstOrThrow();
    expect(client.clientSecretHash).not.toBe(registered.client_secret);
    expect(JSON.stringify(await db.selectFrom("oauthCode").selectAll().execute())).not.toContain(
      callback.searchParams.get("code"),
    );
    expect(JSON.stringify(await db.selectFrom("oauthRefreshToken").selectAll().execute())).not.toContain(
      tokens.refresh_token,
    );
  });

  it("public-client shows any signed-in user a client's name, home page and logo, and nothing more", async () => {
    const { browser: owner } = await signUp(server);
    const registered = await register(owner, {
      client_name: "Shown App",
      client_uri: "https://app.example/",
      logo_uri: "https://app.example/logo.png",
    });
    const { browser: stranger } = await signUp(server);
    const seen = await stranger.get(`/oauth2/public-client?client_id=${registered.client_id}`);
    expect([seen.status, seen.body]).toEqual([
      200,
      {
        client_id: registered.client_id,
        client_name: "Shown App",
        client_uri: "https://app.example/",
        logo_uri: "https://app.example/logo.png",
      },
    ]);
    const signedOut = await server.browser().get(`/oauth2/public-client?client_id=${registered.client_id}`);
    expect(signedOut.status).toBe(401);
    const unknown = await stranger.get("/oauth2/public-client?client_id=nope");
    expect([unknown.status, unknown.body.code]).toEqual([404, "OAUTH_CLIENT_NOT_FOUND"]);
    const missing = await stranger.get("/oauth2/public-client");
    expect(missing.status).toBe(400);
    // A disabled client is as good as gone.
    await owner.post("/oauth2/update-client", { client_id: registered.client_id, update: { disabled: true } });
    const disabled = await stranger.get(`/oauth2/public-client?client_id=${registered.client_id}`);
    expect([disabled.status, disabled.body.code]).toEqual([404, "OAUTH_CLIENT_NOT_FOUND"]);
  });

  it("an organization's clients are managed by its owners only", async () => {
    const { browser: owner } = await signUp(server);
    const org = await owner.post("/organization/create", { name: "Acme", slug: `acme-${Date.now()}` });
    expect(org.status).toBe(200);
    const registered = await register(owner, { organizationId: org.body.id });
    const { browser: stranger } = await signUp(server);
    const seen = await stranger.get(`/oauth2/get-client?client_id=${registered.client_id}`);
    expect([seen.status, seen.body.code]).toEqual([404, "OAUTH_CLIENT_NOT_FOUND"]);
    const byStranger = await stranger.post("/oauth2/create-client", {
      client_name: "x",
      redirect_uris: [REDIRECT],
      organizationId: org.body.id,
    });
    expect([byStranger.status, byStranger.body.code]).toEqual([403, "OAUTH_CLIENT_ACCESS_DENIED"]);
    const trusted = await owner.post("/oauth2/create-client", {
      client_name: "x",
      redirect_uris: [REDIRECT],
      skip_consent: true,
    });
    expect([trusted.status, trusted.body.code]).toEqual([403, "OAUTH_TRUSTED_CLIENT_SERVER_ONLY"]);
    const listed = await owner.get(`/oauth2/get-clients?organizationId=${org.body.id}`);
    expect(listed.body.map((c: Registered) => c.client_id)).toEqual([registered.client_id]);
    expect(listed.body[0].client_secret).toBeUndefined();
    // The organization's client outlives its creator's account.
    const { db } = server.auth.database;
    const creator = (await owner.get("/get-session")).body.user.id;
    await db.deleteFrom("user").where("id", "=", creator).execute();
    const kept = await db.selectFrom("oauthClient").selectAll().where("clientId", "=", registered.client_id).execute();
    expect(kept.map((row) => [row.organizationId, row.userId, row.createdBy])).toEqual([[org.body.id, null, null]]);
  });

  it(`exchanges a code once under ${PARALLEL_REQUESTS} parallel requests (${dialectUnderTest()})`, async () => {
    const { registered, request, callback } = await codeFlow();
    const basic = Buffer.from(`${registered.client_id}:${registered.client_secret}`).toString("base64");
    const burst = (code: string) => {
      const body = new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: REDIRECT,
        code_verifier: request.verifier,
      });
      return Promise.all(
        Array.from({ length: PARALLEL_REQUESTS }, () =>
          fetch(as.token_endpoint!, {
            method: "POST",
            headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
            body,
          }).then((res) => res.status),
        ),
      );
    };
    // Opens the connections the burst rides on, so its requests arrive together.
    await burst("not-a-code");
    const statuses = await burst(callback.searchParams.get("code")!);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 400)).toHaveLength(PARALLEL_REQUESTS - 1);
  });

  it("answers bad input with a 4xx and an RFC error, never a 500", async () => {
    const { browser } = await signUp(server);
    const registered = await register(browser);
    const basic = `Basic ${Buffer.from(`${registered.client_id}:${registered.client_secret}`).toString("base64")}`;
    const cases: [string, Parameters<typeof browser.request>[1]][] = [
      [
        "/oauth2/token",
        { method: "POST", body: { grant_type: ["authorization_code"] }, headers: { authorization: basic } },
      ],
      ["/oauth2/token", { method: "POST", body: { client_id: 42 } }],
      [
        "/oauth2/token",
        {
          method: "POST",
          body: "grant_type=refresh_token&grant_type=x",
          headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" },
        },
      ],
      [
        "/oauth2/token",
        { form: { grant_type: "authorization_code", code: "x".repeat(5000) }, headers: { authorization: basic } },
      ],
      [
        "/oauth2/token",
        { form: { grant_type: "urn:ietf:params:oauth:grant-type:device_code" }, headers: { authorization: basic } },
      ],
      [
        "/oauth2/token",
        { form: { grant_type: "password", username: "a", password: "b" }, headers: { authorization: basic } },
      ],
      ["/oauth2/token", { form: { grant_type: "client_credentials" }, headers: { authorization: "Basic !!!" } }],
      [
        "/oauth2/token",
        {
          form: { grant_type: "client_credentials" },
          headers: { authorization: `Basic ${Buffer.from("%zz:%zz").toString("base64")}` },
        },
      ],
      ["/oauth2/introspect", { form: {}, headers: { authorization: basic } }],
      ["/oauth2/introspect", { form: { token: "a.b.c" } }],
      ["/oauth2/revoke", { form: {}, headers: { authorization: basic } }],
      ["/oauth2/userinfo", { headers: { authorization: "Bearer not.a.jwt" } }],
      ["/oauth2/consent", { method: "POST", body: { accept: true, oauth_query: "sig=x&ba_param=sig" } }],
      ["/oauth2/consent", { method: "POST", body: { accept: "yes", oauth_query: 1 } }],
      ["/oauth2/continue", { method: "POST", body: { oauth_query: "%%%" } }],
      ["/oauth2/end-session?id_token_hint=x.y.z", {}],
      ["/oauth2/authorize?client_id=x&client_id=y", {}],
      [
        `/oauth2/authorize?client_id=${registered.client_id}&redirect_uri=${encodeURIComponent(REDIRECT)}&max_age=-1&response_type=code`,
        {},
      ],
      ["/oauth2/authorize?sig=x&ba_param=sig&ba_iat=1", {}],
      ["/device?user_code=", {}],
      ["/device/approve", { method: "POST", body: { userCode: "!!!!" } }],
      ["/oauth2/create-client", { method: "POST", body: { client_name: "x", redirect_uris: ["javascript:alert(1)"] } }],
      ["/oauth2/update-client", { method: "POST", body: { client_id: "nope", update: {} } }],
      ["/oauth2/register", { method: "POST", body: [] }],
    ];
    for (const [path, options] of cases) {
      const res = await browser.request(path, options);
      expect([path, res.status < 500]).toEqual([path, true]);
      if (res.status >= 400 && path.startsWith("/oauth2/token")) expect(res.body.error, path).toBeTypeOf("string");
    }
  });

  // Last: it moves the clock a month on.
  it("housekeeping prunes codes, refresh tokens and grants once nothing they issued can be used", async () => {
    const old = await codeFlow();
    await exchange(old.registered, old.callback, old.request);
    server.clock.advance(31 * 86400);
    const live = await codeFlow();
    const tokens = await (await exchange(live.registered, live.callback, live.request)).json();
    const swept = await sweepExpired(server.auth.context);
    expect(swept!.oauth).toBeGreaterThan(0);
    const { db } = server.auth.database;
    const grants = await db.selectFrom("oauthGrant").select("clientId").execute();
    expect(grants).toEqual([{ clientId: live.registered.client_id }]);
    expect(await db.selectFrom("oauthRefreshToken").select("grantId").execute()).toHaveLength(1);
    const client = rpClient(live.registered);
    const refreshed = await oauth.refreshTokenGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(live.registered.client_secret!),
      tokens.refresh_token,
      insecure,
    );
    expect(refreshed.status).toBe(200);
  });
});

describe("dynamic client registration (RFC 7591)", () => {
  let server: TestServer;
  afterAll(() => server?.close());

  it("is off by default, and when on lets a public client register and sign a user in with PKCE", async () => {
    server = await startTestServer({
      options: {
        oauthProvider: {
          enabled: true,
          consentPage: "/consent",
          allowDynamicClientRegistration: true,
          allowUnauthenticatedClientRegistration: true,
        },
      },
    });
    const issuer = new URL(`${server.origin}/api/auth`);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...insecure }),
    );
    expect(as.registration_endpoint).toBe(`${issuer}/oauth2/register`);
    const badUri = await oauth.dynamicClientRegistrationRequest(
      as,
      { redirect_uris: ["http://rp.example/callback"], client_name: "x", token_endpoint_auth_method: "none" },
      insecure,
    );
    expect([badUri.status, (await badUri.json()).error]).toEqual([400, "invalid_redirect_uri"]);
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        {
          redirect_uris: [REDIRECT],
          client_name: "An MCP client",
          token_endpoint_auth_method: "none",
          grant_types: ["authorization_code", "refresh_token"],
          software_id: "ignored-by-the-server",
        },
        insecure,
      ),
    );
    expect(registered.client_secret).toBeUndefined();
    const client: oauth.Client = {
      client_id: registered.client_id,
      id_token_signed_response_alg: "EdDSA",
      token_endpoint_auth_method: "none",
    };

    const { browser } = await signUp(server);
    const verifier = oauth.generateRandomCodeVerifier();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      response_type: "code",
      scope: "openid offline_access",
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    }).toString();
    const { callback } = await allowAtConsent(browser, url.toString());
    const params = oauth.validateAuthResponse(as, client, callback, oauth.expectNoState);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, insecure),
    );
    expect(tokens.refresh_token).toBeDefined();
    expect(server.loggedErrors).toEqual([]);
  });

  it("answers access_denied while switched off", async () => {
    const off = await startTestServer({ options: { oauthProvider: { enabled: true } } });
    try {
      const res = await off.browser().post("/oauth2/register", { redirect_uris: [REDIRECT], client_name: "x" });
      expect([res.status, res.body.error]).toEqual([403, "access_denied"]);
      expect(await off.auth.database.db.selectFrom("oauthClient").select("id").execute()).toEqual([]);
    } finally {
      await off.close();
    }
  });
});

describe("rate limits", () => {
  it("limit the token and introspection endpoints per client IP; registration is in the credential class", async () => {
    const limited = await startTestServer({
      options: {
        oauthProvider: {
          enabled: true,
          allowDynamicClientRegistration: true,
          allowUnauthenticatedClientRegistration: true,
        },
        rateLimit: { enabled: true, window: 60, max: 5 },
      },
    });
    try {
      const browser = limited.browser();
      const form = { grant_type: "client_credentials", client_id: "nobody", client_secret: "x" };
      const token = [];
      for (let i = 0; i < 6; i++) token.push((await browser.request("/oauth2/token", { form })).status);
      expect(token).toEqual([401, 401, 401, 401, 401, 429]);
      const introspect = [];
      for (let i = 0; i < 6; i++) {
        introspect.push((await browser.request("/oauth2/introspect", { form: { token: "x", ...form } })).status);
      }
      expect(introspect.at(-1)).toBe(429);
      const register = [];
      for (let i = 0; i < 4; i++) {
        register.push((await browser.post("/oauth2/register", { client_name: "x", redirect_uris: [REDIRECT] })).status);
      }
      expect(register).toEqual([201, 201, 201, 429]);
    } finally {
      await limited.close();
    }
  });
});

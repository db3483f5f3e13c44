import { createRemoteJWKSet, importJWK, jwtVerify } from "jose";
import * as client from "openid-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { allowAtConsent } from "./helpers/oauth-consent.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/*
 * The provider driven by panva's openid-client (v6) as the relying party, and the checks of the
 * OpenID Foundation's Basic, Config and RP-initiated logout profiles that can be reproduced here
 * (docs/oauth-provider.md, "Conformance checks", maps them).
 */

const REDIRECT = "https://rp.example/callback";
const BYE = "https://rp.example/bye";
const OPTIONS = { oauthProvider: { enabled: true, loginPage: "/sign-in", consentPage: "/consent" } };

// Every check under each algorithm the key set may have: EdDSA (the default) and RS256, which
// OpenID Connect Core 15.1 asks an OP to offer (jwt.jwks.keyPairConfig.alg).
describe.each([
  ["EdDSA", OPTIONS],
  ["RS256", { ...OPTIONS, jwt: { jwks: { keyPairConfig: { alg: "RS256" } } } }],
] as const)(
  "OAuth 2.1 and OpenID provider, with openid-client as the relying party, ID tokens signed %s",
  (alg, options) => {
    let server: TestServer;
    let issuer: string;

    beforeAll(async () => {
      server = await startTestServer({ options });
      issuer = `${server.origin}/api/auth`;
    });
    afterAll(() => server.close());
    afterEach(() => expect(server.loggedErrors).toEqual([]));

    /** A signed-in user, a confidential client of theirs, and openid-client configured by discovery. */
    async function relyingParty() {
      const { browser, user } = await signUp(server);
      const res = await browser.post("/oauth2/create-client", {
        client_name: "openid-client RP",
        redirect_uris: [REDIRECT],
        post_logout_redirect_uris: [BYE],
        grant_types: ["authorization_code", "refresh_token"],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const config = await client.discovery(new URL(issuer), res.body.client_id, res.body.client_secret, undefined, {
        execute: [client.allowInsecureRequests],
      });
      return { browser, user, config };
    }

    async function authorizationRequest(config: client.Configuration, extra: Record<string, string> = {}) {
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT,
        scope: "openid profile email offline_access",
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
        state,
        nonce,
        ...extra,
      });
      return { url, verifier, state, nonce };
    }

    /** The browser through authorize and the consent page, to the callback URL carrying the code. */
    async function signInAndConsent(browser: Awaited<ReturnType<typeof relyingParty>>["browser"], url: URL) {
      const { consent, callback } = await allowAtConsent(browser, url.href);
      expect(`${consent.origin}${consent.pathname}`).toBe(`${server.origin}/consent`);
      return callback;
    }

    async function tokensFor(rp: Awaited<ReturnType<typeof relyingParty>>) {
      const request = await authorizationRequest(rp.config);
      const callback = await signInAndConsent(rp.browser, request.url);
      const tokens = await client.authorizationCodeGrant(rp.config, callback, {
        pkceCodeVerifier: request.verifier,
        expectedState: request.state,
        expectedNonce: request.nonce,
        idTokenExpected: true,
      });
      return { request, callback, tokens };
    }

    /** Runs `act` and returns what it threw, failing the test if it did not throw. */
    async function thrown(act: () => Promise<unknown>): Promise<any> {
      try {
        await act();
      } catch (error) {
        return error;
      }
      throw new Error("expected a refusal");
    }

    it("code + PKCE: ID token checked by the RP, UserInfo, refresh, introspection, revocation", async () => {
      const rp = await relyingParty();
      const { tokens } = await tokensFor(rp);
      expect(tokens.claims()).toMatchObject({
        iss: issuer,
        sub: rp.user.id,
        aud: rp.config.clientMetadata().client_id,
        email: rp.user.email,
      });
      // Signed with the configured algorithm, by a key the published set holds.
      const jwks = createRemoteJWKSet(new URL(rp.config.serverMetadata().jwks_uri!));
      const idToken = await jwtVerify(tokens.id_token!, jwks, {
        issuer,
        audience: rp.config.clientMetadata().client_id,
      });
      expect(idToken.protectedHeader.alg).toBe(alg);
      expect((await jwtVerify(tokens.access_token, jwks, { issuer })).protectedHeader.alg).toBe(alg);
      const info = await client.fetchUserInfo(rp.config, tokens.access_token, rp.user.id);
      expect(info).toMatchObject({ sub: rp.user.id, email: rp.user.email, name: rp.user.name });
      // UserInfo naming another subject is refused by the RP (the check is live).
      await thrown(() => client.fetchUserInfo(rp.config, tokens.access_token, "someone-else"));

      const refreshed = await client.refreshTokenGrant(rp.config, tokens.refresh_token!);
      expect(refreshed.refresh_token).toBeDefined();
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
      const active = await client.tokenIntrospection(rp.config, refreshed.access_token);
      expect(active).toMatchObject({ active: true, sub: rp.user.id, client_id: rp.config.clientMetadata().client_id });

      await client.tokenRevocation(rp.config, refreshed.refresh_token!);
      expect((await client.tokenIntrospection(rp.config, refreshed.access_token)).active).toBe(false);
      const afterRevocation = await thrown(() => client.refreshTokenGrant(rp.config, refreshed.refresh_token!));
      expect(afterRevocation).toBeInstanceOf(client.ResponseBodyError);
      expect(afterRevocation.error).toBe("invalid_grant");
    });

    it("rotates refresh tokens: the one used is refused afterwards", async () => {
      const rp = await relyingParty();
      const { tokens } = await tokensFor(rp);
      const refreshed = await client.refreshTokenGrant(rp.config, tokens.refresh_token!);
      expect(refreshed.claims()?.sub).toBe(rp.user.id);
      const replay = await thrown(() => client.refreshTokenGrant(rp.config, tokens.refresh_token!));
      expect(replay).toBeInstanceOf(client.ResponseBodyError);
      expect(replay.error).toBe("invalid_grant");
    });

    it("Config: discovery has the required fields, the issuer is its URL, the keys verify", async () => {
      const rp = await relyingParty();
      const metadata = rp.config.serverMetadata();
      expect(metadata.issuer).toBe(issuer);
      expect(metadata.response_types_supported).toContain("code");
      expect(metadata.subject_types_supported).toContain("public");
      expect(metadata.id_token_signing_alg_values_supported).toEqual([alg]);
      expect(metadata.scopes_supported).toContain("openid");
      for (const endpoint of ["authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri"] as const) {
        expect(new URL(metadata[endpoint]!).href.startsWith(`${issuer}/`), endpoint).toBe(true);
      }
      const jwks = await (await fetch(metadata.jwks_uri!)).json();
      expect(jwks.keys.length).toBeGreaterThan(0);
      for (const key of jwks.keys) {
        expect(key.d, "no private part published").toBeUndefined();
        expect(metadata.id_token_signing_alg_values_supported).toContain(key.alg);
        await importJWK(key, key.alg);
      }
    });

    it("Basic: iss in the authorization response (RFC 9207), and the RP refuses a missing or wrong one", async () => {
      const rp = await relyingParty();
      expect(rp.config.serverMetadata().authorization_response_iss_parameter_supported).toBe(true);
      const request = await authorizationRequest(rp.config);
      const callback = await signInAndConsent(rp.browser, request.url);
      expect(callback.searchParams.get("iss")).toBe(issuer);
      const checks = { pkceCodeVerifier: request.verifier, expectedState: request.state, expectedNonce: request.nonce };
      for (const iss of [null, "https://other.example"]) {
        const forged = new URL(callback);
        if (iss === null) forged.searchParams.delete("iss");
        else forged.searchParams.set("iss", iss);
        const refusal = await thrown(() => client.authorizationCodeGrant(rp.config, forged, checks));
        expect(refusal.code).toBe("OAUTH_INVALID_RESPONSE");
        expect(refusal.cause.message).toMatch(/"iss"/);
      }
      // The genuine response still redeems (the forged ones never reached the token endpoint).
      const tokens = await client.authorizationCodeGrant(rp.config, callback, checks);
      expect(tokens.claims()?.nonce).toBe(request.nonce);
    });

    it("Basic: the RP refuses an ID token whose nonce is not the one it sent", async () => {
      const rp = await relyingParty();
      const request = await authorizationRequest(rp.config);
      const callback = await signInAndConsent(rp.browser, request.url);
      const refusal = await thrown(() =>
        client.authorizationCodeGrant(rp.config, callback, {
          pkceCodeVerifier: request.verifier,
          expectedState: request.state,
          expectedNonce: client.randomNonce(),
        }),
      );
      expect(refusal.code).toBe("OAUTH_JWT_CLAIM_COMPARISON_FAILED");
      expect(refusal.cause.cause.claim).toBe("nonce");
    });

    it("Basic: a code used twice is refused with invalid_grant", async () => {
      const rp = await relyingParty();
      const { request, callback } = await tokensFor(rp);
      const again = await thrown(() =>
        client.authorizationCodeGrant(rp.config, callback, {
          pkceCodeVerifier: request.verifier,
          expectedState: request.state,
          expectedNonce: request.nonce,
        }),
      );
      expect(again).toBeInstanceOf(client.ResponseBodyError);
      expect(again.error).toBe("invalid_grant");
    });

    it("Basic: state comes back unchanged, and the RP refuses a response with another state", async () => {
      const rp = await relyingParty();
      const request = await authorizationRequest(rp.config);
      const callback = await signInAndConsent(rp.browser, request.url);
      expect(callback.searchParams.get("state")).toBe(request.state);
      const refusal = await thrown(() =>
        client.authorizationCodeGrant(rp.config, callback, {
          pkceCodeVerifier: request.verifier,
          expectedState: client.randomState(),
          expectedNonce: request.nonce,
        }),
      );
      expect(refusal.code).toBe("OAUTH_INVALID_RESPONSE");
      expect(refusal.cause.message).toMatch(/"state"/);
    });

    it("Basic: client_secret_post, scope openid alone (no profile claims, no refresh token), unknown parameters ignored", async () => {
      const { browser, user } = await signUp(server);
      const res = await browser.post("/oauth2/create-client", {
        client_name: "openid-client RP, secret in the body",
        redirect_uris: [REDIRECT],
        grant_types: ["authorization_code", "refresh_token"],
        token_endpoint_auth_method: "client_secret_post",
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const config = await client.discovery(
        new URL(issuer),
        res.body.client_id,
        undefined,
        client.ClientSecretPost(res.body.client_secret),
        { execute: [client.allowInsecureRequests] },
      );
      const request = await authorizationRequest(config, { scope: "openid", not_understood: "ignored" });
      const tokens = await client.authorizationCodeGrant(config, await signInAndConsent(browser, request.url), {
        pkceCodeVerifier: request.verifier,
        expectedState: request.state,
        expectedNonce: request.nonce,
        idTokenExpected: true,
      });
      expect(tokens.refresh_token).toBeUndefined();
      expect(tokens.claims()?.sub).toBe(user.id);
      expect(tokens.claims()?.email).toBeUndefined();
      const info = await client.fetchUserInfo(config, tokens.access_token, user.id);
      expect(info.email).toBeUndefined();
      expect(info.name).toBeUndefined();
    });

    it("Basic: a redirect_uri not registered is answered here, never redirected to", async () => {
      const rp = await relyingParty();
      const request = await authorizationRequest(rp.config, { redirect_uri: "https://rp.example/other" });
      const res = await rp.browser.get(request.url.href);
      const location = new URL(res.headers.get("location")!);
      expect(`${location.origin}${location.pathname}`).toBe(`${issuer}/error`);
      expect(location.href).not.toContain("rp.example");
    });

    it("Basic: prompt=none without a session answers login_required to the client", async () => {
      const rp = await relyingParty();
      const request = await authorizationRequest(rp.config, { prompt: "none" });
      const res = await server.browser().get(request.url.href);
      const callback = new URL(res.headers.get("location")!);
      expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
      const refusal = await thrown(() =>
        client.authorizationCodeGrant(rp.config, callback, {
          pkceCodeVerifier: request.verifier,
          expectedState: request.state,
          expectedNonce: request.nonce,
        }),
      );
      expect(refusal).toBeInstanceOf(client.AuthorizationResponseError);
      expect(refusal.error).toBe("login_required");
    });

    it("Basic: prompt=none with a session, consent given and id_token_hint: a code, no page", async () => {
      const rp = await relyingParty();
      const first = await tokensFor(rp);
      const request = await authorizationRequest(rp.config, { prompt: "none", id_token_hint: first.tokens.id_token! });
      const res = await rp.browser.get(request.url.href);
      const callback = new URL(res.headers.get("location")!);
      expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
      const tokens = await client.authorizationCodeGrant(rp.config, callback, {
        pkceCodeVerifier: request.verifier,
        expectedState: request.state,
        expectedNonce: request.nonce,
        idTokenExpected: true,
      });
      expect(tokens.claims()?.sub).toBe(first.tokens.claims()?.sub);
    });

    it("Basic: max_age=0 sends a signed-in user to sign in again; prompt=login does too", async () => {
      const rp = await relyingParty();
      server.clock.advance(1);
      for (const extra of [{ max_age: "0" }, { prompt: "login" }] as Record<string, string>[]) {
        const request = await authorizationRequest(rp.config, extra);
        const res = await rp.browser.get(request.url.href);
        const location = new URL(res.headers.get("location")!);
        expect(`${location.origin}${location.pathname}`, JSON.stringify(extra)).toBe(`${server.origin}/sign-in`);
      }
    });

    it("Basic/Config: request objects are refused with the OpenID errors, and discovery says so", async () => {
      const rp = await relyingParty();
      const metadata = rp.config.serverMetadata();
      // Discovery 1.0 section 3: request_uri_parameter_supported defaults to true when omitted.
      expect(metadata.request_uri_parameter_supported).toBe(false);
      expect(metadata.request_parameter_supported ?? false).toBe(false);
      for (const [param, error] of [
        ["request", "request_not_supported"],
        ["request_uri", "request_uri_not_supported"],
      ] as const) {
        // Beside the plain parameters (openid-client's builder then adds no response_type of its own).
        const { url } = await authorizationRequest(rp.config);
        url.searchParams.set(param, "https://rp.example/request.jwt");
        const res = await rp.browser.get(url.href);
        const callback = new URL(res.headers.get("location")!);
        expect(`${callback.origin}${callback.pathname}`, param).toBe(REDIRECT);
        expect(callback.searchParams.get("error"), param).toBe(error);
      }
    });

    /** The form a form_post answer page holds: its action and hidden fields, as a browser would POST them. */
    function postedForm(page: { status: number; headers: Headers; body: string }): Request {
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toContain("text/html");
      expect(page.headers.get("cache-control")).toBe("no-store");
      expect(page.headers.get("content-security-policy")).toContain("form-action https://rp.example");
      const action = /<form method="post" action="([^"]+)">/.exec(page.body)?.[1];
      const fields = new URLSearchParams();
      for (const [, name, value] of page.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
        fields.set(
          name!,
          value!.replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code))),
        );
      }
      return new Request(action!, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: fields,
      });
    }

    it("Form Post: the code comes back in an auto-submitted form the RP reads; errors too", async () => {
      const rp = await relyingParty();
      expect(rp.config.serverMetadata().response_modes_supported).toContain("form_post");
      const request = await authorizationRequest(rp.config, { response_mode: "form_post" });
      const toConsent = await rp.browser.get(request.url.href);
      const consentPage = new URL(toConsent.headers.get("location")!);
      const answer = await rp.browser.post("/oauth2/consent", {
        accept: true,
        oauth_query: consentPage.search.slice(1),
      });
      // The consent page's next URL is the authorization endpoint again: only a loaded page can POST.
      const next = new URL(answer.body.url);
      expect(`${next.origin}${next.pathname}`).toBe(`${issuer}/oauth2/authorize`);
      const posted = postedForm(await rp.browser.get(next.href));
      expect(posted.url).toBe(REDIRECT);
      const tokens = await client.authorizationCodeGrant(rp.config, posted, {
        pkceCodeVerifier: request.verifier,
        expectedState: request.state,
        expectedNonce: request.nonce,
        idTokenExpected: true,
      });
      expect(tokens.claims()?.sub).toBe(rp.user.id);
      // Consented before: the authorization endpoint answers with the form at once; no code in a URL.
      const again = await authorizationRequest(rp.config, { response_mode: "form_post" });
      const direct = await rp.browser.get(again.url.href);
      expect(direct.headers.get("location")).toBeNull();
      const fields = new URLSearchParams(await postedForm(direct).text());
      expect([fields.get("state"), fields.get("iss"), fields.has("code")]).toEqual([again.state, issuer, true]);

      // A denial, and prompt=none without a session, are POSTed as errors the RP sees.
      const denied = await authorizationRequest(rp.config, { response_mode: "form_post", prompt: "consent" });
      const deniedConsent = new URL((await rp.browser.get(denied.url.href)).headers.get("location")!);
      const refusal = await rp.browser.post("/oauth2/consent", {
        accept: false,
        oauth_query: deniedConsent.search.slice(1),
      });
      const deniedPost = postedForm(await rp.browser.get(refusal.body.url));
      await expect(
        client.authorizationCodeGrant(rp.config, deniedPost, {
          pkceCodeVerifier: denied.verifier,
          expectedState: denied.state,
        }),
      ).rejects.toMatchObject({ error: "access_denied" });
      const silent = await authorizationRequest(rp.config, { response_mode: "form_post", prompt: "none" });
      const stranger = server.browser();
      const loginRequired = new URLSearchParams(await postedForm(await stranger.get(silent.url.href)).text());
      expect([loginRequired.get("error"), loginRequired.get("state")]).toEqual(["login_required", silent.state]);
      // An unknown mode is answered in the query.
      const odd = await authorizationRequest(rp.config, { response_mode: "fragment" });
      const oddAnswer = new URL((await rp.browser.get(odd.url.href)).headers.get("location")!);
      expect(oddAnswer.searchParams.get("error")).toBe("invalid_request");
    });

    it("RP-initiated logout: the end-session URL the RP builds signs the user out and returns with state", async () => {
      const rp = await relyingParty();
      const { tokens } = await tokensFor(rp);
      const url = client.buildEndSessionUrl(rp.config, {
        id_token_hint: tokens.id_token!,
        post_logout_redirect_uri: BYE,
        state: "logout-state",
      });
      expect(url.href.startsWith(`${issuer}/oauth2/end-session?`)).toBe(true);
      expect((await rp.browser.get("/get-session")).body).not.toBeNull();
      const res = await rp.browser.get(url.href);
      expect(res.headers.get("location")).toBe(`${BYE}?state=logout-state`);
      expect((await rp.browser.get("/get-session")).body).toBeNull();
    });
  },
);

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createLocalJWKSet, decodeJwt, type JSONWebKeySet, jwtVerify } from "jose";
import * as client from "openid-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestBrowser } from "./helpers/browser.js";
import { allowAtConsent } from "./helpers/oauth-consent.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/*
 * OpenID Connect Back-Channel Logout 1.0: a relying party (openid-client) registers a
 * backchannel_logout_uri on a loopback receiver; when the session its tokens came from ends
 * (sign-out, revocation, RP-initiated logout) the receiver gets a logout token it verifies with
 * jose against the provider's key set, naming the `sid` the ID token carried. Delivery is after the
 * request, retried.
 */

const REDIRECT = "https://rp.example/callback";
const BYE = "https://rp.example/bye";
const EVENT = "http://schemas.openid.net/event/backchannel-logout";

/** A loopback receiver recording each POST's logout_token; it answers `status`, and may hold answers. */
async function startReceiver() {
  const tokens: string[] = [];
  const state = { status: 200, hold: null as Promise<void> | null, calls: 0 };
  const http: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", async () => {
      state.calls++;
      if (state.hold) await state.hold;
      const form = new URLSearchParams(body);
      const ok = req.headers["content-type"] === "application/x-www-form-urlencoded" && form.has("logout_token");
      if (ok && state.status === 200) tokens.push(form.get("logout_token")!);
      res.writeHead(ok ? state.status : 400).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/backchannel`;
  return { http, url, tokens, state };
}

describe("Back-channel logout", () => {
  let server: TestServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let issuer: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startTestServer({
      shareable: true,
      options: {
        oauthProvider: { enabled: true, loginPage: "/sign-in", consentPage: "/consent", allowPrivateUrls: true },
        user: { deleteUser: { enabled: true } },
      },
      extra: { webhookDelivery: { retryBaseMs: 1000 } },
    });
    issuer = `${server.origin}/api/auth`;
  });
  afterAll(async () => {
    await new Promise((resolve) => receiver?.http.close(resolve));
    await server?.close();
  });
  afterEach(() => expect(server.loggedErrors).toEqual([]));

  /** A client of the signed-in user's (with a back-channel URI unless told), and its tokens for that session. */
  async function signedInRP(browser: TestBrowser, backchannel: string | null = receiver.url, metadata: object = {}) {
    const res = await browser.post("/oauth2/create-client", {
      client_name: "Back-channel RP",
      redirect_uris: [REDIRECT],
      post_logout_redirect_uris: [BYE],
      grant_types: ["authorization_code", "refresh_token"],
      ...(backchannel ? { backchannel_logout_uri: backchannel } : {}),
      ...metadata,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const config = await client.discovery(new URL(issuer), res.body.client_id, res.body.client_secret, undefined, {
      execute: [client.allowInsecureRequests],
    });
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: "openid",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    });
    const { callback } = await allowAtConsent(browser, url.href);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      idTokenExpected: true,
    });
    return { config, clientId: res.body.client_id as string, tokens, sid: tokens.claims()!.sid as string };
  }

  /** The logout tokens received since `from`, verified as a relying party would (section 2.6). */
  async function verifiedSince(from: number, audience: string) {
    const jwks = (await server.browser().get("/jwks")).body as JSONWebKeySet;
    return Promise.all(
      receiver.tokens.slice(from).map(async (token) => {
        const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks), {
          issuer,
          audience,
          typ: "logout+jwt",
          maxTokenAge: "2 minutes",
          currentDate: server.clock.now(),
        });
        expect(payload.events).toEqual({ [EVENT]: {} });
        expect(payload.nonce).toBeUndefined();
        expect(typeof payload.jti).toBe("string");
        expect(protectedHeader.alg).toBe("EdDSA");
        return payload;
      }),
    );
  }

  it("discovery and the ID token say so; sign-out sends a logout token naming the session, verified with jose", async () => {
    const { browser, user } = await signUp(server);
    const rp = await signedInRP(browser);
    expect(rp.config.serverMetadata()).toMatchObject({
      backchannel_logout_supported: true,
      backchannel_logout_session_supported: true,
    });
    expect(rp.sid).toBeTruthy();
    const other = await signedInRP(browser, null);
    const from = receiver.tokens.length;
    expect((await browser.post("/sign-out", {})).status).toBe(200);
    await server.settled();
    const payloads = await verifiedSince(from, rp.clientId);
    expect(payloads).toHaveLength(1);
    expect(payloads[0]).toMatchObject({ sub: user.id, sid: rp.sid, aud: rp.clientId });
    // The client without a URI was told nothing (the one token went to the other's audience).
    expect(decodeJwt(receiver.tokens.at(-1)!).aud).not.toBe(other.clientId);
  });

  it("revoking a session from another tells the client of that session only; RP-initiated logout too", async () => {
    const { browser, email, password } = await signUp(server);
    const first = await signedInRP(browser);
    const second = server.browser();
    const signIn = await second.post("/sign-in/email", { email, password });
    expect(signIn.status).toBe(200);
    const secondRp = await signedInRP(second);
    expect(secondRp.sid).not.toBe(first.sid);

    const from = receiver.tokens.length;
    const sessions = (await second.get("/list-sessions")).body as { token: string; current?: boolean }[];
    const firstSession = sessions.find((s) => !s.current)!;
    expect((await second.post("/revoke-session", { token: firstSession.token })).status).toBe(200);
    await server.settled();
    expect((await verifiedSince(from, first.clientId)).map((p) => p.sid)).toEqual([first.sid]);

    const afterRevoke = receiver.tokens.length;
    const logout = client.buildEndSessionUrl(secondRp.config, {
      id_token_hint: secondRp.tokens.id_token!,
      post_logout_redirect_uri: BYE,
    });
    expect((await second.get(logout.href)).headers.get("location")).toBe(BYE);
    await server.settled();
    expect((await verifiedSince(afterRevoke, secondRp.clientId)).map((p) => p.sid)).toEqual([secondRp.sid]);
  });

  it("never holds up the sign-out, and retries a receiver that failed", async () => {
    const { browser } = await signUp(server);
    const rp = await signedInRP(browser);
    const from = receiver.tokens.length;
    let release!: () => void;
    receiver.state.hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    receiver.state.status = 503;
    const calls = receiver.state.calls;
    // The sign-out answers while the receiver is still holding its answer back.
    expect((await browser.post("/sign-out", {})).status).toBe(200);
    const flushed = server.settled();
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    receiver.state.hold = null;
    await flushed;
    expect(receiver.state.calls).toBe(calls + 1);
    expect(receiver.tokens.length).toBe(from);
    // Due again after the backoff: a fresh token, accepted this time.
    receiver.state.status = 200;
    server.clock.advance(2);
    await server.settled();
    const payloads = await verifiedSince(from, rp.clientId);
    expect(payloads.map((p) => p.sid)).toEqual([rp.sid]);
    const rows = await server.auth.database.db
      .selectFrom("oauthLogoutDelivery")
      .select(["attempts", "deliveredAt", "lastError"])
      .where("clientId", "=", rp.clientId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(Number(rows[0]!.attempts)).toBe(1);
    expect(rows[0]!.deliveredAt).not.toBeNull();
    server.loggedErrors.length = 0;
  });

  it("deleting the account tells the clients of its sessions", async () => {
    const { browser, user, password } = await signUp(server);
    const rp = await signedInRP(browser);
    // The client must outlive the account to be told: an organization's would; a personal one goes
    // with it, so this one is moved to a second user who keeps it.
    const keeper = await signUp(server);
    await server.auth.database.db
      .updateTable("oauthClient")
      .set({ userId: keeper.user.id, createdBy: keeper.user.id })
      .where("clientId", "=", rp.clientId)
      .execute();
    const from = receiver.tokens.length;
    expect((await browser.post("/delete-user", { password })).status).toBe(200);
    await server.settled();
    const payloads = await verifiedSince(from, rp.clientId);
    expect(payloads.map((p) => [p.sub, p.sid])).toEqual([[user.id, rp.sid]]);
  });

  it("two instances flushing at once send each logout token once", async () => {
    const { browser } = await signUp(server);
    const rp = await signedInRP(browser);
    const second = await startTestServer({
      shareDatabaseWith: server,
      options: { oauthProvider: { enabled: true, allowPrivateUrls: true } },
    });
    try {
      const from = receiver.tokens.length;
      const calls = receiver.state.calls;
      // Hold the answer so both workers are busy at once, each having read the row as due.
      let release!: () => void;
      receiver.state.hold = new Promise<void>((resolve) => {
        release = resolve;
      });
      expect((await browser.post("/sign-out", {})).status).toBe(200);
      const both = Promise.all([server.settled(), second.settled()]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      release();
      receiver.state.hold = null;
      await both;
      expect(receiver.state.calls - calls).toBe(1);
      expect((await verifiedSince(from, rp.clientId)).map((p) => p.sid)).toEqual([rp.sid]);
    } finally {
      await second.close();
    }
  });

  it("a back-channel URI must be https to a public host unless private URLs are allowed", async () => {
    const strict = await startTestServer({ options: { oauthProvider: { enabled: true } } });
    try {
      const { browser } = await signUp(strict);
      const refused = await browser.post("/oauth2/create-client", {
        client_name: "x",
        redirect_uris: [REDIRECT],
        backchannel_logout_uri: receiver.url,
      });
      expect([refused.status, refused.body.code]).toEqual([400, "OAUTH_INVALID_CLIENT_METADATA"]);
    } finally {
      await strict.close();
    }
  });

  describe("Front-channel logout", () => {
    const FRONT = "https://rp.example/frontchannel?from=op";

    it("end-session frames the session's clients with iss and sid, ends the session, and goes on", async () => {
      const { browser } = await signUp(server);
      const rp = await signedInRP(browser, null, { frontchannel_logout_uri: FRONT });
      expect(rp.config.serverMetadata()).toMatchObject({
        frontchannel_logout_supported: true,
        frontchannel_logout_session_supported: true,
      });
      expect(rp.config.clientMetadata().client_id).toBe(rp.clientId);
      const described = await browser.get(`/oauth2/get-client?client_id=${rp.clientId}`);
      expect(described.body).toMatchObject({
        frontchannel_logout_uri: FRONT,
        frontchannel_logout_session_required: true,
      });
      // A client of the same session without a front-channel URI is not framed.
      await signedInRP(browser, null);

      const logout = client.buildEndSessionUrl(rp.config, {
        id_token_hint: rp.tokens.id_token!,
        post_logout_redirect_uri: BYE,
        state: "s1",
      });
      const page = await browser.get(logout.href);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toContain("text/html");
      const html = page.body as string;
      const frames = [...html.matchAll(/<iframe[^>]* src="([^"]+)"/g)].map(
        (m) => new URL(m[1]!.replaceAll("&amp;", "&")),
      );
      expect(frames).toHaveLength(1);
      // A framed page may not take over the window it is framed in.
      expect(html).toMatch(/<iframe[^>]* sandbox="allow-scripts allow-same-origin"/);
      expect(`${frames[0]!.origin}${frames[0]!.pathname}`).toBe("https://rp.example/frontchannel");
      expect(Object.fromEntries(frames[0]!.searchParams)).toEqual({ from: "op", iss: issuer, sid: rp.sid });
      expect(html).toContain(`data-next="${BYE}?state=s1"`);
      const csp = page.headers.get("content-security-policy")!;
      expect(csp).toContain("frame-src https://rp.example;");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(page.headers.get("cache-control")).toBe("no-store");
      // The session ended, its cookies cleared on this page as on the redirect.
      expect(page.setCookies.some((cookie) => /session_token=;/.test(cookie))).toBe(true);
      expect((await browser.get("/get-session")).body).toBeNull();
    });

    it("a hint for someone else frames nothing and signs no one out", async () => {
      const { browser } = await signUp(server);
      const rp = await signedInRP(browser, null, { frontchannel_logout_uri: FRONT });
      const stranger = await signUp(server);
      const logout = client.buildEndSessionUrl(rp.config, {
        id_token_hint: rp.tokens.id_token!,
        post_logout_redirect_uri: BYE,
      });
      const answer = await stranger.browser.get(logout.href);
      expect([answer.status, answer.headers.get("location")]).toEqual([302, BYE]);
      expect((await stranger.browser.get("/get-session")).body).not.toBeNull();
    });

    it("the URI must have the scheme, host and port of a redirect URI, on create and on update", async () => {
      const { browser } = await signUp(server);
      const refused = await browser.post("/oauth2/create-client", {
        client_name: "x",
        redirect_uris: [REDIRECT],
        frontchannel_logout_uri: "https://elsewhere.example/logout",
      });
      expect([refused.status, refused.body.code]).toEqual([400, "OAUTH_INVALID_CLIENT_METADATA"]);
      const made = await browser.post("/oauth2/create-client", {
        client_name: "x",
        redirect_uris: [REDIRECT],
        frontchannel_logout_uri: FRONT,
      });
      expect(made.status).toBe(201);
      const moved = await browser.post("/oauth2/update-client", {
        client_id: made.body.client_id,
        update: { redirect_uris: ["https://moved.example/callback"] },
      });
      expect([moved.status, moved.body.code]).toEqual([400, "OAUTH_INVALID_CLIENT_METADATA"]);
      const cleared = await browser.post("/oauth2/update-client", {
        client_id: made.body.client_id,
        update: { redirect_uris: ["https://moved.example/callback"], frontchannel_logout_uri: null },
      });
      expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
      expect(cleared.body.frontchannel_logout_uri).toBeUndefined();
    });
  });
});

import * as client from "openid-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BearerError, createResourceServer } from "../src/server/resource-server.js";
import { allowAtConsent } from "./helpers/oauth-consent.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/*
 * Opaque access tokens on request (a client's access_token_format): random strings whose digest the
 * server keeps; introspection and UserInfo read them as they read JWTs, revocation and expiry end them.
 */

const REDIRECT = "https://rp.example/callback";
const API = "https://api.example.com/mcp";

describe("Opaque access tokens", () => {
  let server: TestServer;
  let issuer: string;

  beforeAll(async () => {
    server = await startTestServer({
      options: {
        oauthProvider: { enabled: true, loginPage: "/sign-in", consentPage: "/consent", validAudiences: [API] },
      },
    });
    issuer = `${server.origin}/api/auth`;
  });
  afterAll(() => server?.close());
  afterEach(() => expect(server.loggedErrors).toEqual([]));

  it("code flow: an opaque token UserInfo accepts and introspection describes; revocation and expiry end it", async () => {
    const { browser, user } = await signUp(server);
    const created = await browser.post("/oauth2/create-client", {
      client_name: "Opaque RP",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      access_token_format: "opaque",
    });
    expect([created.status, created.body.access_token_format]).toEqual([201, "opaque"]);
    const config = await client.discovery(
      new URL(issuer),
      created.body.client_id,
      created.body.client_secret,
      undefined,
      {
        execute: [client.allowInsecureRequests],
      },
    );
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: "openid email",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    });
    const { callback } = await allowAtConsent(browser, url.href);
    // openid-client checks the ID token's at_hash against the opaque token, as for a JWT.
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      idTokenExpected: true,
    });
    expect(tokens.access_token).toMatch(/^[\w-]{43}$/);
    const info = await client.fetchUserInfo(config, tokens.access_token, user.id);
    expect(info.email).toBe(user.email);
    const described = await client.tokenIntrospection(config, tokens.access_token);
    expect(described).toMatchObject({
      active: true,
      client_id: created.body.client_id,
      sub: user.id,
      scope: "openid email",
    });
    // The digest only is stored.
    const rows = await server.auth.database.db.selectFrom("oauthAccessToken").select("tokenHash").execute();
    expect(rows.map((row) => row.tokenHash)).not.toContain(tokens.access_token);

    await client.tokenRevocation(config, tokens.access_token);
    expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    await expect(client.fetchUserInfo(config, tokens.access_token, user.id)).rejects.toBeDefined();
  });

  it("client credentials: opaque tokens expire with their lifetime; a JWT client is unchanged", async () => {
    const { browser } = await signUp(server);
    const machine = await browser.post("/oauth2/create-client", {
      client_name: "machine",
      grant_types: ["client_credentials"],
      redirect_uris: [],
      access_token_format: "opaque",
    });
    const jwtClient = await browser.post("/oauth2/create-client", {
      client_name: "jwt machine",
      grant_types: ["client_credentials"],
      redirect_uris: [],
    });
    expect(jwtClient.body.access_token_format).toBe("jwt");
    const token = async (registered: { client_id: string; client_secret: string }) => {
      const res = await browser.request("/oauth2/token", {
        form: {
          grant_type: "client_credentials",
          client_id: registered.client_id,
          client_secret: registered.client_secret,
        },
      });
      expect(res.status).toBe(200);
      return res.body.access_token as string;
    };
    const introspect = async (value: string) =>
      (
        await browser.request("/oauth2/introspect", {
          form: { token: value, client_id: jwtClient.body.client_id, client_secret: jwtClient.body.client_secret },
        })
      ).body;
    const opaque = await token(machine.body);
    expect(opaque.includes(".")).toBe(false);
    expect((await token(jwtClient.body)).split(".")).toHaveLength(3);
    expect(await introspect(opaque)).toMatchObject({
      active: true,
      client_id: machine.body.client_id,
      sub: machine.body.client_id,
    });
    expect((await introspect("not-a-token")).active).toBe(false);
    server.clock.advance(3601);
    expect((await introspect(opaque)).active).toBe(false);
    // Switching the format back is a client update.
    const updated = await browser.post("/oauth2/update-client", {
      client_id: machine.body.client_id,
      update: { access_token_format: "jwt" },
    });
    expect(updated.body.access_token_format).toBe("jwt");
    expect((await token(machine.body)).split(".")).toHaveLength(3);
  });

  it("the resource-server helper reads an opaque token through introspection, for its own resource only", async () => {
    const { browser } = await signUp(server);
    const make = async (format?: string) =>
      (
        await browser.post("/oauth2/create-client", {
          client_name: "c",
          grant_types: ["client_credentials"],
          redirect_uris: [],
          ...(format ? { access_token_format: format } : {}),
        })
      ).body as { client_id: string; client_secret: string };
    const machine = await make("opaque");
    const introspector = await make();
    const token = async (resource?: string) =>
      (
        await browser.request("/oauth2/token", {
          form: {
            grant_type: "client_credentials",
            client_id: machine.client_id,
            client_secret: machine.client_secret,
            ...(resource ? { resource } : {}),
          },
        })
      ).body.access_token as string;
    const guarded = createResourceServer({
      resource: API,
      issuer,
      introspection: { clientId: introspector.client_id, clientSecret: introspector.client_secret },
    });
    const bearer = (value: string) => ({ headers: { authorization: `Bearer ${value}` } });
    const forApi = await token(API);
    expect(await guarded.verify(bearer(forApi))).toMatchObject({
      sub: machine.client_id,
      client_id: machine.client_id,
    });
    // A token for another audience (the issuer), and one without introspection configured, are refused.
    await expect(guarded.verify(bearer(await token()))).rejects.toBeInstanceOf(BearerError);
    const offline = createResourceServer({ resource: API, issuer });
    await expect(offline.verify(bearer(forApi))).rejects.toBeInstanceOf(BearerError);
    // Revoked: refused at once.
    await browser.request("/oauth2/revoke", {
      form: { token: forApi, client_id: machine.client_id, client_secret: machine.client_secret },
    });
    await expect(guarded.verify(bearer(forApi))).rejects.toMatchObject({ status: 401, error: "invalid_token" });
  });
});

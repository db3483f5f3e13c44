import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/*
 * CORS for browser-based clients on other origins (oauthProvider.corsOrigins): a listed origin may
 * read the token, UserInfo and revocation answers (and discovery and the key set), preflight
 * included; any other origin gets no Access-Control-Allow-Origin, and credentials are never allowed.
 */

const SPA = "https://spa.example";

describe("CORS on the OAuth endpoints for configured origins", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ options: { oauthProvider: { enabled: true, corsOrigins: [SPA] } } });
  });
  afterAll(() => server?.close());
  afterEach(() => expect(server.loggedErrors).toEqual([]));

  it("answers a listed origin's preflight and requests, and nobody else's", async () => {
    const { browser } = await signUp(server);
    const created = await browser.post("/oauth2/create-client", {
      client_name: "machine",
      grant_types: ["client_credentials"],
      redirect_uris: [],
    });
    const basic = `Basic ${Buffer.from(`${created.body.client_id}:${created.body.client_secret}`).toString("base64")}`;
    const api = `${server.origin}/api/auth`;

    const preflight = await fetch(`${api}/oauth2/userinfo`, {
      method: "OPTIONS",
      headers: {
        origin: SPA,
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(SPA);
    expect(preflight.headers.get("access-control-allow-headers")).toContain("authorization");
    expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();

    const token = await fetch(`${api}/oauth2/token`, {
      method: "POST",
      headers: { origin: SPA, authorization: basic, "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    });
    expect(token.status).toBe(200);
    expect(token.headers.get("access-control-allow-origin")).toBe(SPA);
    const { access_token } = (await token.json()) as { access_token: string };

    const revoke = await fetch(`${api}/oauth2/revoke`, {
      method: "POST",
      headers: { origin: SPA, authorization: basic, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: access_token }),
    });
    expect([revoke.status, revoke.headers.get("access-control-allow-origin")]).toEqual([200, SPA]);
    const discovery = await fetch(`${api}/.well-known/openid-configuration`, { headers: { origin: SPA } });
    expect(discovery.headers.get("access-control-allow-origin")).toBe(SPA);

    // Another origin: the answer comes (CORS is the browser's to enforce) but names no origin.
    const stranger = await fetch(`${api}/oauth2/token`, {
      method: "POST",
      headers: {
        origin: "https://evil.example",
        authorization: basic,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "grant_type=client_credentials",
    });
    expect(stranger.headers.get("access-control-allow-origin")).toBeNull();
    // Endpoints outside the list get nothing, even from the listed origin.
    const session = await fetch(`${api}/get-session`, { headers: { origin: SPA } });
    expect(session.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("refuses an option that is not an origin", async () => {
    await expect(
      startTestServer({ options: { oauthProvider: { enabled: true, corsOrigins: ["https://spa.example/app"] } } }),
    ).rejects.toThrow(/corsOrigins/);
  });
});

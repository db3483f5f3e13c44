import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allEndpoints } from "../src/contract/endpoints/index.js";
import { EVERY_FEATURE_ON, signUp, startTestServer, type TestServer } from "./helpers/server.js";

const key = (method: string, path: string) => `${method} ${path}`;

function routedEndpoints(server: TestServer): string[] {
  const base = server.auth.context.basePath;
  // A page's security-header middleware is listed beside its handler: count each endpoint once.
  const routes = server.auth.app.routes.filter((route) => route.method !== "ALL");
  return [...new Set(routes.map((route) => key(route.method, route.path.slice(base.length))))].sort();
}

describe("the endpoint table", () => {
  let everything: TestServer;
  let fewer: TestServer;
  beforeAll(async () => {
    [everything, fewer] = await Promise.all([
      startTestServer({ options: EVERY_FEATURE_ON, extra: { mail: { devOutbox: true } } }),
      startTestServer({
        options: { admin: { enabled: false }, jwt: { enabled: false }, organization: { enabled: false } },
      }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([everything?.close(), fewer?.close()]);
  });

  it("names each endpoint once", () => {
    const keys = allEndpoints.map((endpoint) => key(endpoint.method, endpoint.path));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("is exactly what the server routes with every feature on", () => {
    const table = allEndpoints.map((endpoint) => key(endpoint.method, endpoint.path)).sort();
    const routed = routedEndpoints(everything);
    expect(
      routed.filter((entry) => !table.includes(entry)),
      "routed but not in the table",
    ).toEqual([]);
    expect(
      table.filter((entry) => !routed.includes(entry)),
      "in the table but not routed",
    ).toEqual([]);
    expect(routed).toEqual(table);
  });

  it("leaves out the endpoints of switched-off features: they answer like an unknown path", async () => {
    const routed = routedEndpoints(fewer);
    const switchedOff = (path: string) =>
      path.startsWith("/admin/") ||
      path.startsWith("/organization/") ||
      path.startsWith("/scim/") ||
      path === "/jwks" ||
      path === "/token";
    const expected = allEndpoints
      // Account deletion, two-factor, sign-in links, codes, passkeys, SSO, SCIM, setup links, security
      // activity, API keys and the OAuth provider are off by default; the development outbox is served
      // only when createAuth asks for it.
      .filter(
        (endpoint) =>
          !switchedOff(endpoint.path) &&
          ![
            "deleteUser",
            "twoFactor",
            "magicLink",
            "emailOTP",
            "passkey",
            "sso",
            "scim",
            "securityActivity",
            "apiKey",
            "oauthProvider",
            "developmentOutbox",
            // Setup links come with SSO or SCIM (and organizations).
            "setupLinks",
            "organizationWebhooks",
          ].includes(endpoint.policy.feature ?? ""),
      )
      .map((endpoint) => key(endpoint.method, endpoint.path))
      .sort();
    expect(routed).toEqual(expected);
    const { browser } = await signUp(fewer);
    for (const path of ["/token", "/organization/list", "/admin/list-users"]) {
      const res = await browser.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).toBeNull();
    }
  });
});

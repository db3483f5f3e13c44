import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type TestOidcProvider, startOidcProvider } from "./helpers/oidc.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { locationOf, providerOptions, socialFlow } from "./helpers/social.js";

let oidc: TestOidcProvider;
let server: TestServer;

beforeAll(async () => {
  oidc = await startOidcProvider();
  server = await startTestServer({
    options: {
      socialProviders: {
        oidc: providerOptions(oidc),
      },
    },
  });
  await oidc.configure([`${server.origin}/api/auth/callback/oidc`]);
});
afterAll(async () => {
  await server?.close();
  await oidc?.close();
});
afterEach(() => expect(server.loggedErrors).toEqual([]));

describe("redirect flow", () => {
  it("signs a new user up through the provider and redirects to newUserCallbackURL", async () => {
    const user = oidc.addUser();
    const browser = server.browser();
    const { start, callback } = await socialFlow(browser, oidc, user.sub, {
      body: { provider: "oidc", callbackURL: "/dash", newUserCallbackURL: "/welcome" },
    });
    expect(start.body.redirect).toBe(true);
    expect(callback.status).toBe(302);
    expect(callback.headers.get("location")).toBe("/welcome");
    const session = await browser.get("/get-session");
    expect(session.body.user).toMatchObject({ email: user.email, emailVerified: true, name: user.name });
  });
});

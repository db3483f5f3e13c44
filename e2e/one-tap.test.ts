import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOidcProvider, type TestOidcProvider } from "../test/helpers/oidc.js";
import { providerOptions } from "../test/helpers/social.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/**
 * Google one-tap in the browser. Google's script cannot load offline, so the test serves a stand-in
 * at its URL (failing the first two loads to exercise the retries); the credential it hands over is
 * a real ID token from a local OpenID provider that the google preset is pointed at.
 */
let oidc: TestOidcProvider;
// The provider starts first: the service's google preset is pointed at its address.
beforeAll(async () => {
  oidc = await startOidcProvider();
});
const e2e = setUpServiceAndBrowser(() => ({
  developmentOutbox: true,
  options: { socialProviders: { google: providerOptions(oidc) } },
}));
beforeAll(async () => {
  await oidc.configure([`${e2e.service.origin}/api/auth/callback/google`]);
});
afterAll(() => oidc?.close());

const GOOGLE_STAND_IN = `
window.google = { accounts: { id: {
  initialize(config) { window.__oneTap = config; },
  prompt() { window.__prompts = (window.__prompts || 0) + 1; },
  cancel() {},
} } };`;

describe("Google one-tap prompt", () => {
  it("retries the script, prompts, and signs in with the credential through /one-tap/callback", async () => {
    const user = oidc.addUser({ name: "Olive OneTap" });
    const context = await e2e.browser.newContext();
    let scriptLoads = 0;
    await context.route("https://accounts.google.com/gsi/client", (route) => {
      scriptLoads++;
      if (scriptLoads <= 2) return route.abort("connectionrefused");
      return route.fulfill({ status: 200, contentType: "text/javascript", body: GOOGLE_STAND_IN });
    });
    const page = await context.newPage();
    await page.goto(`${e2e.service.origin}/sign-in`);
    // Two failed loads (1 s and 2 s apart), then the prompt.
    await page.waitForFunction(() => (window as any).__prompts === 1, undefined, { timeout: 15_000 });
    expect(scriptLoads).toBe(3);
    expect(await page.evaluate(() => (window as any).__oneTap.client_id)).toBe(providerOptions(oidc).clientId);

    const credential = await oidc.idToken(user.sub);
    await page.evaluate((token) => (window as any).__oneTap.callback({ credential: token }), credential);
    await page.getByTestId("home-title").waitFor();
    expect(await page.getByTestId("home-title").textContent()).toBe("Welcome, Olive OneTap");
    await context.close();
  });

  it("never leaves the origin afterwards, whatever redirectTo says (the page's CSP on)", async () => {
    const user = oidc.addUser({ name: "Rita Redirect" });
    const context = await e2e.browser.newContext();
    await context.route("https://accounts.google.com/gsi/client", (route) =>
      route.fulfill({ status: 200, contentType: "text/javascript", body: GOOGLE_STAND_IN }),
    );
    const page = await context.newPage();
    const violations: string[] = [];
    page.on("console", (message) => {
      if (message.text().includes("Content Security Policy")) violations.push(message.text());
    });
    // A tab inside the path: the browser strips it, so "/\t/evil.example" would become "//evil.example".
    await page.goto(`${e2e.service.origin}/sign-in?redirectTo=${encodeURIComponent("/\t/evil.example/landing")}`);
    await page.waitForFunction(() => (window as any).__prompts === 1, undefined, { timeout: 15_000 });
    const credential = await oidc.idToken(user.sub);
    await page.evaluate((token) => (window as any).__oneTap.callback({ credential: token }), credential);
    await page.getByTestId("home-title").waitFor();
    expect(new URL(page.url()).origin).toBe(e2e.service.origin);
    expect(violations).toEqual([]);
    await context.close();
  });
});

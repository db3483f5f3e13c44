import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeAuthClient } from "../src/client/index.js";
import { CLIENT_ID, CLIENT_SECRET, startOidcProvider, type TestOidcProvider } from "../test/helpers/oidc.js";
import { seriousA11yViolations, signUpInBrowser } from "./helpers/browser.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/** Social sign-in in the browser against a real OpenID provider (oidc-provider on loopback). */
let oidc: TestOidcProvider;
// The provider starts first: the service's oidc provider is pointed at its issuer.
beforeAll(async () => {
  oidc = await startOidcProvider();
});
const e2e = setUpServiceAndBrowser(() => ({
  developmentOutbox: true,
  options: {
    socialProviders: { oidc: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, issuer: oidc.issuer } },
    // For the sign-in that starts on the OAuth provider's login page.
    oauthProvider: { enabled: true },
  },
}));
beforeAll(async () => {
  await oidc.configure([`${e2e.service.origin}/api/auth/callback/oidc`]);
});
afterAll(() => oidc?.close());

describe("social sign-in", () => {
  it("signs up through the provider, lands in the shell, and shows the linked account", async () => {
    const user = oidc.addUser({ name: "Sofia Social" });
    const page = await (await e2e.browser.newContext()).newPage();
    await page.goto(`${e2e.service.origin}/sign-in`);
    await page.getByTestId("sign-in-social-oidc").click();
    // The provider's login form (the test provider asks only for the subject).
    const login = page.locator('input[name="login"]');
    await login.waitFor();
    expect(page.url().startsWith(oidc.issuer)).toBe(true);
    await login.fill(user.sub);
    await login.press("Enter");
    await page.getByTestId("home-title").waitFor();
    expect(await page.getByTestId("home-title").textContent()).toBe("Welcome, Sofia Social");

    await page.goto(`${e2e.service.origin}/account/linked`);
    await expect.poll(() => page.getByTestId("account-row").count()).toBe(1);
    expect(await page.getByTestId("accounts-list").textContent()).toContain("Oidc");
    // A social-only user is offered a password through a mailed link, not a change form.
    await page.goto(`${e2e.service.origin}/account/security`);
    await page.getByTestId("set-password-submit").waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it("links the provider to a password account, then unlinks it", async () => {
    const email = `linker-${Date.now()}@example.com`;
    const providerUser = oidc.addUser({ email, name: "Lina Linker" });
    const page = await (await e2e.browser.newContext()).newPage();
    await signUpInBrowser(page, e2e.service.origin, { name: "Lina Linker", email, password: "correct horse battery" });
    await page.getByTestId("home-title").waitFor();
    await page.goto(`${e2e.service.origin}/account/linked`);
    await expect.poll(() => page.getByTestId("account-row").count()).toBe(1);
    await page.getByTestId("account-link-oidc").click();
    const login = page.locator('input[name="login"]');
    await login.waitFor();
    await login.fill(providerUser.sub);
    await login.press("Enter");
    await page.waitForURL(`${e2e.service.origin}/account/linked`);
    await expect.poll(() => page.getByTestId("account-row").count()).toBe(2);
    expect(await page.getByTestId("account-link-oidc").count()).toBe(0);

    await page.getByTestId("account-unlink-oidc").click();
    await expect.poll(() => page.getByTestId("account-row").count()).toBe(1);
    // The last way to sign in cannot be unlinked: the button is disabled.
    expect(await page.getByTestId("account-unlink-credential").isDisabled()).toBe(true);
  });

  it("continues as a guest, then keeps the work by creating an account", async () => {
    const page = await (await e2e.browser.newContext()).newPage();
    await page.goto(`${e2e.service.origin}/sign-in`);
    await page.getByTestId("sign-in-guest").click();
    await page.getByTestId("home-title").waitFor();
    expect(await page.getByTestId("shell-user").textContent()).toBe("Anonymous (guest)");
    // Work done as a guest: an organization.
    const slug = `guest-work-${Date.now()}`;
    await page.goto(`${e2e.service.origin}/organizations/new`);
    await page.getByTestId("org-create-name").fill("Guest Work");
    await page.getByTestId("org-create-slug").fill(slug);
    await page.getByTestId("org-create-submit").click();
    await page.waitForURL(/\/organization$/);

    // The account pages offer to save the account, not to verify a placeholder address.
    await page.goto(`${e2e.service.origin}/account`);
    await page.getByTestId("save-guest-card").waitFor();
    expect(await page.getByTestId("email-unverified").count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByTestId("save-guest-sign-up").click();
    await page.getByTestId("sign-up-name").fill("Gus Guest");
    await page.getByTestId("sign-up-email").fill(`gus-${Date.now()}@example.com`);
    await page.getByTestId("sign-up-password").fill("correct horse battery");
    await page.getByTestId("sign-up-submit").click();
    await expect.poll(() => page.getByTestId("shell-user").textContent()).toBe("Gus Guest");
    // The organization came along.
    const organizations = await page.evaluate(async () => (await fetch("/api/auth/organization/list")).json());
    expect(organizations.map((o: { slug: string }) => o.slug)).toContain(slug);
  });

  it("a sign-in started on the OAuth provider's login page comes back to the authorization request", async () => {
    const api = createNodeAuthClient({ baseURL: e2e.service.origin });
    await api.signUp.email({ name: "Dev", email: `dev-${Date.now()}@example.com`, password: "correct horse battery" });
    const redirect = "https://rp.example/callback";
    const made = await api.oauth2.createClient({ client_name: "Social RP", redirect_uris: [redirect] });
    const authorize = new URL(`${e2e.service.origin}/api/auth/oauth2/authorize`);
    authorize.search = new URLSearchParams({
      response_type: "code",
      client_id: made.data!.client_id,
      redirect_uri: redirect,
      scope: "openid",
      state: "s-123",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGKSsw6kyM",
      code_challenge_method: "S256",
    }).toString();
    const context = await e2e.browser.newContext();
    await context.route("https://rp.example/**", (route) => route.fulfill({ status: 200, body: "RP" }));
    const page = await context.newPage();
    await page.goto(authorize.href);
    await page.waitForURL(/\/sign-in\?.*sig=/);
    await page.getByTestId("sign-in-social-oidc").click();
    const login = page.locator('input[name="login"]');
    await login.waitFor();
    await login.fill(oidc.addUser({ name: "Olli OAuth" }).sub);
    await login.press("Enter");
    // The provider's callback goes on to the signed request, which the new session answers.
    await page.waitForURL(/\/oauth\/consent\?/);
    await page.getByTestId("oauth-consent-allow").click();
    await page.waitForURL(/^https:\/\/rp\.example\/callback\?/);
    const back = new URL(page.url()).searchParams;
    expect(back.get("state")).toBe("s-123");
    expect(back.get("code")).toBeTruthy();
    await context.close();
  });
});

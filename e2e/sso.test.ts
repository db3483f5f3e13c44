import * as relyingParty from "openid-client";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeAuthClient } from "../src/client/index.js";
import { translate } from "../src/i18n/index.js";
import { skipWithoutDnsServer, startDnsServer, type TestDnsServer } from "../test/helpers/dns.js";
import { CLIENT_ID, CLIENT_SECRET, startOidcProvider, type TestOidcProvider } from "../test/helpers/oidc.js";
import { seriousA11yViolations, signUpInBrowser } from "./helpers/browser.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/**
 * Enterprise SSO in the browser: an owner sets up a connection to a real OpenID provider
 * (oidc-provider on loopback) on the Connections screen, proves the domain against a real DNS server
 * (dnsmasq), and a person signs in with "Sign in with SSO" by work email.
 */
let oidc: TestOidcProvider;
let dns: TestDnsServer;
const PROVIDER_ID = "acme-e2e";
const DOMAIN = "acme-e2e.test";

skipWithoutDnsServer();

beforeAll(async () => {
  [oidc, dns] = await Promise.all([startOidcProvider(), startDnsServer()]);
});
const e2e = setUpServiceAndBrowser(() => ({
  developmentOutbox: true,
  // The provider runs on loopback, which an operator has to allow for connections.
  // The OAuth provider too: an app's sign-in can go through an SSO connection (the round trip below).
  options: {
    sso: { enabled: true, dnsResolvers: [dns.server], allowPrivateIssuers: true },
    oauthProvider: { enabled: true },
  },
}));
beforeAll(async () => {
  await oidc.configure([`${e2e.service.origin}/api/auth/sso/callback/${PROVIDER_ID}`]);
});
afterAll(async () => {
  await oidc?.close();
  await dns?.close();
});

async function createOrganizationInBrowser(page: Page, name: string, slug: string) {
  await page.goto(`${e2e.service.origin}/organizations/new`);
  await page.getByTestId("org-create-name").fill(name);
  await page.getByTestId("org-create-slug").fill(slug);
  await page.getByTestId("org-create-submit").click();
  await page.waitForURL(/\/organization$/);
}

/** The provider's login form (the test provider asks only for the subject). */
async function logInAtProvider(page: Page, sub: string) {
  const login = page.locator('input[name="login"]');
  await login.waitFor();
  expect(page.url().startsWith(oidc.issuer)).toBe(true);
  await login.fill(sub);
  await login.press("Enter");
}

describe("SSO connections and sign-in", () => {
  const slug = `acme-e2e-${Date.now()}`;

  it("an owner adds an OIDC connection, tests it, verifies its domain; a person signs in by work email", async () => {
    const owner = await (await e2e.browser.newContext()).newPage();
    await signUpInBrowser(owner, e2e.service.origin, {
      name: "Olga Owner",
      email: `olga-${Date.now()}@example.com`,
      password: "correct horse battery",
    });
    await owner.getByTestId("home-title").waitFor();
    await createOrganizationInBrowser(owner, "Acme E2E", slug);

    await owner.getByRole("link", { name: "Connections" }).click();
    await owner.waitForURL(/\/organization\/connections$/);
    await owner.getByTestId("connections-none").waitFor();
    await owner.getByTestId("connection-add-id").fill(PROVIDER_ID);
    // What the IdP admin registers is there before the connection is.
    const redirectURI = `${e2e.service.origin}/api/auth/sso/callback/${PROVIDER_ID}`;
    expect(await owner.getByTestId("connection-add-preview").textContent()).toContain(redirectURI);
    await owner.getByTestId("connection-add-domains").fill(DOMAIN);
    await owner.getByTestId("connection-add-issuer").fill(oidc.issuer);
    await owner.getByTestId("connection-add-client-id").fill(CLIENT_ID);
    await owner.getByTestId("connection-add-client-secret").fill(CLIENT_SECRET);
    await owner.getByTestId("connection-add-submit").click();

    const row = owner.getByTestId("connection-row");
    await row.waitFor();
    expect(await row.getByTestId("connection-redirect-uri").textContent()).toBe(redirectURI);
    expect(await row.getByTestId("connection-domain").getAttribute("data-verified")).toBe("false");
    expect(await owner.locator("body").textContent()).not.toContain(CLIENT_SECRET);

    await row.getByTestId("connection-test").click();
    await row.getByTestId("connection-test-ok").waitFor();

    // The TXT record shown goes into the real DNS server; Verify looks it up there.
    await row.getByTestId("connection-domain-show").click();
    const name = await row.getByTestId("domain-record-name").textContent();
    const value = await row.getByTestId("domain-record-value").textContent();
    expect(name).toBe(DOMAIN);
    await dns.setTxtRecords({ [name!]: [value!] });
    await row.getByTestId("connection-domain-verify").click();
    await row.getByTestId("connection-domains-verified").waitFor();
    await expect.poll(() => row.getByTestId("connection-domain").getAttribute("data-verified")).toBe("true");
    // Require SSO for the verified domain, the owner kept as break-glass (their address is elsewhere).
    const enforcement = owner.getByTestId("sso-enforcement-card");
    await enforcement.getByTestId("sso-require").check();
    await enforcement.getByRole("checkbox", { name: "Olga Owner may still sign in with a password" }).check();
    await enforcement.getByTestId("sso-enforcement-submit").click();
    await enforcement.getByTestId("sso-enforcement-saved").waitFor();
    const policy = await owner.evaluate(async () => (await fetch("/api/auth/organization/get-policy")).json());
    expect(policy.policy).toMatchObject({ requireSSO: true, breakGlassUserIds: [expect.any(String)] });
    expect(await seriousA11yViolations(owner)).toEqual([]);

    // No connection for a domain: said plainly, and nobody leaves the page.
    const person = oidc.addUser({ email: `wanda@${DOMAIN}`, name: "Wanda Worker" });
    const page = await (await e2e.browser.newContext()).newPage();
    await page.goto(`${e2e.service.origin}/sign-in`);
    await page.getByTestId("sign-in-sso").click();
    await page.getByTestId("sso-email").fill("nobody@elsewhere.test");
    await page.getByTestId("sso-submit").click();
    expect(await page.getByTestId("form-error").textContent()).toBe(translate("en", "error.SSO_NO_CONNECTION"));
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByTestId("sso-email").fill(person.email!);
    await page.getByTestId("sso-submit").click();
    await logInAtProvider(page, person.sub);
    await page.getByTestId("home-title").waitFor();
    expect(await page.getByTestId("home-title").textContent()).toBe("Welcome, Wanda Worker");
    // Joined the organization just in time, as a plain member.
    const organizations = await page.evaluate(async () => (await fetch("/api/auth/organization/list")).json());
    expect(organizations.map((o: { slug: string }) => o.slug)).toContain(slug);

    // A plain member gets no Connections entry, and the screen itself says it is not theirs.
    const organizationId = organizations.find((o: { slug: string }) => o.slug === slug).id;
    await page.evaluate(
      (id) =>
        fetch("/api/auth/organization/set-active", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ organizationId: id }),
        }),
      organizationId,
    );
    await page.goto(`${e2e.service.origin}/organization`);
    await page.getByTestId("org-settings-read-only").waitFor();
    expect(await page.getByRole("link", { name: "Connections" }).count()).toBe(0);
    await page.goto(`${e2e.service.origin}/organization/connections`);
    await page.getByTestId("connections-restricted").waitFor();
    expect(await page.getByTestId("connection-add-card").count()).toBe(0);
    const member = await page.evaluate(async () => (await fetch("/api/auth/organization/get-active-member")).json());
    expect(member.role).toBe("member");

    // The owner maps an IdP group to a role: a rule needs the claim it reads.
    await row.getByTestId("connection-edit").click();
    const roles = row.getByTestId("connection-roles");
    expect(await roles.getByTestId("connection-roles-default").inputValue()).toBe("member");
    await roles.getByTestId("connection-role-rule-add").click();
    await roles.getByTestId("connection-role-rule-value").fill("idp-admins");
    await roles.getByTestId("connection-role-rule-role").selectOption("admin");
    await row.getByTestId("connection-edit-submit").click();
    await roles.getByTestId("connection-roles-claim-error").waitFor();
    await roles.getByTestId("connection-roles-claim").fill("groups");
    expect(await seriousA11yViolations(owner)).toEqual([]);
    await row.getByTestId("connection-edit-submit").click();
    await row.getByTestId("connection-saved").waitFor();
    expect(await row.getByTestId("connection-roles-summary").textContent()).toBe(
      "New members join as Member, or by 1 rule on groups.",
    );
    const saved = await owner.evaluate(
      async (id) => (await fetch(`/api/auth/sso/get-provider?providerId=${id}`)).json(),
      PROVIDER_ID,
    );
    expect(saved).toMatchObject({
      defaultRole: "member",
      roleMapping: { claim: "groups", values: { "idp-admins": "admin" } },
    });
  });

  it("an OAuth app's sign-in through SSO: the login page's round trip comes back to consent with the signed request", async () => {
    // Needs the connection and verified domain the first test made.
    const REDIRECT = "https://rp.example/callback";
    const developer = createNodeAuthClient({ baseURL: e2e.service.origin });
    await developer.signUp.email({
      name: "Dev",
      email: `dev-${Date.now()}@example.com`,
      password: "correct horse battery",
    });
    const made = await developer.oauth2.createClient({ client_name: "Timesheets", redirect_uris: [REDIRECT] });
    const rp = await relyingParty.discovery(
      new URL(`${e2e.service.origin}/api/auth`),
      made.data!.client_id,
      made.data!.client_secret,
      undefined,
      { execute: [relyingParty.allowInsecureRequests] },
    );
    const verifier = relyingParty.randomPKCECodeVerifier();
    const state = relyingParty.randomState();
    const nonce = relyingParty.randomNonce();
    const url = relyingParty.buildAuthorizationUrl(rp, {
      redirect_uri: REDIRECT,
      scope: "openid email",
      code_challenge: await relyingParty.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
    });
    const person = oidc.addUser({ email: `otto@${DOMAIN}`, name: "Otto Oauth" });
    const context = await e2e.browser.newContext();
    await context.route("https://rp.example/**", (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>RP</title>" }),
    );
    const page = await context.newPage();
    await page.goto(url.href);
    await page.waitForURL(/\/sign-in\?.*sig=/);
    await page.getByTestId("sign-in-sso").click();
    await page.getByTestId("sso-email").fill(person.email!);
    await page.getByTestId("sso-submit").click();
    await logInAtProvider(page, person.sub);
    // Back from the provider through /oauth2/authorize with the signed request, on to consent.
    await page.waitForURL(/\/oauth\/consent\?.*sig=/);
    await expect.poll(() => page.getByTestId("oauth-client-name").textContent()).toBe("Timesheets");
    await page.getByTestId("oauth-consent-allow").click();
    await page.waitForURL(/^https:\/\/rp\.example\/callback\?/);
    const tokens = await relyingParty.authorizationCodeGrant(rp, new URL(page.url()), {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    expect(tokens.claims()).toMatchObject({ email: person.email, aud: made.data!.client_id });
  });

  it("German: the SSO button and the Connections screen speak it", async () => {
    const context = await e2e.browser.newContext({ locale: "de-DE" });
    const page = await context.newPage();
    await page.goto(`${e2e.service.origin}/sign-in`);
    expect(await page.getByTestId("sign-in-sso").textContent()).toBe("Mit SSO anmelden");
    await page.getByTestId("sign-in-sso").click();
    await page.getByTestId("sso-email").fill("niemand@nirgends.test");
    await page.getByTestId("sso-submit").click();
    expect(await page.getByTestId("form-error").textContent()).toBe(translate("de", "error.SSO_NO_CONNECTION"));

    await signUpInBrowser(page, e2e.service.origin, {
      name: "Otto Owner",
      email: `otto-${Date.now()}@example.com`,
      password: "correct horse battery",
    });
    await page.getByTestId("home-title").waitFor();
    await createOrganizationInBrowser(page, "Beispiel", `beispiel-${Date.now()}`);
    await page.getByRole("link", { name: "Verbindungen" }).click();
    await page.getByTestId("connections-none").waitFor();
    expect(await page.getByTestId("connection-add-submit").textContent()).toBe("Verbindung hinzufügen");
    // Add, change and delete a connection (its domain is never verified here).
    await page.getByTestId("connection-add-id").fill("beispiel");
    await page.getByTestId("connection-add-domains").fill("beispiel.test");
    await page.getByTestId("connection-add-issuer").fill(oidc.issuer);
    await page.getByTestId("connection-add-client-id").fill(CLIENT_ID);
    await page.getByTestId("connection-add-client-secret").fill(CLIENT_SECRET);
    await page.getByTestId("connection-add-submit").click();
    const row = page.getByTestId("connection-row");
    await row.waitFor();
    await row.getByTestId("connection-edit").click();
    await row.getByTestId("connection-edit-domains").fill("beispiel.test, beispiel2.test");
    await row.getByTestId("connection-edit-submit").click();
    await row.getByTestId("connection-saved").waitFor();
    await expect
      .poll(() => row.getByTestId("connection-domain").allTextContents())
      .toEqual(["beispiel.test: nicht bestätigt", "beispiel2.test: nicht bestätigt"]);
    await row.getByTestId("connection-delete").click();
    await page.getByTestId("confirm-accept").click();
    await page.getByTestId("connections-notice").waitFor();
    await page.getByTestId("connections-none").waitFor();
    expect(await page.getByTestId("sso-enforcement-card").getByRole("heading").textContent()).toBe(
      "Einmalanmeldung verlangen",
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});

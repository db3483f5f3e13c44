import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skipWithoutDnsServer, startDnsServer, type TestDnsServer } from "../test/helpers/dns.js";
import { CLIENT_ID, CLIENT_SECRET, startOidcProvider, type TestOidcProvider } from "../test/helpers/oidc.js";
import { samlIdpUnavailable, startSamlIdp, type TestSamlIdp } from "../test/helpers/saml-idp.js";
import { apiFromPage, seriousA11yViolations } from "./helpers/browser.js";
import { ownerWithOrganizationInBrowser, proveDomainOnScreen } from "./helpers/organization-setup.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/**
 * Issue 54 end to end: a customer's IT admin with nothing but a setup link adds an OpenID Connect
 * connection (oidc-provider) and a SAML one (pysaml2's IdP), proves their domains (dnsmasq), and
 * runs a test sign-in through each: the browser goes to the provider and back to the wizard, which
 * shows what came back. Nobody joins the organization.
 */
const unavailable = samlIdpUnavailable();
let oidc: TestOidcProvider;
let idp: TestSamlIdp;
let dns: TestDnsServer;
const OIDC_ID = "umbrella-oidc";
const SAML_ID = "umbrella-saml";

skipWithoutDnsServer();

beforeAll(async () => {
  if (unavailable) return;
  [oidc, idp, dns] = await Promise.all([startOidcProvider(), startSamlIdp(), startDnsServer()]);
});
const e2e = setUpServiceAndBrowser(() => ({
  options: { sso: { enabled: true, dnsResolvers: [dns.server], allowPrivateIssuers: true } },
}));
beforeAll(async () => {
  if (unavailable) return;
  await oidc.configure([`${e2e.service.origin}/api/auth/sso/callback/${OIDC_ID}`]);
});
afterAll(async () => {
  await oidc?.close();
  await idp?.close();
  await dns?.close();
});

/** At the IdP, the person presses Continue; its form posts the response to the ACS. */
async function continueAtIdp(page: Page) {
  await page.waitForURL((url) => url.href.startsWith(idp.base));
  const button = page.getByRole("button", { name: "Continue to the application" });
  await button.waitFor({ timeout: 10_000 }).catch(async () => {
    throw new Error(`the IdP answered: ${await page.locator("body").textContent()}`);
  });
  await button.click();
  await page.waitForURL((url) => url.href.startsWith(e2e.service.origin));
}

describe.skipIf(unavailable !== null)("a setup link's holder tests each connection", () => {
  it("completes domain, OpenID Connect and SAML setup, and a test sign-in through each", async () => {
    const { owner, organizationId } = await ownerWithOrganizationInBrowser(e2e, "Uma", "Umbrella");
    const link = await apiFromPage(owner, "/organization/create-setup-link", {
      organizationId,
      scopes: ["sso", "domains"],
    });
    expect(link.status).toBe(200);

    const admin = await (await e2e.newContext()).newPage();
    await admin.goto(`${e2e.service.origin}/setup#${link.body.token}`);
    const setup = admin.getByTestId("organization-setup");
    const add = setup.getByTestId("setup-add");
    await add.waitFor();

    // OpenID Connect: added, its domain proven, then a test sign-in at the provider.
    await add.getByTestId("setup-add-id").fill(OIDC_ID);
    await add.getByTestId("setup-add-domains").fill("umbrella-oidc.test");
    await add.getByTestId("setup-add-issuer").fill(oidc.issuer);
    await add.getByTestId("setup-add-client-id").fill(CLIENT_ID);
    await add.getByTestId("setup-add-client-secret").fill(CLIENT_SECRET);
    await add.getByTestId("setup-add-submit").click();
    await add.getByTestId("setup-added").waitFor();
    const oidcRow = setup.locator(`[data-testid="setup-connection"][data-provider-id="${OIDC_ID}"]`);
    await proveDomainOnScreen(oidcRow, dns);
    const person = oidc.addUser({ email: "ivy@umbrella-oidc.test", name: "Ivy Tester" });
    await oidcRow.getByTestId("setup-test-sign-in").click();
    const login = admin.locator('input[name="login"]');
    await login.waitFor();
    expect(admin.url().startsWith(oidc.issuer)).toBe(true);
    await login.fill(person.sub);
    await login.press("Enter");
    const oidcResult = setup.locator(`[data-testid="setup-test-sign-in-result"][data-provider-id="${OIDC_ID}"]`);
    await oidcResult.waitFor();
    expect(await oidcResult.getAttribute("data-refusal")).toBe("");
    expect(await oidcResult.getByTestId("setup-test-sign-in-verdict").textContent()).toContain("would work");
    expect(await oidcResult.getByTestId("setup-test-sign-in-email").textContent()).toContain("ivy@umbrella-oidc.test");
    expect(await oidcResult.getByTestId("setup-test-sign-in-role").textContent()).toContain("member");
    // Back from the provider the address holds neither the token nor the test's id.
    expect(admin.url()).toBe(`${e2e.service.origin}/setup`);
    expect(await seriousA11yViolations(admin)).toEqual([]);

    // SAML: metadata with entities is refused with a message saying so, in the wizard.
    await add.getByTestId("setup-add-kind").selectOption("saml");
    await add.getByTestId("setup-add-id").fill(SAML_ID);
    await add.getByTestId("setup-add-domains").fill("umbrella-saml.test");
    const metadata = await idp.metadata();
    await add.getByTestId("setup-add-metadata").fill(`<!DOCTYPE md [<!ENTITY x "xx">]>${metadata}`);
    await add.getByTestId("setup-add-submit").click();
    await expect.poll(() => add.getByTestId("form-error").textContent()).toMatch(/DOCTYPE|entit/i);
    // From the IdP's own metadata; the IdP learns the SP from its metadata URL shown in the row.
    await add.getByTestId("setup-add-metadata").fill(metadata);
    await add.getByTestId("setup-add-submit").click();
    await add.getByTestId("setup-added").waitFor();
    const samlRow = setup.locator(`[data-testid="setup-connection"][data-provider-id="${SAML_ID}"]`);
    const spMetadataURL = await samlRow.getByTestId("setup-sp-metadata-url").textContent();
    await idp.registerSp(await (await fetch(spMetadataURL!)).text());
    await proveDomainOnScreen(samlRow, dns);
    await samlRow.getByTestId("setup-test").click();
    expect(await samlRow.getByTestId("setup-test-result").textContent()).toContain("The connection works");
    await idp.nextBrowserSignIn({ id: "saml-ivy", email: "Sam@umbrella-saml.test", name: "Sam Tester" });
    await samlRow.getByTestId("setup-test-sign-in").click();
    await continueAtIdp(admin);
    const samlResult = setup.locator(`[data-testid="setup-test-sign-in-result"][data-provider-id="${SAML_ID}"]`);
    await samlResult.waitFor();
    expect(await samlResult.getAttribute("data-refusal")).toBe("");
    expect(await samlResult.getByTestId("setup-test-sign-in-email").textContent()).toContain("sam@umbrella-saml.test");
    expect(await samlResult.getByTestId("setup-test-sign-in-claims").textContent()).toContain("Sam Tester");

    // An address outside the proven domains: the wizard says what a real sign-in would meet.
    await idp.nextBrowserSignIn({ id: "saml-out", email: "out@elsewhere.test" });
    await samlRow.getByTestId("setup-test-sign-in").click();
    await continueAtIdp(admin);
    await expect
      .poll(() => samlResult.getAttribute("data-refusal"), { timeout: 15_000 })
      .toBe("email_domain_not_verified");
    expect(await samlResult.getByTestId("setup-test-sign-in-verdict").textContent()).toContain(
      "outside your organization's verified domains",
    );

    // Tests sign nobody in: the organization still has only its owner.
    const members = await owner.evaluate(
      async (id) => (await fetch(`/api/auth/organization/list-members?organizationId=${id}`)).json(),
      organizationId,
    );
    expect(members.members).toHaveLength(1);
    expect(await admin.evaluate(async () => (await fetch("/api/auth/get-session")).json())).toBeNull();
    // Its connections to the providers end with it, so they close at once after the file.
    await admin.context().close();
    // Two providers' round trips on a shared machine: more than the default minute.
  }, 180_000);
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skipWithoutDnsServer, startDnsServer, type TestDnsServer } from "../test/helpers/dns.js";
import { CLIENT_ID, CLIENT_SECRET, startOidcProvider, type TestOidcProvider } from "../test/helpers/oidc.js";
import { WebhookReceiver } from "../test/helpers/webhook-receiver.js";
import { apiFromPage, screenshot, seriousA11yViolations } from "./helpers/browser.js";
import { ownerWithOrganizationInBrowser, proveDomainOnScreen } from "./helpers/organization-setup.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/**
 * Issue 54 in the browser: an owner hands out a setup link; the customer's IT admin, with no account,
 * opens it, adds an OpenID Connect connection to a real provider (oidc-provider), tests it and proves
 * its domain against a real DNS server (dnsmasq); the link reaches nothing else and dies when revoked.
 */
let oidc: TestOidcProvider;
let dns: TestDnsServer;
let receiver: WebhookReceiver;
const PROVIDER_ID = "globex-link";
const DOMAIN = "globex-link.test";
const COMPONENT_PROVIDER_ID = "initech-embed";

skipWithoutDnsServer();

beforeAll(async () => {
  [oidc, dns, receiver] = await Promise.all([startOidcProvider(), startDnsServer(), WebhookReceiver.start()]);
});
const e2e = setUpServiceAndBrowser(() => ({
  developmentOutbox: true,
  options: {
    scim: { enabled: true },
    sso: { enabled: true, dnsResolvers: [dns.server], allowPrivateIssuers: true },
    // The receiver is the test's own, on loopback.
    organizationWebhooks: { enabled: true, allowPrivateUrls: true },
  },
}));
beforeAll(async () => {
  await oidc.configure(
    [PROVIDER_ID, COMPONENT_PROVIDER_ID].map((id) => `${e2e.service.origin}/api/auth/sso/callback/${id}`),
  );
});
afterAll(async () => {
  await oidc?.close();
  await dns?.close();
  await receiver?.close();
});

describe("a setup link", () => {
  it("lets an IT admin without an account add and prove a connection, and nothing else", async () => {
    const { owner, organizationId } = await ownerWithOrganizationInBrowser(e2e, "Gina", "Globex");
    // The owner makes the link on the Connections screen; its address is shown once.
    await apiFromPage(owner, "/organization/set-active", { organizationId });
    await owner.goto(`${e2e.service.origin}/organization/connections`);
    const card = owner.getByTestId("setup-links-card");
    await card.getByTestId("setup-link-label").fill("Globex IT");
    await card.getByTestId("setup-link-create").click();
    const address = await card.getByTestId("setup-link-address").inputValue();
    expect(address.startsWith(`${e2e.service.origin}/setup#`)).toBe(true);
    await expect.poll(() => card.getByTestId("setup-link-row").getAttribute("data-status")).toBe("active");
    await screenshot(owner, "setup-links-owner");
    expect(await seriousA11yViolations(owner)).toEqual([]);

    const admin = await (await e2e.newContext()).newPage();
    await admin.goto(address);
    const setup = admin.getByTestId("organization-setup");
    await setup.getByTestId("setup-add").waitFor();
    expect(await setup.locator("h1").textContent()).toContain("Set up Globex");
    expect(await setup.getByTestId("setup-expires").textContent()).toContain("This link works until");
    // The secret leaves the address bar; the link's cookie carries it from here.
    expect(admin.url()).toBe(`${e2e.service.origin}/setup`);
    expect(await setup.getByTestId("setup-directory").count()).toBe(0);

    // Directions for the admin's own provider, with the values to paste named as that provider names them.
    await setup.getByTestId("setup-guide").selectOption("okta");
    expect(await setup.getByTestId("setup-guide-text").textContent()).toContain("Sign-in redirect URI");
    const add = setup.getByTestId("setup-add");
    await add.getByTestId("setup-add-id").fill(PROVIDER_ID);
    const redirectURI = `${e2e.service.origin}/api/auth/sso/callback/${PROVIDER_ID}`;
    expect(await add.getByTestId("setup-redirect-uri").textContent()).toBe(redirectURI);
    await add.getByTestId("setup-add-domains").fill(DOMAIN);
    await add.getByTestId("setup-add-issuer").fill(oidc.issuer);
    await add.getByTestId("setup-add-client-id").fill(CLIENT_ID);
    await add.getByTestId("setup-add-client-secret").fill(CLIENT_SECRET);
    await add.getByTestId("setup-add-submit").click();
    await add.getByTestId("setup-added").waitFor();

    const row = setup.getByTestId("setup-connection");
    await row.waitFor();
    expect(await row.getByTestId("setup-redirect-uri").textContent()).toBe(redirectURI);
    await row.getByTestId("setup-test").click();
    expect(await row.getByTestId("setup-test-result").textContent()).toContain("The connection works");

    await row.getByTestId("setup-domain-show").click();
    const name = await row.getByTestId("setup-record-name").textContent();
    const value = await row.getByTestId("setup-record-value").textContent();
    expect(name).toBe(DOMAIN);
    await screenshot(admin, "setup-link");
    await dns.setTxtRecords({ [name!]: [value!] });
    await row.getByTestId("setup-domain-verify").click();
    await expect.poll(() => row.getByTestId("setup-domain").getAttribute("data-verified")).toBe("true");
    expect(await seriousA11yViolations(admin)).toEqual([]);

    // No account, no other screen: the app's own pages send the link's holder to sign in.
    expect(await admin.evaluate(async () => (await fetch("/api/auth/get-session")).json())).toBeNull();
    await admin.goto(`${e2e.service.origin}/organization/connections`);
    await admin.waitForURL(/\/sign-in/);

    // The owner sees the connection the link made, and revokes the link; it stops at once.
    const owners = await owner.evaluate(async () => (await fetch("/api/auth/sso/providers")).json());
    expect(owners.providers.map((p: { providerId: string }) => p.providerId)).toContain(PROVIDER_ID);
    await card.getByTestId("setup-link-revoke").click();
    await expect.poll(() => card.getByTestId("setup-link-row").getAttribute("data-status")).toBe("revoked");
    await admin.goto(`${e2e.service.origin}/setup`);
    await admin.getByTestId("setup-invalid").waitFor();
  });

  it("sets up the audit stream: a receiver, its secret once, a signed test delivery", async () => {
    const { owner, organizationId } = await ownerWithOrganizationInBrowser(e2e, "Ada", "Hooli");
    const link = await apiFromPage(owner, "/organization/create-setup-link", {
      organizationId,
      scopes: ["auditStream"],
    });
    const admin = await (await e2e.newContext()).newPage();
    await admin.goto(`${e2e.service.origin}/setup#${link.body.token}`);
    const card = admin.getByTestId("setup-audit-stream");
    await card.getByTestId("setup-audit-url").fill(receiver.url);
    await card.getByTestId("setup-audit-create").click();
    receiver.secret = (await card.getByTestId("setup-audit-secret").textContent()) ?? "";
    await card.getByTestId("setup-audit-test").click();
    await card.getByTestId("setup-audit-test-sent").waitFor();
    await expect.poll(() => receiver.delivered("webhook.test").length).toBe(1);
    expect(await admin.getByTestId("setup-add").count()).toBe(0);
    // Its last delivery, read again.
    await admin.reload();
    await expect.poll(() => card.getByTestId("setup-audit-streams").textContent()).toContain(receiver.url);
    // Done forgets the link in this browser.
    await admin.getByTestId("setup-close").click();
    await admin.getByTestId("setup-closed").waitFor();
    await admin.goto(`${e2e.service.origin}/setup`);
    await admin.getByTestId("setup-invalid").waitFor();
    expect(await seriousA11yViolations(admin)).toEqual([]);

    // The same step in <OrganizationSetup/>.
    const second = await apiFromPage(owner, "/organization/create-setup-link", {
      organizationId,
      scopes: ["auditStream"],
    });
    const embedded = await (await e2e.newContext()).newPage();
    await embedded.goto(`${e2e.service.origin}/dev/components?screen=setup#${second.body.token}`);
    const panel = embedded.getByTestId("setup-audit-stream");
    await panel.getByTestId("setup-audit-url").fill(`${receiver.url}/component`);
    await panel.getByTestId("setup-audit-create").click();
    receiver.secret = (await panel.getByTestId("setup-audit-secret").textContent()) ?? "";
    await panel.getByTestId("setup-audit-test").click();
    await panel.getByTestId("setup-audit-test-sent").waitFor();
    await expect.poll(() => receiver.delivered("webhook.test").length).toBe(2);
  });

  it("a dead or forged link says so, in German too", async () => {
    const page = await (await e2e.newContext({ locale: "de-DE" })).newPage();
    await page.goto(`${e2e.service.origin}/setup#nonsense.token`);
    await page.getByTestId("setup-invalid").waitFor();
    expect(await page.getByTestId("setup-invalid").textContent()).toContain(
      "Dieser Einrichtungslink funktioniert nicht",
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it("as <OrganizationSetup/>: the link's steps in German and themed, and every step for a signed-in owner", async () => {
    const { owner, organizationId } = await ownerWithOrganizationInBrowser(e2e, "Ina", "Initech");
    const link = await apiFromPage(owner, "/organization/create-setup-link", {
      organizationId,
      scopes: ["sso", "domains"],
    });

    const admin = await (await e2e.newContext()).newPage();
    await admin.goto(`${e2e.service.origin}/dev/components?screen=setup&lang=de&primary=%237a1f5c#${link.body.token}`);
    const setup = admin.getByTestId("organization-setup");
    await setup.getByTestId("setup-add").waitFor();
    expect(await setup.locator("h1").textContent()).toBe("Initech einrichten");
    expect(await setup.getAttribute("style")).toContain("--gh-accent: #7a1f5c");
    expect(await setup.getByTestId("setup-directory").count()).toBe(0);
    await setup.getByTestId("setup-guide").selectOption("entra");
    expect(await setup.getByTestId("setup-guide-text").textContent()).toContain("Microsoft Entra Admin Center");
    await setup.getByTestId("setup-add-id").fill(COMPONENT_PROVIDER_ID);
    expect(await setup.getByTestId("setup-redirect-uri").textContent()).toBe(
      `${e2e.service.origin}/api/auth/sso/callback/${COMPONENT_PROVIDER_ID}`,
    );
    await setup.getByTestId("setup-add-domains").fill("initech-embed.test");
    await setup.getByTestId("setup-add-issuer").fill(oidc.issuer);
    await setup.getByTestId("setup-add-client-id").fill(CLIENT_ID);
    await setup.getByTestId("setup-add-client-secret").fill(CLIENT_SECRET);
    await setup.getByTestId("setup-add-submit").click();
    const row = setup.getByTestId("setup-connection");
    await row.waitFor();
    await row.getByTestId("setup-test").click();
    await row.getByTestId("setup-test-result").waitFor();
    await proveDomainOnScreen(row, dns);
    expect(await seriousA11yViolations(admin)).toEqual([]);

    // Embedded behind the app's own sign-in, the owner gets every step, the directory's included.
    await apiFromPage(owner, "/organization/set-active", { organizationId });
    await owner.goto(`${e2e.service.origin}/dev/components?screen=setup`);
    const embedded = owner.getByTestId("organization-setup");
    await embedded.getByTestId("setup-directory").waitFor();
    await embedded.getByTestId("setup-connection").waitFor();
    expect(await embedded.getByTestId("setup-connection").getAttribute("data-provider-id")).toBe(COMPONENT_PROVIDER_ID);
    await embedded.getByTestId("setup-scim-generate").click();
    await embedded.getByTestId("setup-scim-token").waitFor();
    expect(await embedded.getByTestId("setup-scim-base-url").textContent()).toBe(
      `${e2e.service.origin}/api/auth/scim/v2`,
    );

    // The directory's calls, one refused: its health in the wizard and on the owners' Directory screen.
    const scimToken = await embedded.getByTestId("setup-scim-token").textContent();
    const refused = await fetch(`${e2e.service.origin}/api/auth/scim/v2/Users`, {
      method: "POST",
      headers: { authorization: `Bearer ${scimToken}`, "content-type": "application/scim+json" },
      body: "{not json",
    });
    expect(refused.status).toBe(400);
    await owner.reload();
    const error = embedded.getByTestId("setup-scim-health-error");
    await error.waitFor();
    expect(await error.textContent()).toContain("POST /Users answered 400: The body is not valid JSON");
    await owner.goto(`${e2e.service.origin}/organization/directory`);
    const onScreen = owner.getByTestId("scim-health-error");
    await onScreen.waitFor();
    expect(await onScreen.textContent()).toContain("The body is not valid JSON");
    expect(await owner.getByTestId("scim-health-counts").textContent()).toContain("0 users and 0 groups");
  });
});

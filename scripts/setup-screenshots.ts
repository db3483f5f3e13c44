/**
 * `npx tsx scripts/setup-screenshots.ts`: the setup wizard's steps for docs/sso.md ("Let the customer
 * set it up"), photographed into docs/images/. Not a test: it builds the application, starts the
 * service on a temporary SQLite database, the test SAML IdP (pysaml2, test/helpers/saml-idp.ts) on
 * loopback, and Debian's chromium-headless-shell (as the browser tests do), then walks a setup link as a customer's IT admin would: the domain's
 * TXT record, the provider's directions, a test sign-in's result, the directory's sync health. Each
 * picture is one panel at a narrow width, so each stays a few tens of kB.
 */
import { mkdirSync } from "node:fs";
import { chromium, type Locator, type Page } from "playwright-core";
import { demoOptions } from "../src/server/demo-options.js";
import { CHROMIUM } from "../test/helpers/prerequisites.js";
import { samlIdpUnavailable, startSamlIdp } from "../test/helpers/saml-idp.js";
import { settle, startScreenshotService } from "./screenshot-service.js";

const OUT = "docs/images";
const WIDTH = 560;
async function main() {
  const missing = samlIdpUnavailable();
  if (missing) throw new Error(`the SAML IdP cannot run here: ${missing}`);
  const service = await startScreenshotService({
    host: "127.0.0.1",
    options: {
      ...demoOptions,
      rateLimit: { enabled: false },
      sso: { enabled: true, allowPrivateIssuers: true },
      scim: { enabled: true },
    },
  });
  const { origin } = service;
  const idp = await startSamlIdp();
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox"] });
  mkdirSync(OUT, { recursive: true });
  try {
    // The owner: signed up, an organization, a setup link for its IT admin.
    const owner = await browser.newPage();
    await owner.goto(`${origin}/sign-up`);
    await owner.getByTestId("sign-up-name").fill("Ada Lovelace");
    await owner.getByTestId("sign-up-email").fill("ada@example.com");
    await owner.getByTestId("sign-up-password").fill("correct horse battery staple");
    await owner.getByTestId("sign-up-submit").click();
    await owner.getByTestId("home-title").waitFor();
    const post = (path: string, body: object) =>
      owner.evaluate(
        async ({ path, body }) =>
          (
            await fetch(`/api/auth${path}`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify(body),
            })
          ).json(),
        { path, body },
      );
    const organization = await post("/organization/create", { name: "Acme", slug: "acme" });
    const link = await post("/organization/create-setup-link", {
      organizationId: organization.id,
      scopes: ["sso", "domains", "directory"],
      label: "Jo, Acme IT",
    });

    const context = await browser.newContext({ viewport: { width: WIDTH, height: 900 } });
    const admin = await context.newPage();
    await admin.goto(`${origin}/setup#${link.token}`);
    const setup = admin.getByTestId("organization-setup");
    const add = setup.getByTestId("setup-add");
    await add.waitFor();

    // The provider's directions, for the values it asks for.
    await add.getByTestId("setup-guide").selectOption("okta");
    await add.getByTestId("setup-add-kind").selectOption("saml");
    await add.getByTestId("setup-add-id").fill("acme-okta");
    await shoot(admin, add.getByTestId("setup-guide-text"), "setup-provider-guide");

    // A SAML connection from the IdP's metadata; its domain's TXT record.
    await add.getByTestId("setup-add-domains").fill("acme.example");
    await add.getByTestId("setup-add-metadata").fill(await idp.metadata());
    await add.getByTestId("setup-add-submit").click();
    await add.getByTestId("setup-added").waitFor();
    const row = setup.getByTestId("setup-connection");
    await row.getByTestId("setup-domain-show").click();
    await row.getByTestId("setup-record-value").waitFor();
    await shoot(admin, row, "setup-domain-record");

    // A test sign-in through the IdP: what came back, and what a real sign-in would meet.
    const spMetadataURL = await row.getByTestId("setup-sp-metadata-url").textContent();
    await idp.registerSp(await (await fetch(spMetadataURL ?? "")).text());
    await idp.nextBrowserSignIn({ id: "jo", email: "jo@acme.example", name: "Jo Admin", groups: ["it"] });
    await row.getByTestId("setup-test-sign-in").click();
    await admin.waitForURL((url) => url.href.startsWith(idp.base));
    const button = admin.getByRole("button", { name: "Continue to the application" });
    await button.waitFor({ timeout: 10_000 }).catch(async () => {
      throw new Error(`the IdP answered ${admin.url()}: ${await admin.locator("body").textContent()}`);
    });
    await button.click();
    const result = setup.getByTestId("setup-test-sign-in-result");
    await result.waitFor();
    await result.locator("summary").click();
    await shoot(admin, result, "setup-test-result");

    // The directory: a token, then a directory's calls, good and refused, and its health.
    await setup.getByTestId("setup-scim-generate").click();
    const token = await setup.getByTestId("setup-scim-token").textContent();
    const scim = (method: string, path: string, body: string) =>
      fetch(`${origin}/api/auth/scim/v2${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/scim+json" },
        body,
      });
    const user = (userName: string) =>
      JSON.stringify({
        schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
        userName,
        name: { givenName: "Sam", familyName: "Example" },
        emails: [{ primary: true, value: userName }],
        active: true,
      });
    for (const name of ["sam", "kim", "lee"]) await scim("POST", "/Users", user(`${name}@acme.example`));
    await scim("POST", "/Users", user("sam@acme.example"));
    await scim("POST", "/Users", "{not json");
    await admin.reload();
    const directory = setup.getByTestId("setup-directory");
    await directory.getByTestId("setup-scim-health-error").first().waitFor();
    await shoot(admin, directory, "setup-directory-health");
    console.log(`4 screenshots in ${OUT}/`);
  } finally {
    await browser.close();
    await idp.close();
    await service.close();
  }
}

/** One panel, once fonts and layout settled. */
async function shoot(page: Page, panel: Locator, name: string) {
  await settle(page);
  await panel.screenshot({ path: `${OUT}/${name}.png` });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

import { describe, expect, it } from "vitest";
import { screenshot, seriousA11yViolations, signInThroughApi, signUpThroughApi } from "./helpers/browser.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/**
 * Issue 53: the organization's API keys page, reached from the organization's screens: its keys and
 * its machine clients (client_credentials OAuth clients) in one list, with name, maker, last use,
 * expiry and revoke; a new key shown once.
 */
const run = setUpServiceAndBrowser({
  options: {
    apiKey: { enabled: true },
    oauthProvider: { enabled: true, loginPage: "/sign-in", consentPage: "/consent" },
  },
});

describe("the organization's API keys page", () => {
  it("lists keys and machine clients together, makes a key shown once, and revokes a machine client", async () => {
    const { origin } = run.service;
    const user = { name: "Olive Owner", email: `keys-page-${Date.now()}@example.com`, password: "sturdy-pass-123" };
    await signUpThroughApi(origin, user);
    const context = await run.newContext();
    await signInThroughApi(context, origin, user);
    const api = (path: string, data: object) =>
      context.request.post(`${origin}/api/auth${path}`, { data, headers: { origin } });
    const org = await (await api("/organization/create", { name: "Robots Ltd", slug: `robots-${Date.now()}` })).json();
    const made = await api("/oauth2/create-client", {
      client_name: "Build robot",
      redirect_uris: [],
      grant_types: ["client_credentials"],
      organizationId: org.id,
    });
    expect(made.status()).toBe(201);
    const machine = await made.json();
    // The machine client takes a token once: its last use shows.
    const token = await fetch(`${origin}/api/auth/oauth2/token`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${machine.client_id}:${machine.client_secret}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "grant_type=client_credentials",
    });
    expect(token.status).toBe(200);

    const page = await context.newPage();
    await page.goto(`${origin}/organization`);
    await page.getByRole("link", { name: "API keys" }).click();
    await page.waitForURL(`${origin}/organization/api-keys`);
    const clientRow = page.getByTestId("api-key-client-row");
    await expect.poll(() => clientRow.textContent()).toContain("Build robot");
    const clientText = (await clientRow.textContent()) ?? "";
    expect(clientText).toContain("made by Olive Owner");
    expect(clientText).toContain("last used");
    expect(clientText).not.toContain("never used");
    expect(clientText).toContain("Machine client");

    await page.getByTestId("api-key-name").fill("deploy");
    await page.getByTestId("api-key-create").click();
    const keyText = await page.getByTestId("api-key-text").inputValue();
    expect(keyText).toMatch(/^gk_[A-Za-z0-9]{46}$/);
    await page.getByTestId("api-key-done").click();
    await expect.poll(() => page.getByTestId("api-key-row").textContent()).toContain("deploy");
    expect(await page.getByTestId("api-key-text").count()).toBe(0);
    const keyRow = (await page.getByTestId("api-key-row").textContent()) ?? "";
    expect(keyRow).toContain("never used");
    expect(keyRow).toContain("made by Olive Owner");
    await screenshot(page, "organization-api-keys");
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await page.title()).toContain("API keys");

    await clientRow.getByTestId("api-key-revoke").click();
    await page.getByTestId("confirm-accept").click();
    await expect.poll(() => page.getByTestId("api-keys-notice").textContent()).toContain("Build robot is revoked.");
    await expect.poll(() => page.getByTestId("api-key-client-row").count()).toBe(0);
    const gone = await run.service.auth.database.db
      .selectFrom("oauthClient")
      .select("clientId")
      .where("clientId", "=", machine.client_id)
      .execute();
    expect(gone).toEqual([]);
    // The key is still there, and still a key.
    expect(await page.getByTestId("api-key-row").count()).toBe(1);
  });
});

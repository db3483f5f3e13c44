import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signInInBrowser, signUpInBrowser } from "./helpers/browser.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

const e2e = setUpServiceAndBrowser({ developmentOutbox: true });

/** Every API answer of 400 or more the page received. */
function failingRequests(page: Page): string[] {
  const failures: string[] = [];
  page.on("response", (response) => {
    if (response.status() >= 400) failures.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  return failures;
}

describe("signed out, and a quiet console", () => {
  it("a visitor who forgot their password reads the reset mail in the development outbox, signed out", async () => {
    const user = { name: "Forgetful", email: `forgetful-${Date.now()}@example.com`, password: "correct horse battery" };
    const setup = await e2e.browser.newPage();
    await signUpInBrowser(setup, e2e.service.origin, user);
    await setup.getByTestId("home-title").waitFor();
    await setup.close();

    const context = await e2e.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${e2e.service.origin}/forgot-password`);
    await page.getByTestId("forgot-password-email").fill(user.email);
    await page.getByTestId("forgot-password-submit").click();
    await page.getByTestId("forgot-password-sent").waitFor();

    await page.goto(`${e2e.service.origin}/dev/outbox`);
    const link = page.getByTestId("outbox-link").filter({ hasText: "/reset-password/" }).first();
    await link.waitFor();
    // Long links wrap inside the page instead of widening it.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await link.click();
    await page.getByTestId("reset-password-new").fill("a brand new passphrase");
    await page.getByTestId("reset-password-submit").click();
    await page.getByTestId("reset-password-done").waitFor();
    await signInInBrowser(page, e2e.service.origin, { email: user.email, password: "a brand new passphrase" });
    await page.getByTestId("home-title").waitFor();
    await context.close();
  });

  it("signed-out pages and a home without an organization make no failing requests", async () => {
    const context = await e2e.browser.newContext();
    const page = await context.newPage();
    const failures = failingRequests(page);
    for (const path of ["/sign-in", "/sign-up", "/forgot-password"]) {
      await page.goto(`${e2e.service.origin}${path}`);
      await page.waitForLoadState("networkidle");
    }
    expect(failures).toEqual([]);

    const user = { name: "Quiet", email: `quiet-${Date.now()}@example.com`, password: "correct horse battery" };
    await signUpInBrowser(page, e2e.service.origin, user);
    await page.getByTestId("home-title").waitFor();
    await page.goto(`${e2e.service.origin}/account`);
    await page.waitForLoadState("networkidle");
    expect(failures).toEqual([]);
    await context.close();
  });
});

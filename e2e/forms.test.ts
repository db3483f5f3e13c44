import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { seriousA11yViolations, signUpInBrowser } from "./helpers/browser.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/**
 * Forms: focus goes where the problem is after a failed submit, passwords can be shown, new
 * passwords get a strength meter with the server's own refusals, and a change clears its form and
 * reports in its own card.
 */
const e2e = setUpServiceAndBrowser();

const PASSWORD = "correct horse battery";
const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? null);

describe("focus after a failed submit", () => {
  it("moves to the first invalid field, then to the server's error", async () => {
    const page = await e2e.browser.newPage();
    await page.goto(`${e2e.service.origin}/sign-up`);
    await page.getByTestId("sign-up-email").fill("ada@example.com");
    await page.getByTestId("sign-up-submit").click();
    await expect.poll(() => focused(page)).toBe("sign-up-name");
    expect(await page.getByTestId("sign-up-name").getAttribute("aria-invalid")).toBe("true");

    await page.goto(`${e2e.service.origin}/sign-in`);
    await page.getByTestId("sign-in-email").fill("nobody@example.com");
    await page.getByTestId("sign-in-password").fill("wrong password");
    await page.keyboard.press("Enter");
    await expect.poll(() => focused(page)).toBe("form-error");
    expect(await page.getByTestId("form-error").textContent()).toBe("Incorrect email or password.");
    await page.close();
  });
});

describe("password fields", () => {
  it("shows and hides the password with a pressed toggle, keeping what was typed", async () => {
    const page = await e2e.browser.newPage();
    await page.goto(`${e2e.service.origin}/sign-in`);
    const input = page.getByTestId("sign-in-password");
    const toggle = page.getByTestId("sign-in-password-toggle");
    await input.fill("s3cret value");
    expect(await input.getAttribute("type")).toBe("password");
    expect(await toggle.getAttribute("aria-pressed")).toBe("false");
    expect(await page.getByRole("button", { name: "Show password" }).count()).toBe(1);
    await toggle.focus();
    await page.keyboard.press("Space");
    await expect.poll(() => input.getAttribute("type")).toBe("text");
    expect(await toggle.getAttribute("aria-pressed")).toBe("true");
    expect(await input.inputValue()).toBe("s3cret value");
    await toggle.click();
    expect(await input.getAttribute("type")).toBe("password");
    expect(await input.inputValue()).toBe("s3cret value");
    await page.close();
  });

  it("rates a new password with the server's refusals and says one thing at a time", async () => {
    const page = await e2e.browser.newPage();
    // The common-password list (vite.config.ts: its own chunk) is fetched once a password is typed.
    const requested: string[] = [];
    const listRequests = () => requested.filter((path) => /\/common-passwords-[^/]+\.js$/.test(path)).length;
    page.on("request", (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(`${e2e.service.origin}/sign-up`);
    const input = page.getByTestId("sign-up-password");
    const label = page.getByTestId("password-strength-label");
    const messages = () =>
      page
        .locator(".gh-field", { has: input })
        .locator(".gh-hint, .gh-field-error, .gh-strength-label")
        .allTextContents();
    // The page's code loads on first visit: wait for the form before reading it.
    await input.waitFor();
    expect(await messages()).toEqual(["At least 8 characters."]);
    expect(listRequests()).toBe(0);

    await input.fill("abc");
    await expect.poll(() => label.textContent()).toBe("Strength: Too short: use at least 8 characters.");
    await expect.poll(listRequests).toBe(1);
    expect(await messages()).toHaveLength(1);
    await input.fill("Password1");
    await expect
      .poll(() => label.textContent())
      .toBe("Strength: Too common: this password is on lists attackers try first.");
    await input.fill("kqzvhtwm");
    await expect.poll(() => label.textContent()).toBe("Strength: Weak");
    await input.fill(PASSWORD);
    await expect.poll(() => label.textContent()).toBe("Strength: Good");
    await input.fill(`${PASSWORD} staple`);
    await expect.poll(() => label.textContent()).toBe("Strength: Strong");
    const describedBy = (await input.getAttribute("aria-describedby")) ?? "";
    expect(describedBy).toBe(await label.getAttribute("id"));
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The server refuses what the meter calls too common: said once, under the field, no alert.
    await page.getByTestId("sign-up-name").fill("Cora Common");
    await page.getByTestId("sign-up-email").fill("cora@example.com");
    await input.fill("Password1");
    await page.getByTestId("sign-up-submit").click();
    await expect.poll(() => messages()).toEqual(["That password is too common and easy to guess. Choose another."]);
    expect(await page.getByTestId("form-error").count()).toBe(0);
    expect(await input.getAttribute("aria-invalid")).toBe("true");

    // A failed submit shows the error alone: no hint, no meter beside it.
    await input.fill("short");
    await page.getByTestId("sign-up-submit").click();
    await expect.poll(() => messages()).toEqual(["Use at least 8 characters."]);
    await page.close();
  });
});

describe("changing the password", () => {
  it("refuses the current password as the new one, then clears the form and reports in its card", async () => {
    const page = await e2e.browser.newPage();
    await signUpInBrowser(page, e2e.service.origin, {
      name: "Pat Change",
      email: "pat@example.com",
      password: PASSWORD,
    });
    await page.getByTestId("home-title").waitFor();
    await page.goto(`${e2e.service.origin}/account/security`);
    const current = page.getByTestId("change-password-current");
    const next = page.getByTestId("change-password-new");
    await current.fill(PASSWORD);
    await next.fill(PASSWORD);
    await page.getByTestId("change-password-submit").click();
    await expect
      .poll(() => page.getByTestId("change-password-new-error").textContent())
      .toBe("Choose a new password that differs from the current one.");
    expect(await focused(page)).toBe("change-password-new");

    await next.fill("a brand new passphrase");
    await page.getByTestId("change-password-submit").click();
    const card = page.getByTestId("change-password-card");
    await expect.poll(() => card.getByTestId("security-notice").textContent()).toBe("Password changed.");
    expect(await current.inputValue()).toBe("");
    expect(await next.inputValue()).toBe("");
    expect(await page.getByTestId("change-email-card").getByTestId("security-notice").count()).toBe(0);
    // Typing again clears the old notice.
    await current.fill("x");
    await expect.poll(() => card.getByTestId("security-notice").count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.close();
  });
});

import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { seriousA11yViolations, signUpInBrowser } from "./helpers/browser.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/** Issue 31: the code boxes and Resend, the name a link-made account is asked for, Home's next steps, 375 px. */
// Codes of 8 digits, not the default 6: the boxes follow the server's emailOTP.otpLength (GET /app-config).
const e2e = setUpServiceAndBrowser({ options: { emailOTP: { enabled: true, otpLength: 8 } } });
const mailedCode = (text: string) => /\b(\d{8})\b/.exec(text)?.[1] ?? "";
const PASSWORD = "correct horse battery";

async function askForCode(page: Page, email: string) {
  await page.goto(`${e2e.service.origin}/sign-in/code`);
  await page.getByTestId("email-code-email").fill(email);
  await page.getByTestId("email-code-submit").click();
  await page.getByTestId("email-code-sent").waitFor();
}

const boxValues = (page: Page) =>
  page
    .getByTestId("email-code-otp-group")
    .locator("input")
    .evaluateAll((boxes) => boxes.map((box) => (box as HTMLInputElement).value));

describe("the email code screen", () => {
  it("takes the code one digit per box: typing, Backspace and paste, then signs in", async () => {
    const email = `boxes-${Date.now()}@example.com`;
    const page = await (await e2e.newContext()).newPage();
    await askForCode(page, email);
    const group = page.getByRole("group", { name: "Code from the email" });
    expect(await group.locator("input").count()).toBe(8);
    expect(await page.getByTestId("email-code-otp").getAttribute("autocomplete")).toBe("one-time-code");
    expect(await page.getByTestId("email-code-otp-2").getAttribute("autocomplete")).toBe("off");
    expect(await page.getByLabel("Digit 3 of 8").count()).toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Typing moves on; Backspace on an empty box goes back and clears the one before.
    await page.getByTestId("email-code-otp").focus();
    await page.keyboard.type("123");
    expect(await boxValues(page)).toEqual(["1", "2", "3", "", "", "", "", ""]);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Digit 4 of 8");
    await page.keyboard.press("Backspace");
    expect(await boxValues(page)).toEqual(["1", "2", "", "", "", "", "", ""]);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Digit 3 of 8");

    // A pasted code fills every box.
    const mail = await e2e.service.mail!.waitFor((m) => m.to === email && /sign-in code/.test(m.subject), 15_000);
    const code = mailedCode(mail.text);
    await page.getByTestId("email-code-otp").focus();
    await page.evaluate(
      (text) => {
        const data = new DataTransfer();
        data.setData("text/plain", text);
        document.activeElement?.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true }));
      },
      ` ${code.slice(0, 4)}-${code.slice(4)} `,
    );
    await expect.poll(() => boxValues(page)).toEqual(code.split(""));
    await page.getByTestId("email-code-submit").click();
    await page.getByTestId("home-title").waitFor();
    await page.close();
  });

  it("offers Resend only after a visible cooldown, and sends a second code", async () => {
    const email = `resend-${Date.now()}@example.com`;
    const page = await (await e2e.newContext()).newPage();
    await page.clock.install();
    await askForCode(page, email);
    const resend = page.getByTestId("email-code-resend");
    expect(await resend.isDisabled()).toBe(true);
    expect(await page.getByTestId("email-code-resend-wait").textContent()).toMatch(
      /^You can ask for a new code in (30|29) seconds\.$/,
    );
    expect(await resend.getAttribute("aria-describedby")).toBe("gh-resend-wait");
    await page.clock.runFor(31_000);
    await expect.poll(() => resend.isDisabled()).toBe(false);
    expect(await page.getByTestId("email-code-resend-wait").count()).toBe(0);
    await resend.click();
    await expect.poll(() => resend.isDisabled()).toBe(true);
    await expect
      .poll(() => e2e.service.mail!.to(email).filter((m) => /sign-in code/.test(m.subject)).length, { timeout: 15_000 })
      .toBe(2);
    await page.close();
  });
});

describe("a new account made by a sign-in code", () => {
  it("is asked for a name on Home, once, and may skip it", async () => {
    const named = `ada.l-${Date.now()}@example.com`;
    const page = await (await e2e.newContext()).newPage();
    await askForCode(page, named);
    let mail = await e2e.service.mail!.waitFor((m) => m.to === named && /sign-in code/.test(m.subject), 15_000);
    await page.getByTestId("email-code-otp").fill(mailedCode(mail.text));
    await page.getByTestId("email-code-submit").click();
    await page.getByTestId("name-prompt").waitFor();
    expect(await page.getByTestId("name-prompt-name").inputValue()).toBe("");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByTestId("name-prompt-save").click();
    expect(await page.getByTestId("name-prompt-name").getAttribute("aria-invalid")).toBe("true");
    await page.getByTestId("name-prompt-name").fill("Ada Lovelace");
    await page.getByTestId("name-prompt-save").click();
    await expect.poll(() => page.getByTestId("home-title").textContent()).toBe("Welcome, Ada Lovelace");
    expect(await page.getByTestId("name-prompt").count()).toBe(0);

    const skipper = `skip-${Date.now()}@example.com`;
    const other = await (await e2e.newContext()).newPage();
    await askForCode(other, skipper);
    mail = await e2e.service.mail!.waitFor((m) => m.to === skipper && /sign-in code/.test(m.subject), 15_000);
    await other.getByTestId("email-code-otp").fill(mailedCode(mail.text));
    await other.getByTestId("email-code-submit").click();
    await other.getByTestId("name-prompt-skip").click();
    expect(await other.getByTestId("name-prompt").count()).toBe(0);
    await other.reload();
    await other.getByTestId("home-title").waitFor();
    expect(await other.getByTestId("name-prompt").count()).toBe(0);
    await page.close();
    await other.close();
  });
});

describe("Home after sign-up", () => {
  it("shows the next steps: verify with a resend button, an organization, a second factor", async () => {
    const user = { name: "Nora Next", email: `next-${Date.now()}@example.com`, password: PASSWORD };
    const page = await (await e2e.newContext()).newPage();
    await signUpInBrowser(page, e2e.service.origin, user);
    await page.getByTestId("home-next-steps").waitFor();
    expect(await page.getByTestId("name-prompt").count()).toBe(0);
    await page.getByTestId("home-next-organization").waitFor();
    await page.getByTestId("home-next-secure").waitFor();
    expect(await page.getByTestId("home-next-verify").textContent()).toContain(user.email);
    // The step says what to do without an organization; no card says it again.
    expect(await page.getByRole("heading", { name: "Organization", exact: true }).count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByTestId("home-resend-verification").click();
    await page.getByTestId("home-verification-sent").waitFor();
    const mail = await e2e.service.mail!.waitFor((m) => m.to === user.email && /Verify/.test(m.subject), 15_000);
    await page.goto(mail.links.find((link) => link.includes("/verify-email"))!);
    await page.getByTestId("verify-success").waitFor();
    await page.goto(e2e.service.origin);
    await page.getByTestId("home-next-steps").waitFor();
    expect(await page.getByTestId("home-next-verify").count()).toBe(0);
    await page.close();
  });
});

describe("at 375 px", () => {
  it("keeps the header on one row, folds the nav behind a menu button, and never scrolls sideways", async () => {
    const user = { name: "Wilhelmina Narrow-Screen", email: `narrow-${Date.now()}@example.com`, password: PASSWORD };
    const page = await (await e2e.newContext({ viewport: { width: 375, height: 812 } })).newPage();
    await signUpInBrowser(page, e2e.service.origin, user);
    await page.getByTestId("home-title").waitFor();
    const scrollWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
    const headerHeight = async () => (await page.locator(".shell-header").boundingBox())!.height;
    expect(await scrollWidth()).toBeLessThanOrEqual(375);
    // One row: no taller than its tallest control plus padding.
    expect(await headerHeight()).toBeLessThanOrEqual(60);
    const toggle = page.getByTestId("nav-toggle");
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await page.getByRole("navigation", { name: "Main" }).isVisible()).toBe(false);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await toggle.click();
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    const account = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Account" });
    await account.waitFor();
    expect(await scrollWidth()).toBeLessThanOrEqual(375);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await account.click();
    await page.waitForURL(/\/account$/);
    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await scrollWidth()).toBeLessThanOrEqual(375);
    expect(await headerHeight()).toBeLessThanOrEqual(60);

    // Wide screens keep the nav as a row of tabs, and no menu button.
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await toggle.isVisible()).toBe(false);
    expect(await page.getByRole("navigation", { name: "Main" }).isVisible()).toBe(true);
    await page.close();
  });
});

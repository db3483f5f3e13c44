import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { type MessageKey, translate } from "../src/i18n/index.js";
import { screenshot, seriousA11yViolations, signUpInBrowser } from "./helpers/browser.js";
import { signedInScreens, signedOutScreens } from "./helpers/screens.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/**
 * Every screen passes an axe-core scan with no serious or critical violation, has its page title
 * and `<html lang>`, and fits a phone's width without sideways scrolling. With SCREENSHOTS=1 the main screens are saved for the README.
 */
// Development outbox: the outbox screen is part of the product when SMTP is not configured.
const e2e = setUpServiceAndBrowser({ developmentOutbox: true });
// One page per kind of visitor, reused screen after screen (each screen is a fresh navigation).
let signedOut: Page;
let signedIn: Page;
let phone: Page;
beforeAll(async () => {
  const signedInContext = await e2e.newContext({ viewport: { width: 1100, height: 800 } });
  const page = await signedInContext.newPage();
  await signUpInBrowser(page, e2e.service.origin, {
    name: "Ada Lovelace",
    email: "ada@example.com",
    password: "correct horse battery",
  });
  await page.getByTestId("home-title").waitFor();
  signedIn = page;
  const phoneContext = await e2e.newContext({
    viewport: { width: 360, height: 740 },
    storageState: await signedInContext.storageState(),
  });
  phone = await phoneContext.newPage();
  signedOut = await (await e2e.newContext()).newPage();
});

async function open(page: Page, path: string, ready: string): Promise<Page> {
  await page.goto(`${e2e.service.origin}${path}`);
  await page.getByTestId(ready).first().waitFor();
  return page;
}

/** English light is checked here; languages-and-themes.test.ts checks the other three combinations. */
async function expectEnglishTitle(page: Page, title: MessageKey) {
  await expect.poll(() => page.title()).toBe(`${translate("en", title)} · Gatehouse`);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");
}

/** The sign-in screens a phone user meets first. */
const phoneSignedOut = signedOutScreens.filter(([path]) =>
  ["/sign-in", "/sign-up", "/two-factor", "/sign-in/link", "/sign-in/code"].includes(path),
);

describe("accessibility and phone width", () => {
  it.each(signedOutScreens)("%s (signed out)", async (path, ready, shot, title) => {
    const page = await open(signedOut, path, ready);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await expectEnglishTitle(page, title);
    if (shot) await screenshot(page, shot);
  });

  it.each(signedInScreens)("%s (signed in)", async (path, ready, shot, title) => {
    const page = await open(signedIn, path, ready);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await expectEnglishTitle(page, title);
    if (shot) await screenshot(page, shot);
  });

  it.each([...phoneSignedOut, ...signedInScreens])("%s fits a 360 px wide phone", async (path, ready) => {
    const page = await open(phone, path, ready);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  it("shows a form's error with role=alert and ties field errors to their inputs", async () => {
    const context = await e2e.browser.newContext();
    const page = await open(await context.newPage(), "/sign-in", "sign-in-submit");
    await page.getByTestId("sign-in-email").fill("nobody@example.com");
    await page.getByTestId("sign-in-password").fill("wrong password");
    await page.getByTestId("sign-in-submit").click();
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("alert").textContent()).toBe("Incorrect email or password.");
    await page.getByTestId("sign-in-email").fill("not-an-email");
    await page.getByTestId("sign-in-submit").click();
    const email = page.getByLabel("Email", { exact: true });
    await expect.poll(() => email.getAttribute("aria-invalid")).toBe("true");
    const describedBy = (await email.getAttribute("aria-describedby")) ?? "";
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe("Enter a valid email address.");
    await context.close();
  });
});

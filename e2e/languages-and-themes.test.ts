import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Locale, translate } from "../src/i18n/index.js";
import { seriousA11yViolations, signUpInBrowser } from "./helpers/browser.js";
import { type Screen, signedInScreens, signedOutScreens } from "./helpers/screens.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/**
 * The application in English and German, light and dark. accessibility.test.ts sweeps every screen in
 * English, light. German, light, checks every screen's <html lang> and page title (its own words);
 * all three other combinations run axe on a sample of screens that between them show every kind of
 * element (forms, field and page errors, lists, the danger button, the outbox, the signed-in shell):
 * dark colours change contrast and German text changes lengths, not which elements a screen has, so
 * the dark combinations visit only the sample. Also the language the browser
 * asks for, the language switch, the theme switch and prefers-color-scheme. One browser; one signed-in
 * user whose cookies each combination reuses.
 */
const e2e = setUpServiceAndBrowser({ developmentOutbox: true });
let signedInState: Awaited<ReturnType<BrowserContext["storageState"]>>;

beforeAll(async () => {
  const context = await e2e.browser.newContext();
  const page = await context.newPage();
  await signUpInBrowser(page, e2e.service.origin, {
    name: "Grace Hopper",
    email: "grace@example.com",
    password: "correct horse battery",
  });
  await page.getByTestId("home-title").waitFor();
  signedInState = await context.storageState();
  await context.close();
});

/** The page's background, which the theme decides (styles.css: --bg). */
const LIGHT_BG = "rgb(245, 246, 248)";
const DARK_BG = "rgb(15, 18, 23)";
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
/** The SignIn component's card: its own color-scheme (components.css) follows the theme chosen for the page. */
const signInCard = (page: Page) =>
  page.evaluate(() => {
    const style = getComputedStyle(document.querySelector('[data-testid="gh-sign-in"]')!);
    return { scheme: style.colorScheme, background: style.backgroundColor };
  });

const browserLocales: Record<Locale, string> = { en: "en-US", de: "de-DE" };

/** The screens axe scans in the other combinations (every screen is scanned in English, light). */
const SAMPLED = new Set([
  "/sign-in",
  "/sign-up",
  "/reset-password?error=INVALID_TOKEN",
  "/verified?error=TOKEN_EXPIRED",
  "/",
  "/account/security",
  "/account/sessions",
  "/account/delete",
  "/organization",
  "/dev/outbox",
]);
const screens = [
  ...signedOutScreens.map((screen) => ({ screen, signedIn: false })),
  ...signedInScreens.map((screen) => ({ screen, signedIn: true })),
];

async function checkScreen(page: Page, [path, ready, , title]: Screen, locale: Locale) {
  await page.goto(`${e2e.service.origin}${path}`);
  await page.getByTestId(ready).first().waitFor();
  await expect.poll(() => page.title()).toBe(`${translate(locale, title)} · Gatehouse`);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale);
  if (SAMPLED.has(path)) expect(await seriousA11yViolations(page)).toEqual([]);
}

it("samples only screens of the list (a renamed path must not drop out of the axe runs)", () => {
  expect([...SAMPLED].filter((path) => !screens.some(({ screen }) => screen[0] === path))).toEqual([]);
});

// English in light is accessibility.test.ts's own run (axe, lang and title on every screen).
const combinations = [
  ["en", "dark", "the sampled screens"],
  ["de", "light", "every screen"],
  ["de", "dark", "the sampled screens"],
] as const;

describe.each(combinations)("%s, %s: %s", (locale, scheme, which) => {
  const visited = which === "every screen" ? screens : screens.filter(({ screen }) => SAMPLED.has(screen[0]));
  let signedOut: Page;
  let signedIn: Page;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    const options = { locale: browserLocales[locale], colorScheme: scheme };
    const outside = await e2e.browser.newContext(options);
    const inside = await e2e.browser.newContext({ ...options, storageState: signedInState });
    contexts.push(outside, inside);
    // One page per context, reused screen after screen.
    signedOut = await outside.newPage();
    signedIn = await inside.newPage();
  });
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
  });

  it("takes the theme's colours", async () => {
    await signedOut.goto(`${e2e.service.origin}/sign-in`);
    await signedOut.getByTestId("sign-in-submit").waitFor();
    expect(await background(signedOut)).toBe(scheme === "dark" ? DARK_BG : LIGHT_BG);
  });

  it.each(visited)(
    "$screen.0 (signed in: $signedIn): lang and title, axe if sampled",
    async ({ screen, signedIn: inside }) => {
      await checkScreen(inside ? signedIn : signedOut, screen, locale);
    },
  );
});

describe("choosing the language", () => {
  it("speaks German to a browser that asks for it", async () => {
    const context = await e2e.browser.newContext({ locale: "de-DE" });
    const page = await context.newPage();
    await page.goto(`${e2e.service.origin}/sign-in`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Anmelden");
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("de");
    await page.getByTestId("sign-in-submit").click();
    const email = page.getByLabel("E-Mail-Adresse", { exact: true });
    await expect.poll(() => email.getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByTestId("sign-in-email-error").textContent()).toBe(
      "Geben Sie eine gültige E-Mail-Adresse ein.",
    );
    await context.close();
  });

  it("keeps the language chosen in the footer across a reload, over the browser's own", async () => {
    const context = await e2e.browser.newContext({ locale: "en-US", storageState: signedInState });
    const page = await context.newPage();
    await page.goto(`${e2e.service.origin}/account`);
    await page.getByTestId("profile-submit").waitFor();
    expect(await page.title()).toBe("Profile · Gatehouse");
    await page.getByLabel("Language").selectOption({ label: "Deutsch" });
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe("de");
    expect(await page.getByTestId("profile-submit").textContent()).toBe("Profil speichern");
    expect(await page.title()).toBe("Profil · Gatehouse");
    await page.reload();
    await page.getByTestId("profile-submit").waitFor();
    expect(await page.getByTestId("profile-submit").textContent()).toBe("Profil speichern");
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("de");
    // Requests carry the language on screen, so the mail they cause is German too.
    await page.getByTestId("resend-verification").click();
    await expect
      .poll(async () => {
        const mails: { to: string; subject: string }[] = await (
          await context.request.get(`${e2e.service.origin}/api/auth/dev/outbox`)
        ).json();
        return mails.filter((m) => m.to === "grace@example.com").map((m) => m.subject);
      })
      .toContain("Bestätigen Sie Ihre E-Mail-Adresse");
    // The shell's components take the app's words too.
    await page.getByTestId("user-button").click();
    expect(await page.getByTestId("sign-out").textContent()).toBe("Abmelden");
    await page.keyboard.press("Escape");
    await page.getByLabel("Sprache").selectOption({ label: "English" });
    await expect.poll(() => page.getByTestId("profile-submit").textContent()).toBe("Save profile");
    await context.close();
  });
});

describe("choosing the theme", () => {
  it("follows prefers-color-scheme until a theme is chosen, and keeps the choice across a reload", async () => {
    const context = await e2e.browser.newContext({ colorScheme: "dark" });
    const page = await context.newPage();
    await page.goto(`${e2e.service.origin}/sign-in`);
    await page.getByTestId("sign-in-submit").waitFor();
    expect(await background(page)).toBe(DARK_BG);
    expect(await page.evaluate(() => document.documentElement.dataset.theme ?? null)).toBeNull();
    // Form controls follow the scheme as well (color-scheme).
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe("light dark");

    const darkCard = await signInCard(page);
    expect(darkCard.scheme).toBe("light dark");

    await page.getByLabel("Theme").selectOption("light");
    await expect.poll(() => background(page)).toBe(LIGHT_BG);
    const lightCard = await signInCard(page);
    expect(lightCard.scheme).toBe("light");
    expect(lightCard.background).not.toBe(darkCard.background);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("light");
    await page.reload();
    await page.getByTestId("sign-in-submit").waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("light");
    expect(await background(page)).toBe(LIGHT_BG);
    expect(await page.getByLabel("Theme").inputValue()).toBe("light");

    await page.getByLabel("Theme").selectOption("system");
    await expect.poll(() => background(page)).toBe(DARK_BG);
    await page.reload();
    await page.getByTestId("sign-in-submit").waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme ?? null)).toBeNull();
    await context.close();
  });

  it("applies a chosen dark theme before the application renders (no light flash)", async () => {
    const context = await e2e.browser.newContext({ colorScheme: "light" });
    await context.addInitScript(() => localStorage.setItem("gatehouse.theme", "dark"));
    const page = await context.newPage();
    // Stop the application's script: only public/theme.js, in <head>, can set the theme now.
    await page.route("**/assets/*.js", (route) => route.abort());
    await page.goto(`${e2e.service.origin}/sign-in`);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    expect(await background(page)).toBe(DARK_BG);
    await context.close();
  });
});

/**
 * `npm run screenshots`: builds the application, starts the service on a temporary SQLite database
 * with the development outbox, and photographs the main screens with Debian's chromium at a phone's
 * and a desktop's width, light and dark, into docs/screenshots/ (the README and docs show them).
 */
import { mkdirSync } from "node:fs";
import { chromium, type Page } from "playwright-core";
import { demoOptions } from "../src/server/demo-options.js";
import { settle, startScreenshotService } from "./screenshot-service.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const OUT = "docs/screenshots";
const WIDTHS = [375, 1280] as const;
const SCHEMES = ["light", "dark"] as const;
/** Which screens, and the test id that says each is ready; "signed-in" ones need the session. */
const SCREENS: { name: string; path: string; ready: string; signedIn: boolean; act?: (page: Page) => Promise<void> }[] =
  [
    { name: "sign-in", path: "/sign-in", ready: "sign-in-submit", signedIn: false },
    { name: "sign-up", path: "/sign-up", ready: "sign-up-submit", signedIn: false },
    {
      name: "email-code",
      path: "/sign-in/code",
      ready: "email-code-submit",
      signedIn: false,
      act: async (page) => {
        await page.getByTestId("email-code-email").fill("grace@example.com");
        await page.getByTestId("email-code-submit").click();
        await page.getByTestId("email-code-otp").fill("4821");
      },
    },
    { name: "home", path: "/", ready: "home-next-steps", signedIn: true },
    { name: "account-security", path: "/account/security", ready: "change-password-submit", signedIn: true },
    { name: "outbox", path: "/dev/outbox", ready: "outbox-html", signedIn: true },
  ];
async function main() {
  const service = await startScreenshotService({
    host: "localhost",
    options: { ...demoOptions, rateLimit: { enabled: false } },
    mail: { devOutbox: true },
  });
  const { origin } = service;
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox"] });
  mkdirSync(OUT, { recursive: true });
  try {
    // One account, signed up as a person would; its verification mail fills the outbox.
    const setup = await browser.newPage();
    await setup.goto(`${origin}/sign-up`);
    await setup.getByTestId("sign-up-name").fill("Ada Lovelace");
    await setup.getByTestId("sign-up-email").fill("ada@example.com");
    await setup.getByTestId("sign-up-password").fill("correct horse battery staple");
    await setup.getByTestId("sign-up-submit").click();
    await setup.getByTestId("home-title").waitFor();
    // A mail for the outbox's screenshot, sent the way a new user would ask for it.
    await setup.getByTestId("home-resend-verification").click();
    await setup.getByTestId("home-verification-sent").waitFor();
    const state = await setup.context().storageState();
    await setup.close();
    let written = 0;
    for (const width of WIDTHS) {
      for (const colorScheme of SCHEMES) {
        for (const screen of SCREENS) {
          const context = await browser.newContext({
            viewport: { width, height: width < 600 ? 812 : 800 },
            colorScheme,
            storageState: screen.signedIn ? state : undefined,
          });
          const page = await context.newPage();
          await page.goto(`${origin}${screen.path}`);
          await page.getByTestId(screen.ready).first().waitFor();
          await screen.act?.(page);
          await settle(page);
          await page.screenshot({ path: `${OUT}/${screen.name}-${width}-${colorScheme}.png` });
          written++;
          await context.close();
        }
      }
    }
    console.log(`${written} screenshots in ${OUT}/`);
  } finally {
    await browser.close();
    await service.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

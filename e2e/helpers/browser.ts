import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type Browser, type BrowserContext, type BrowserServer, chromium, type Page } from "playwright-core";
import { inject } from "vitest";
import { CHROMIUM } from "../../test/helpers/prerequisites.js";

/** The chromium global-setup.ts starts for the whole run. */
export function launchBrowserServer(): Promise<BrowserServer> {
  return chromium.launchServer({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** A connection to the run's chromium; closing it closes this file's contexts, not the browser. */
export function connectBrowser(): Promise<Browser> {
  return chromium.connect(inject("browserEndpoint"));
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * Where the test service (service.ts) serves axe-core, cached for a year: a page loads it as one of
 * its own scripts (its CSP allows this origin's). Handing the 650 kB source to every page through
 * the devtools protocol cost about a third of a second each time, in this process, in chromium's
 * browser process and in the page.
 */
export const AXE_PATH = "/__e2e/axe.min.js";

/** The test service's answer for AXE_PATH. */
export function axeResponse(): Response {
  return new Response(axeSource, {
    headers: { "content-type": "text/javascript", "cache-control": "public, max-age=31536000, immutable" },
  });
}

/** Loads axe-core into the page: from the service, or through the protocol where the page's policy refuses it. */
async function loadAxe(page: Page): Promise<void> {
  if (await page.evaluate(() => "axe" in window)) return;
  const loaded = await page.evaluate(
    (src) =>
      new Promise<boolean>((resolve) => {
        const script = document.createElement("script");
        script.src = src;
        script.onload = () => resolve(true);
        script.onerror = () => resolve(false);
        document.head.append(script);
      }),
    AXE_PATH,
  );
  // Evaluated through the devtools protocol, which the page's CSP does not govern (the /error page
  // allows no script at all).
  if (!loaded) await page.evaluate(axeSource);
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** Runs axe-core in the page; returns the serious and critical violations (the ones that fail a test). */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  // Once per document: a page swept twice between navigations already holds axe.
  await loadAxe(page);
  const violations = await page.evaluate(async () => {
    const result = await (window as any).axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n: any) => n.target.join(" ")),
    }));
  });
  return (violations as AxeViolation[]).filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** With SCREENSHOTS=1, saves the page, 375 px wide, under docs/screenshots/ (the README shows them). */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.SCREENSHOTS !== "1") return;
  // A phone's width (the README shows the screens as a phone user meets them); the page, which a
  // test may go on using, gets its own size back afterwards.
  const size = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 812 });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  mkdirSync("docs/screenshots", { recursive: true });
  await page.screenshot({ path: `docs/screenshots/${name}.png`, fullPage: true });
  if (size) await page.setViewportSize(size);
}

/** Fills the sign-up form and waits for the home screen. */
export async function signUpInBrowser(
  page: Page,
  origin: string,
  user: { name: string; email: string; password: string },
) {
  await page.goto(`${origin}/sign-up`);
  await submitSignUpForm(page, user);
}

/** Fills and submits the sign-up form the page already shows (e.g. reached from an invitation). */
export async function submitSignUpForm(page: Page, user: { name: string; email: string; password: string }) {
  await page.getByTestId("sign-up-name").fill(user.name);
  await page.getByTestId("sign-up-email").fill(user.email);
  await page.getByTestId("sign-up-password").fill(user.password);
  await page.getByTestId("sign-up-submit").click();
}

export async function signInInBrowser(
  page: Page,
  origin: string,
  user: { email: string; password: string },
  path = "/sign-in",
) {
  await page.goto(`${origin}${path}`);
  await page.getByTestId("sign-in-email").fill(user.email);
  await page.getByTestId("sign-in-password").fill(user.password);
  await page.getByTestId("sign-in-submit").click();
}

/**
 * Signs a browser context in through the API, with the context's own cookies and user agent: for tests
 * whose subject is not the sign-in screen (one request, where the form costs two page loads).
 */
export async function signInThroughApi(
  context: BrowserContext,
  origin: string,
  user: { email: string; password: string },
): Promise<void> {
  const res = await context.request.post(`${origin}/api/auth/sign-in/email`, {
    data: { email: user.email, password: user.password },
    headers: { origin },
  });
  if (!res.ok()) throw new Error(`signing in ${user.email} answered ${res.status()}: ${await res.text()}`);
}

/** Signs a user up through the API, as a script would (no browser): their user id. */
export async function signUpThroughApi(
  origin: string,
  user: { name: string; email: string; password: string },
): Promise<string> {
  const res = await fetch(`${origin}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify(user),
  });
  if (!res.ok) throw new Error(`signing up ${user.email} answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { user: { id: string } }).user.id;
}

/** Signs out through the user menu in the header. */
export async function signOutInBrowser(page: Page) {
  await page.getByTestId("user-button").click();
  await page.getByTestId("sign-out").click();
}

/** A same-origin API call from the page, with its cookies, as the application makes them: GET without a body. */
export function apiFromPage(page: Page, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ([path, body]) => {
      const response = await fetch(`/api/auth${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    },
    [path, body] as const,
  );
}

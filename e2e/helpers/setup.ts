import type { Browser, BrowserContext, BrowserContextOptions } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject } from "vitest";
import { connectBrowser } from "./browser.js";
import { type Service, type ServiceInput, startService } from "./service.js";

export interface ServiceAndBrowser {
  /** The file's service; read inside hooks and tests (it starts in beforeAll). */
  readonly service: Service;
  readonly browser: Browser;
  /** A browser context closed after all tests, before the browser (for contexts a file keeps open). */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
}

/**
 * The hooks every browser test file shares: before all, the real service starts and the run's
 * Chromium (global-setup.ts) is connected to, side by side; after each test, the service must have
 * logged no error; after all, the tracked contexts, the connection and the service close. Call it at the top of the file, before hooks that use the service.
 * `input` may be a function, read in beforeAll, for options known only once an earlier beforeAll has
 * run (e.g. the address of an OpenID provider started there).
 */
export function setUpServiceAndBrowser(input: ServiceInput | (() => ServiceInput) = {}): ServiceAndBrowser {
  let service: Service | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  // Without the browser (global-setup.ts says why), nothing starts and every test is skipped.
  const browserUnavailable = inject("browserUnavailable");
  beforeEach((context) => {
    if (browserUnavailable) context.skip(browserUnavailable);
  });
  beforeAll(async () => {
    if (browserUnavailable) return;
    [service, browser] = await Promise.all([
      startService(typeof input === "function" ? input() : input),
      connectBrowser(),
    ]);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await service?.close();
  });
  const started = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`the ${name} is started in beforeAll: read it inside hooks and tests`);
    return value;
  };
  afterEach(() => {
    if (!browserUnavailable) expect(started(service, "service").loggedErrors).toEqual([]);
  });
  return {
    get service() {
      return started(service, "service");
    },
    get browser() {
      return started(browser, "browser");
    },
    async newContext(options) {
      const context = await started(browser, "browser").newContext(options);
      contexts.push(context);
      return context;
    },
  };
}

import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./helpers/browser.js";
import { type Service, startService } from "./helpers/service.js";

let service: Service;
let browser: Browser;
beforeAll(async () => {
  [service, browser] = await Promise.all([startService(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

describe("the API reference page", () => {
  it("renders the OpenAPI document in Chromium under its CSP, with nothing fetched from elsewhere", async () => {
    const page = await browser.newPage();
    const violations: string[] = [];
    const foreign: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    page.on("request", (request) => {
      if (!request.url().startsWith(service.origin) && !request.url().startsWith("data:")) foreign.push(request.url());
    });
    await page.goto(`${service.origin}/api/auth/reference`);
    // Swagger UI draws one block per operation; the sign-in one names its path.
    await page.locator(".opblock", { hasText: "/sign-in/email" }).first().waitFor({ timeout: 15_000 });
    expect(await page.locator(".opblock").count()).toBeGreaterThan(40);
    expect(violations).toEqual([]);
    expect(foreign).toEqual([]);
    await page.close();
  });
});

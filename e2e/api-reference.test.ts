import { describe, expect, it } from "vitest";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

const e2e = setUpServiceAndBrowser();

describe("the API reference page", () => {
  it("renders the OpenAPI document in Chromium under its CSP, with nothing fetched from elsewhere", async () => {
    const page = await e2e.browser.newPage();
    const violations: string[] = [];
    const foreign: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    page.on("request", (request) => {
      if (!request.url().startsWith(e2e.service.origin) && !request.url().startsWith("data:"))
        foreign.push(request.url());
    });
    await page.goto(`${e2e.service.origin}/api/auth/reference`);
    // Swagger UI draws one block per operation; the sign-in one names its path.
    await page.locator(".opblock", { hasText: "/sign-in/email" }).first().waitFor({ timeout: 15_000 });
    expect(await page.locator(".opblock").count()).toBeGreaterThan(40);
    expect(violations).toEqual([]);
    expect(foreign).toEqual([]);
    await page.close();
  });
});

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
    // The viewer draws one block per operation; the sign-in one names its path.
    const signIn = page.locator("details.operation", { hasText: "/sign-in/email" }).first();
    await signIn.waitFor({ timeout: 15_000 });
    expect(await page.locator("details.operation").count()).toBeGreaterThan(40);
    // Opened, it shows the body's fields; the filter hides what does not match.
    await signIn.locator("summary").click();
    await signIn.getByText("password: string").first().waitFor();
    await page.fill("#filter", "sign-in/email");
    expect(await page.locator("details.operation:not(.hidden)").count()).toBeLessThan(5);
    expect(violations).toEqual([]);
    expect(foreign).toEqual([]);
    await page.close();
  });
});

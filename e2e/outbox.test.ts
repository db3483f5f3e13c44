import { describe, expect, it } from "vitest";
import { seriousA11yViolations, signUpInBrowser } from "./helpers/browser.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/** Issue 31: the development outbox shows each mail as sent, HTML in a sandboxed frame or its plain text. */
const e2e = setUpServiceAndBrowser({ developmentOutbox: true });

describe("the development outbox", () => {
  it("shows the newest mail's HTML in a frame without scripts, the text part on a toggle, and the links", async () => {
    const user = { name: "Otto Outbox", email: `otto-${Date.now()}@example.com`, password: "correct horse battery" };
    const page = await (await e2e.newContext()).newPage();
    const refused: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    await signUpInBrowser(page, e2e.service.origin, user);
    await page.getByTestId("home-resend-verification").click();
    await page.getByTestId("home-verification-sent").waitFor();
    await page.goto(`${e2e.service.origin}/dev/outbox`);

    const frame = page.getByTestId("outbox-html").first();
    await frame.waitFor();
    expect(await frame.getAttribute("sandbox")).toBe("allow-popups allow-popups-to-escape-sandbox");
    expect(await frame.getAttribute("title")).toBe("Verify your email address");
    const inside = page.frameLocator('[data-testid="outbox-html"]').first();
    await expect.poll(() => inside.getByRole("link", { name: "Verify email" }).count()).toBe(1);
    expect(await inside.getByText("Gatehouse", { exact: true }).count()).toBe(1);
    // The layout's inline styles are allowed by hash: the button is drawn as a button.
    const background = await inside
      .getByRole("link", { name: "Verify email" })
      .evaluate((link) => getComputedStyle(link).backgroundColor);
    expect(background).toBe("rgb(29, 78, 216)");
    expect(refused).toEqual([]);

    const link = (await page.getByTestId("outbox-link").first().getAttribute("href")) ?? "";
    expect(link).toContain("/verify-email?token=");
    expect(await inside.getByRole("link", { name: "Verify email" }).getAttribute("href")).toBe(link);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByTestId("outbox-view-text").first().click();
    expect(await page.getByTestId("outbox-view-text").first().getAttribute("aria-pressed")).toBe("true");
    const text = (await page.getByTestId("outbox-text").first().textContent()) ?? "";
    expect(text.startsWith("Gatehouse")).toBe(true);
    expect(text).toContain(link);
    // The newest mail shows its text instead (the sign-up's own verification mail, below, keeps its frame).
    expect(await page.getByTestId("outbox-mail").first().getByTestId("outbox-html").count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The link still works from the list, as the other tests follow it.
    await page.goto(link);
    await page.getByTestId("verify-success").waitFor();
    await page.close();
  });
});

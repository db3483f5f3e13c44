import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { seriousA11yViolations, signInInBrowser, signUpInBrowser } from "./helpers/browser.js";
import { verifyEmailFromProfile } from "./helpers/service.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

const e2e = setUpServiceAndBrowser();

/** What the user's authenticator app shows, `steps` periods from now. */
function appCode(secret: string, steps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + steps * 30_000,
  });
}

describe("two-factor and sign-in links through the screens", () => {
  it("sets up TOTP on the security page, then signs in with a code from the app", async () => {
    const user = { name: "Careful", email: `careful-${Date.now()}@example.com`, password: "correct horse battery" };
    const page = await e2e.browser.newPage();
    await signUpInBrowser(page, e2e.service.origin, user);
    await page.getByTestId("home-title").waitFor();
    await verifyEmailFromProfile(e2e.service, page, user.email);

    await page.goto(`${e2e.service.origin}/account/security`);
    await page.getByTestId("two-factor-password").fill(user.password);
    await page.getByTestId("two-factor-enable").click();
    const secret = (await page.getByTestId("two-factor-secret").textContent()) ?? "";
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    await expect.poll(() => page.getByRole("img", { name: /QR code/ }).isVisible()).toBe(true);
    await page.getByTestId("two-factor-setup-code").fill(appCode(secret));
    await page.getByTestId("two-factor-confirm").click();
    // The state is said once, in the status line (issue 31: it used to repeat as a notice).
    await expect
      .poll(() => page.getByTestId("two-factor-status").textContent())
      .toBe("Two-factor authentication is on.");
    expect(await page.getByTestId("backup-codes").locator("li").count()).toBe(10);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.context().clearCookies();
    await signInInBrowser(page, e2e.service.origin, user);
    await page.waitForURL(/\/two-factor/);
    expect(await seriousA11yViolations(page)).toEqual([]);
    // Emphasis follows importance, not width: Verify is filled and as wide as the other ways.
    const width = async (testId: string) => Math.round((await page.getByTestId(testId).boundingBox())!.width);
    expect(await width("two-factor-submit")).toBe(await width("two-factor-use-backup"));
    expect(await page.getByTestId("two-factor-submit").getAttribute("class")).toContain("gh-primary");
    expect(await page.getByTestId("two-factor-use-backup").getAttribute("class")).toContain("gh-secondary");
    // The code of the next period: the one just used to confirm the set-up is not accepted twice.
    await page.getByTestId("two-factor-code").fill(appCode(secret, 1));
    await page.getByTestId("two-factor-submit").click();
    await page.getByTestId("home-title").waitFor();
    await page.close();
  });

  it("signs in with a mailed link: the link opens a page, and only its button signs in", async () => {
    const user = { name: "Linky", email: `linky-${Date.now()}@example.com`, password: "correct horse battery" };
    const setup = await e2e.browser.newPage();
    await signUpInBrowser(setup, e2e.service.origin, user);
    await setup.getByTestId("home-title").waitFor();
    await setup.close();

    const page = await (await e2e.browser.newContext()).newPage();
    await page.goto(`${e2e.service.origin}/sign-in`);
    await page.getByTestId("magic-link-link").click();
    await page.getByTestId("magic-link-email").fill(user.email);
    await page.getByTestId("magic-link-submit").click();
    await page.getByTestId("magic-link-sent").waitFor();
    const mail = await e2e.service.mail!.waitFor((m) => m.to === user.email && /sign-in link/.test(m.subject), 15_000);
    const link = /https?:\/\/\S+\/magic-link\?\S+/.exec(mail.text)?.[0] ?? "";
    await page.goto(link);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByTestId("magic-link-continue").click();
    await page.getByTestId("home-title").waitFor();
    await page.close();
  });

  it("a link opened in a browser that did not ask for it waits for the page's button", async () => {
    const email = `elsewhere-${Date.now()}@example.com`;
    const asker = await (await e2e.browser.newContext()).newPage();
    await asker.goto(`${e2e.service.origin}/sign-in/link`);
    await asker.getByTestId("magic-link-email").fill(email);
    await asker.getByTestId("magic-link-submit").click();
    await asker.getByTestId("magic-link-sent").waitFor();
    const mail = await e2e.service.mail!.waitFor((m) => m.to === email && /sign-in link/.test(m.subject), 15_000);
    const token = new URL(/https?:\/\/\S+\/magic-link\?\S+/.exec(mail.text)?.[0] ?? "").searchParams.get("token");
    const verify = `${e2e.service.origin}/api/auth/magic-link/verify?token=${token}&callbackURL=%2F`;

    // Another browser (an attacker's link, or the person's phone) lands on the confirmation page.
    const other = await (await e2e.browser.newContext()).newPage();
    await other.goto(verify);
    await other.getByTestId("magic-link-continue").waitFor();
    expect(new URL(other.url()).pathname).toBe("/magic-link");
    expect(await other.context().cookies()).toEqual([]);
    await other.close();

    // The browser that asked for it is signed in by the link itself.
    await asker.goto(verify);
    await asker.getByTestId("home-title").waitFor();
    await asker.close();
  });

  it("signs in with a code from the mail", async () => {
    const email = `coded-${Date.now()}@example.com`;
    const page = await (await e2e.browser.newContext()).newPage();
    await page.goto(`${e2e.service.origin}/sign-in`);
    await page.getByTestId("email-code-link").click();
    await page.getByTestId("email-code-email").fill(email);
    await page.getByTestId("email-code-submit").click();
    await page.getByTestId("email-code-sent").waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    const mail = await e2e.service.mail!.waitFor((m) => m.to === email && /sign-in code/.test(m.subject), 15_000);
    await page.getByTestId("email-code-otp").fill(/\b(\d{6})\b/.exec(mail.text)?.[1] ?? "");
    await page.getByTestId("email-code-submit").click();
    await page.getByTestId("home-title").waitFor();
    await page.close();
  });
});

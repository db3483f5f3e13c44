import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { seriousA11yViolations, signInInBrowser, signOutInBrowser, signUpInBrowser } from "./helpers/browser.js";
import { verifyByMailAndSignIn } from "./helpers/service.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/**
 * The mail flows in the browser, mail read from a real SMTP capture: sign-up -> verify -> sign-in,
 * password reset, password change that signs out the other device, account deletion.
 */
const e2e = setUpServiceAndBrowser({ options: { emailAndPassword: { requireEmailVerification: true } } });

const PASSWORD = "correct horse battery";
const mailTo = (email: string, subject: RegExp) =>
  e2e.service.mail!.waitFor((m) => m.to === email && subject.test(m.subject), 15_000);

/** Signs up, follows the verification link from the mail, and signs in. */
async function signUpAndVerify(page: Page, name: string, email: string) {
  await signUpInBrowser(page, e2e.service.origin, { name, email, password: PASSWORD });
  await verifyByMailAndSignIn(e2e.service, page, { email, password: PASSWORD });
  await page.getByTestId("home-title").waitFor();
}

describe("email verification", () => {
  it("refuses sign-in before verification, then verifies through the mailed link", async () => {
    const page = await (await e2e.browser.newContext()).newPage();
    const email = `verify-${Date.now()}@example.com`;
    await signUpInBrowser(page, e2e.service.origin, { name: "Vera", email, password: PASSWORD });
    await page.getByTestId("sign-up-check-mail").waitFor();
    await signInInBrowser(page, e2e.service.origin, { email, password: PASSWORD });
    await expect
      .poll(() => page.getByTestId("form-error").textContent())
      .toBe("Verify your email first: we have sent you a new link.");
    const mail = await mailTo(email, /verif/i);
    await page.goto(mail.links.find((l) => l.includes("/verify-email"))!);
    await page.getByTestId("verify-success").waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await signInInBrowser(page, e2e.service.origin, { email, password: PASSWORD });
    await page.getByTestId("home-title").waitFor();
    await page.goto(`${e2e.service.origin}/account`);
    await page.getByTestId("email-verified").waitFor();
  });

  it("shows a used or broken link's error in words", async () => {
    const page = await (await e2e.browser.newContext()).newPage();
    await page.goto(`${e2e.service.origin}/api/auth/verify-email?token=not-a-token&callbackURL=/verified`);
    await page.getByTestId("verify-error").waitFor();
    expect(await page.getByTestId("verify-error").textContent()).toBe("This link is invalid or has already been used.");
  });
});

describe("password reset", () => {
  it("mails a link, sets a new password, and only the new one signs in", async () => {
    const page = await (await e2e.browser.newContext()).newPage();
    const email = `reset-${Date.now()}@example.com`;
    await signUpAndVerify(page, "Rita Reset", email);
    await signOutInBrowser(page);
    await page.waitForURL(/\/sign-in/);

    await page.getByTestId("forgot-password-link").click();
    await page.getByTestId("forgot-password-email").fill(email);
    await page.getByTestId("forgot-password-submit").click();
    await page.getByTestId("forgot-password-sent").waitFor();
    const mail = await mailTo(email, /password/i);
    await page.goto(mail.links.find((l) => l.includes("/reset-password/"))!);
    await page.waitForURL(/\/reset-password\?token=/);
    await page.getByTestId("reset-password-new").fill("a brand new password");
    await page.getByTestId("reset-password-submit").click();
    await page.getByTestId("reset-password-done").waitFor();

    await signInInBrowser(page, e2e.service.origin, { email, password: PASSWORD });
    await page.getByTestId("form-error").waitFor();
    await signInInBrowser(page, e2e.service.origin, { email, password: "a brand new password" });
    await page.getByTestId("home-title").waitFor();
  });
});

describe("email change", () => {
  it("approves the change from the old address, verifies the new one, and shows it", async () => {
    const oldEmail = `old-${Date.now()}@example.com`;
    const newEmail = `new-${Date.now()}@example.com`;
    const page = await (await e2e.browser.newContext()).newPage();
    await signUpAndVerify(page, "Eli Email", oldEmail);
    await page.goto(`${e2e.service.origin}/account/security`);
    await page.getByTestId("change-email-new").fill(oldEmail.toUpperCase());
    await page.getByTestId("change-email-submit").click();
    expect(await page.getByTestId("change-email-new-error").textContent()).toBe("This is already your email.");
    await page.getByTestId("change-email-new").fill(newEmail);
    await page.getByTestId("change-email-submit").click();
    await page.getByTestId("security-notice").waitFor();

    // A verified address approves the change first; then the new address is verified.
    const approval = await mailTo(oldEmail, /change/i);
    await page.goto(approval.links.find((l) => l.includes("/verify-email"))!);
    await page.getByTestId("verify-change-approved").waitFor();
    const verification = await mailTo(newEmail, /verify/i);
    await page.goto(verification.links.find((l) => l.includes("/verify-email"))!);
    await page.getByTestId("verify-success").waitFor();
    await page.goto(`${e2e.service.origin}/account`);
    await expect.poll(() => page.getByTestId("email-verified").textContent()).toBe(`${newEmail} is verified.`);
  });
});

describe("password change and account deletion", () => {
  it("changes the password and signs out the other device", async () => {
    const email = `change-${Date.now()}@example.com`;
    const laptop = await (await e2e.browser.newContext()).newPage();
    await signUpAndVerify(laptop, "Carl Change", email);
    const phone = await (await e2e.browser.newContext()).newPage();
    await signInInBrowser(phone, e2e.service.origin, { email, password: PASSWORD });
    await phone.getByTestId("home-title").waitFor();

    await laptop.goto(`${e2e.service.origin}/account/security`);
    await laptop.getByTestId("change-password-current").fill("not my password");
    await laptop.getByTestId("change-password-new").fill("another good password");
    await laptop.getByTestId("change-password-submit").click();
    await expect.poll(() => laptop.getByTestId("form-error").textContent()).toBe("The current password is incorrect.");
    await laptop.getByTestId("change-password-current").fill(PASSWORD);
    await laptop.getByTestId("change-password-submit").click();
    await laptop.getByTestId("security-notice").waitFor();

    // Focus reads the session at most once per 5 s, and the browser may have just focused the tab.
    await expect
      .poll(
        async () => {
          await phone.evaluate(() => window.dispatchEvent(new Event("focus")));
          return phone.url();
        },
        { timeout: 15_000, interval: 1000 },
      )
      .toMatch(/\/sign-in/);
    await laptop.goto(`${e2e.service.origin}/account/sessions`);
    await expect.poll(() => laptop.getByTestId("session-row").count()).toBe(1);
  });

  it("deletes the account with its password; the email can sign up again", async () => {
    const email = `delete-${Date.now()}@example.com`;
    const page = await (await e2e.browser.newContext()).newPage();
    await signUpAndVerify(page, "Dora Delete", email);
    await page.goto(`${e2e.service.origin}/account/delete`);
    await page.getByTestId("delete-account-password").fill(PASSWORD);
    await page.getByTestId("delete-account-confirm").check();
    await page.getByTestId("delete-account-submit").click();
    await page.waitForURL(/\/sign-in/);
    await signInInBrowser(page, e2e.service.origin, { email, password: PASSWORD });
    await expect.poll(() => page.getByTestId("form-error").textContent()).toBe("Incorrect email or password.");
  });
});

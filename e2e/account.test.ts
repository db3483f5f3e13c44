import { describe, expect, it } from "vitest";
import { screenshot, signInInBrowser, signOutInBrowser, signUpInBrowser } from "./helpers/browser.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

const e2e = setUpServiceAndBrowser({ options: { audit: { enabled: true }, securityActivity: { enabled: true } } });

const newUser = (name: string) => ({
  name,
  email: `${name.toLowerCase()}-${Date.now()}@example.com`,
  password: "correct horse battery",
});

describe("signing up, out and in", () => {
  it("validates in the browser with the server's rules before sending anything", async () => {
    const page = await e2e.browser.newPage();
    await signUpInBrowser(page, e2e.service.origin, { name: "", email: "not-an-email", password: "short" });
    await expect.poll(() => page.getByTestId("sign-up-email-error").textContent()).toBe("Enter a valid email address.");
    expect(await page.getByTestId("sign-up-password-error").textContent()).toBe("Use at least 8 characters.");
    expect(await page.getByTestId("sign-up-name-error").textContent()).toBe("Enter your name.");
    expect(await e2e.service.auth.database.db.selectFrom("user").select("id").execute()).toEqual([]);
    await page.close();
  });

  it("signs up into the shell, signs out, and signs back in; a wrong password shows the mapped message", async () => {
    const user = newUser("Ann");
    const page = await e2e.browser.newPage();
    await signUpInBrowser(page, e2e.service.origin, user);
    await page.getByTestId("home-title").waitFor();
    expect(await page.getByTestId("home-title").textContent()).toBe("Welcome, Ann");
    await screenshot(page, "home");

    await signOutInBrowser(page);
    await page.waitForURL(`${e2e.service.origin}/sign-in`);

    await signInInBrowser(page, e2e.service.origin, { email: user.email, password: "wrong password!" });
    await expect.poll(() => page.getByTestId("form-error").textContent()).toBe("Incorrect email or password.");

    await page.getByTestId("sign-in-password").fill(user.password);
    await page.getByTestId("sign-in-submit").click();
    await page.getByTestId("home-title").waitFor();
    await page.close();
  });

  it("sends a signed-out visitor to sign-in and back to the page they asked for", async () => {
    const user = newUser("Bea");
    const context = await e2e.browser.newContext();
    const page = await context.newPage();
    await signUpInBrowser(page, e2e.service.origin, user);
    await page.getByTestId("home-title").waitFor();
    await signOutInBrowser(page);
    await page.waitForURL(/\/sign-in/);

    await page.goto(`${e2e.service.origin}/account/sessions`);
    await page.waitForURL(/\/sign-in\?redirectTo=%2Faccount%2Fsessions/);
    await page.getByTestId("sign-in-email").fill(user.email);
    await page.getByTestId("sign-in-password").fill(user.password);
    await page.getByTestId("sign-in-submit").click();
    await page.waitForURL(`${e2e.service.origin}/account/sessions`);
    await page.getByTestId("sessions-list").waitFor();
    await context.close();
  });

  it("updates the profile and shows the new name in the shell", async () => {
    const page = await e2e.browser.newPage();
    await signUpInBrowser(page, e2e.service.origin, newUser("Cid"));
    await page.getByTestId("home-title").waitFor();
    await page.goto(`${e2e.service.origin}/account`);
    await page.getByTestId("profile-name").fill("Cid Campeador");
    await page.getByTestId("profile-submit").click();
    await page.getByTestId("profile-saved").waitFor();
    await expect.poll(() => page.getByTestId("shell-user").textContent()).toBe("Cid Campeador");
    await screenshot(page, "account-profile");
    await page.close();
  });
});

describe("errors handed to the application", () => {
  it("shows `/?error=CODE` (a failed sign-in redirect) on the sign-in page in words", async () => {
    const page = await e2e.browser.newPage();
    await page.goto(`${e2e.service.origin}/?error=account_not_linked`);
    await page.waitForURL(/\/sign-in\?/);
    expect(await page.getByTestId("redirect-error").textContent()).toBe(
      "This account is not linked to yours yet. Sign in with your password, then link it.",
    );
    await page.close();
  });
});

describe("session revocation", () => {
  it("signs out the other device; that device sees it when it comes back to the tab", async () => {
    const user = newUser("Dee");
    const laptop = await e2e.browser.newContext({
      userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36",
    });
    const phone = await e2e.browser.newContext({
      userAgent: "Mozilla/5.0 (Linux; Android 14) Chrome/156.0 Mobile Safari/537.36",
      viewport: { width: 390, height: 844 },
    });
    const laptopPage = await laptop.newPage();
    await signUpInBrowser(laptopPage, e2e.service.origin, user);
    await laptopPage.getByTestId("home-title").waitFor();
    const phonePage = await phone.newPage();
    await signInInBrowser(phonePage, e2e.service.origin, user);
    await phonePage.getByTestId("home-title").waitFor();

    await laptopPage.goto(`${e2e.service.origin}/account/sessions`);
    await expect.poll(() => laptopPage.getByTestId("session-row").count()).toBe(2);
    expect(await laptopPage.getByTestId("sessions-list").textContent()).toContain("Chrome on Android");
    await screenshot(laptopPage, "account-sessions");
    await laptopPage.getByTestId("sessions-revoke-others").click();
    await laptopPage.getByTestId("confirm-accept").click();
    await expect.poll(() => laptopPage.getByTestId("session-row").count()).toBe(1);

    // The phone comes back to the tab: the focus refetch finds the session gone.
    // Focus reads the session at most once per 5 s, and the browser may have just focused the tab.
    await expect
      .poll(
        async () => {
          await phonePage.evaluate(() => window.dispatchEvent(new Event("focus")));
          return phonePage.url();
        },
        { timeout: 15_000, interval: 1000 },
      )
      .toMatch(/\/sign-in/);
    // The laptop is still signed in.
    await laptopPage.reload();
    await laptopPage.getByTestId("sessions-list").waitFor();
    await laptop.close();
    await phone.close();
  });
});

describe("security activity", () => {
  it("shows sign-ins and devices; the new-device mail's link signs out everywhere and resets the password", async () => {
    const user = newUser("Eve");
    const laptop = await e2e.browser.newContext({
      userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/156.0.0.0 Safari/537.36",
    });
    const phone = await e2e.browser.newContext({
      userAgent: "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/156.0.0.0 Mobile Safari/537.36",
    });
    const laptopPage = await laptop.newPage();
    await signUpInBrowser(laptopPage, e2e.service.origin, user);
    await laptopPage.getByTestId("home-title").waitFor();
    const phonePage = await phone.newPage();
    await signInInBrowser(phonePage, e2e.service.origin, user);
    await phonePage.getByTestId("home-title").waitFor();

    await laptopPage.goto(`${e2e.service.origin}/account/security`);
    await expect.poll(() => laptopPage.getByTestId("activity-device").count()).toBe(2);
    expect(await laptopPage.getByTestId("activity-devices").textContent()).toContain("Chrome 156 on Android");
    expect(await laptopPage.getByTestId("activity-sign-ins").textContent()).toContain("Chrome 156 on Android");
    await screenshot(laptopPage, "account-security-activity");

    // The phone was a device the account had not used: its owner was mailed.
    const mail = await e2e.service.mail!.waitFor(
      (m) => m.to === user.email && m.subject === "New sign-in to your account",
    );
    const link = mail.links.find((l) => l.includes("/secure-account?token="));
    expect(link).toBeDefined();
    const owner = await (await e2e.browser.newContext()).newPage();
    await owner.goto(link as string);
    await owner.getByTestId("secure-account-submit").click();
    await owner.waitForURL(/\/reset-password\?token=/);
    await owner.getByTestId("reset-password-new").fill("a brand new password");
    await owner.getByTestId("reset-password-submit").click();
    await owner.getByTestId("reset-password-done").waitFor();

    // Both devices were signed out.
    await laptopPage.reload();
    await laptopPage.waitForURL(/\/sign-in/);
    await owner.close();
    await laptop.close();
    await phone.close();
  });
});

describe("loading", () => {
  it("asks for the session and the organization state at once, not one after another", async () => {
    const page = await e2e.browser.newPage();
    await signUpInBrowser(page, e2e.service.origin, newUser("Eve"));
    await page.getByTestId("home-title").waitFor();
    // With an active organization there is something to ask about on every page.
    await page.evaluate(async () => {
      await fetch("/api/auth/organization/create", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "Eve's", slug: `eve-${Date.now()}` }),
      });
      await fetch("/api/auth/get-session?disableCookieCache=true");
    });
    await page.reload();
    await page.getByTestId("home-title").waitFor();
    // Watch the page's own fetch calls (the requests still go to the real server).
    await page.addInitScript(() => {
      const log: string[] = [];
      (window as any).__fetchLog = log;
      const original = window.fetch.bind(window);
      window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
        const path = new URL(String(input instanceof Request ? input.url : input), location.href).pathname;
        log.push(`call ${path}`);
        return original(input, init).finally(() => log.push(`done ${path}`));
      };
    });
    await page.reload();
    await page.getByTestId("home-title").waitFor();
    const log: string[] = await page.evaluate(() => (window as any).__fetchLog);
    const firstDone = log.findIndex((entry) => entry.startsWith("done"));
    const callsBeforeAnyAnswer = log.slice(0, firstDone);
    for (const path of [
      "/api/auth/get-session",
      "/api/auth/organization/get-full-organization",
      "/api/auth/organization/list",
      "/api/auth/organization/get-active-member",
    ]) {
      expect(callsBeforeAnyAnswer).toContain(`call ${path}`);
    }
    await page.close();
  });
});

import { Secret, TOTP } from "otpauth";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { translate } from "../src/i18n/index.js";
import { seriousA11yViolations, signInInBrowser, signUpInBrowser } from "./helpers/browser.js";
import { verifyEmailFromProfile } from "./helpers/service.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/**
 * Issue 31: the account screens are the exported UserProfile, and the invitation page is the
 * exported AcceptInvitation, with the designer's findings fixed: a "Security" tab, one primary
 * action per screen, a menu of fixed width, two-factor said once with spaced buttons, readable codes
 * with a Copy button and a count of those left, a helpful reused-code message, a notice after
 * deleting the account; and a signed-out invitee who signs up with the invited address and joins.
 */
const e2e = setUpServiceAndBrowser({ options: { audit: { enabled: true }, securityActivity: { enabled: true } } });
const PASSWORD = "correct horse battery";
const newUser = (name: string) => ({
  name,
  email: `${name.toLowerCase()}-${Date.now()}@example.com`,
  password: PASSWORD,
});

function appCode(secret: string, steps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + steps * 30_000,
  });
}

const tabs = ["profile", "security", "sessions", "linked", "delete"] as const;
const paths = {
  profile: "/account",
  security: "/account/security",
  sessions: "/account/sessions",
  linked: "/account/linked",
  delete: "/account/delete",
};

async function signedInPage(user: { name: string; email: string; password: string }, locale = "en-US"): Promise<Page> {
  const context = await e2e.newContext({ viewport: { width: 1100, height: 900 }, locale });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: e2e.service.origin });
  const page = await context.newPage();
  await signUpInBrowser(page, e2e.service.origin, user);
  await page.getByTestId("home-title").waitFor();
  return page;
}

describe("UserProfile as the account pages", () => {
  it("has a Security tab, a menu of one width, one primary action per screen, and no axe findings", async () => {
    const page = await signedInPage(newUser("Tabs"));
    const widths = new Set<number>();
    for (const tab of tabs) {
      await page.goto(`${e2e.service.origin}${paths[tab]}`);
      const profile = page.getByTestId("gh-user-profile");
      await expect.poll(() => profile.getAttribute("data-section")).toBe(tab);
      await page.getByTestId(`profile-nav-${tab}`).and(page.locator('[aria-current="page"]')).waitFor();
      // Let the section's data arrive before measuring and checking.
      await page.waitForLoadState("networkidle");
      widths.add(Math.round((await page.locator(".gh-profile-nav").boundingBox())!.width));
      expect(await profile.locator(".gh-primary").count()).toBeLessThanOrEqual(1);
      expect(await seriousA11yViolations(page)).toEqual([]);
    }
    expect(widths.size).toBe(1);
    expect(await page.getByTestId("profile-nav-security").textContent()).toBe("Security");
    // The menu goes through the router: no full page load between sections.
    await page.evaluate(() => Object.assign(window, { stayed: true }));
    await page.getByTestId("profile-nav-security").click();
    await page.waitForURL(`${e2e.service.origin}/account/security`);
    await page.getByTestId("change-password-submit").waitFor();
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    expect(await page.getByTestId("change-password-submit").getAttribute("class")).toContain("gh-primary");
    expect(await page.title()).toBe("Security · Gatehouse");
    await page.context().close();
  });

  it("two-factor: said once, spaced buttons, readable codes with Copy, the count left, and a clear reused-code message", async () => {
    const user = newUser("Codes");
    const page = await signedInPage(user);
    await verifyEmailFromProfile(e2e.service, page, user.email);
    await page.goto(`${e2e.service.origin}/account/security`);
    await page.getByTestId("two-factor-password").fill(user.password);
    await page.getByTestId("two-factor-enable").click();
    const secret = (await page.getByTestId("two-factor-secret").textContent()) ?? "";
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    const fontSize = async (testId: string) =>
      Number.parseFloat(await page.getByTestId(testId).evaluate((node) => getComputedStyle(node).fontSize));
    expect(await fontSize("two-factor-secret")).toBeGreaterThanOrEqual(16);
    await page.getByTestId("two-factor-secret-copy").click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await page.getByTestId("two-factor-setup-code").fill(appCode(secret));
    await page.getByTestId("two-factor-confirm").click();

    // The codes: readable, copied in one go; "is on" said once.
    const codes = page.getByTestId("backup-codes").locator("li");
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    expect(
      await codes.first().evaluate((node) => Number.parseFloat(getComputedStyle(node).fontSize)),
    ).toBeGreaterThanOrEqual(16);
    const shown = await codes.allTextContents();
    await page.getByTestId("backup-codes-copy").click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${shown.join("\n")}\n`);
    const on = "Two-factor authentication is on.";
    const profileText = (await page.getByTestId("gh-user-profile").textContent()) ?? "";
    expect(profileText.split(on).length - 1).toBe(1);
    const renew = (await page.getByTestId("two-factor-new-codes").boundingBox())!;
    const off = (await page.getByTestId("two-factor-disable").boundingBox())!;
    expect(off.x - (renew.x + renew.width)).toBeGreaterThanOrEqual(8);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Another browser signs in with a backup code; the count goes down, and reusing it says why it fails.
    const other = await e2e.newContext({ viewport: { width: 1100, height: 900 } });
    const phone = await other.newPage();
    await signInInBrowser(phone, e2e.service.origin, user);
    await phone.waitForURL(/\/two-factor/);
    await phone.getByTestId("two-factor-use-backup").click();
    await phone.getByTestId("two-factor-code").fill(shown[0]!);
    await phone.getByTestId("two-factor-submit").click();
    await phone.getByTestId("home-title").waitFor();
    await other.clearCookies();
    await signInInBrowser(phone, e2e.service.origin, user);
    await phone.waitForURL(/\/two-factor/);
    await phone.getByTestId("two-factor-use-backup").click();
    await phone.getByTestId("two-factor-code").fill(shown[0]!);
    await phone.getByTestId("two-factor-submit").click();
    await expect.poll(() => phone.getByTestId("form-error").textContent()).toContain("already been used");
    expect(await phone.getByTestId("form-error").textContent()).toContain("Security");

    await page.reload();
    await expect
      .poll(() => page.getByTestId("backup-codes-remaining").textContent())
      .toBe("9 unused backup codes left. Each one works once.");
    await other.close();
    await page.context().close();
  });

  it("speaks German, and after deleting the account the sign-in page says so", async () => {
    const user = newUser("Loeschen");
    const page = await signedInPage(user, "de-DE");
    await page.goto(`${e2e.service.origin}/account/security`);
    await page.getByTestId("change-password-submit").waitFor();
    const de = (key: Parameters<typeof translate>[1]) => translate("de", key);
    expect(await page.getByTestId("profile-nav-security").textContent()).toBe(de("security.title"));
    expect(await page.getByTestId("gh-user-profile").getByRole("heading", { level: 1 }).textContent()).toBe(
      de("profile.account"),
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByTestId("profile-nav-delete").click();
    await page.getByTestId("delete-account-password").fill(user.password);
    await page.getByTestId("delete-account-confirm").check();
    await page.getByTestId("delete-account-submit").click();
    await page.waitForURL(/\/sign-in\?accountDeleted=true/);
    expect(await page.getByTestId("account-deleted").textContent()).toBe(de("profile.deleted"));
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.context().close();
  });
});

describe("AcceptInvitation", () => {
  it("a signed-out invitee sees who invited them, creates an account with the invited address, and joins", async () => {
    const owner = newUser("Inviter");
    const ownerPage = await signedInPage(owner);
    await verifyEmailFromProfile(e2e.service, ownerPage, owner.email);
    const post = async (path: string, data: unknown) => {
      const res = await ownerPage.request.post(`${e2e.service.origin}/api/auth${path}`, {
        data,
        headers: { origin: e2e.service.origin },
      });
      expect(res.status(), await res.text()).toBe(200);
      return res.json();
    };
    await post("/organization/create", { name: "Harbour Co", slug: `harbour-${Date.now()}` });
    const email = `newcomer-${Date.now()}@example.com`;
    const invitation = await post("/organization/invite-member", { email, role: "admin" });

    const context = await e2e.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${e2e.service.origin}/accept-invitation/${invitation.id}`);
    await page.getByTestId("invitation-summary").waitFor();
    expect(await page.getByTestId("invitation-summary").textContent()).toBe(
      "Inviter invites you to join Harbour Co as Admin.",
    );
    expect(await page.getByTestId("invitation-sign-up").getAttribute("class")).toContain("gh-primary");
    expect(await page.getByTestId("invitation-sign-in").getAttribute("class")).toContain("gh-secondary");
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByTestId("invitation-sign-up").click();
    await page.waitForURL(/\/sign-up\?/);
    expect(await page.getByTestId("sign-up-email").inputValue()).toBe(email);
    await page.getByTestId("sign-up-name").fill("Newcomer");
    await page.getByTestId("sign-up-password").fill(PASSWORD);
    await page.getByTestId("sign-up-submit").click();
    await page.waitForURL(`${e2e.service.origin}/accept-invitation/${invitation.id}`);
    await page.getByTestId("invitation-accept").click();
    await page.waitForURL(`${e2e.service.origin}/organization`);
    await expect.poll(() => page.getByTestId("org-switcher-active").textContent()).toBe("Harbour Co");
    await context.close();
    await ownerPage.context().close();
  });

  it("says in English and German that an invitation is gone", async () => {
    const context = await e2e.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${e2e.service.origin}/accept-invitation/no-such-invitation`);
    await page.getByTestId("invitation-error").waitFor();
    expect(await page.getByTestId("invitation-error").textContent()).toBe(translate("en", "invitation.notFound"));
    await page.evaluate(() => localStorage.setItem("gatehouse.locale", "de"));
    await page.reload();
    await expect
      .poll(() => page.getByTestId("invitation-error").textContent())
      .toBe(translate("de", "invitation.notFound"));
    expect(await seriousA11yViolations(page)).toEqual([]);
    await context.close();
  });
});

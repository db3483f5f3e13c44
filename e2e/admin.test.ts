import type { BrowserContext, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import {
  screenshot,
  seriousA11yViolations,
  signInInBrowser,
  signInThroughApi,
  signUpThroughApi,
} from "./helpers/browser.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/**
 * The admin area in the browser: an admin finds, bans, unbans, impersonates and deletes users;
 * a plain user never sees it and is refused at its URL.
 */
const e2e = setUpServiceAndBrowser();
let adminContext: BrowserContext;
let bobContext: BrowserContext;
let adminPage: Page;
let bobPage: Page;
let bobId: string;
const PASSWORD = "correct horse battery";
const admin = { name: "Ada Admin", email: "ada.admin@example.com", password: PASSWORD };
const bob = { name: "Bob Target", email: "bob.target@example.com", password: PASSWORD };
const FILLERS = 22;

const signUpByApi = (user: { name: string; email: string; password: string }) =>
  signUpThroughApi(e2e.service.origin, user);

beforeAll(async () => {
  const adminId = await signUpByApi(admin);
  await e2e.service.auth.database.db.updateTable("user").set({ role: "admin" }).where("id", "=", adminId).execute();
  bobId = await signUpByApi(bob);
  for (let i = 1; i <= FILLERS; i++) {
    await signUpByApi({
      name: `Filler ${String(i).padStart(2, "0")}`,
      email: `filler${i}@example.com`,
      password: PASSWORD,
    });
  }
  adminContext = await e2e.browser.newContext({ viewport: { width: 1100, height: 800 } });
  await signInThroughApi(adminContext, e2e.service.origin, admin);
  adminPage = await adminContext.newPage();
  await adminPage.goto(`${e2e.service.origin}/`);
  await adminPage.getByTestId("home-title").waitFor();
  bobContext = await e2e.browser.newContext();
  await signInThroughApi(bobContext, e2e.service.origin, bob);
  bobPage = await bobContext.newPage();
  await bobPage.goto(`${e2e.service.origin}/`);
  await bobPage.getByTestId("home-title").waitFor();
});

const userCount = async () =>
  Number(
    (
      await e2e.service.auth.database.db
        .selectFrom("user")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirst()
    )?.n,
  );

async function openUser(page: Page, search: string) {
  await page.goto(`${e2e.service.origin}/admin`);
  await page.getByTestId("admin-search").fill(search);
  await page.getByTestId("admin-search-field").selectOption("name");
  await page.getByTestId("admin-search-submit").click();
  await expect.poll(() => page.getByTestId("admin-user-row").count()).toBe(1);
  await page.getByTestId("admin-user-link").click();
  await page.getByTestId("admin-user-profile").waitFor();
}

describe("the admin area", () => {
  it("lists users with the total, pages through them, filters and searches by name", async () => {
    await adminPage.goto(`${e2e.service.origin}/`);
    await adminPage.getByRole("link", { name: "Admin", exact: true }).click();
    await adminPage.getByTestId("admin-users-list").waitFor();
    const total = await userCount();
    await expect.poll(() => adminPage.getByTestId("pager-status").textContent()).toBe(`1–20 of ${total}`);
    expect(await adminPage.getByTestId("admin-user-row").count()).toBe(20);
    await screenshot(adminPage, "admin-users");
    await adminPage.getByTestId("pager-next").click();
    await expect.poll(() => adminPage.getByTestId("pager-status").textContent()).toBe(`21–${total} of ${total}`);

    await adminPage.getByTestId("admin-filter").selectOption("admins");
    await adminPage.getByTestId("admin-search-submit").click();
    await expect.poll(() => adminPage.getByTestId("pager-status").textContent()).toBe("1–1 of 1");
    expect(await adminPage.getByTestId("admin-users-list").textContent()).toContain(admin.email);

    await openUser(adminPage, "bob");
    expect(adminPage.url()).toBe(`${e2e.service.origin}/admin/users/${bobId}`);
    expect(await adminPage.getByTestId("admin-user-email").textContent()).toContain(bob.email);
    // The API sign-up's session and the browser's.
    await expect.poll(() => adminPage.getByTestId("admin-session-row").count()).toBe(2);
    expect(await adminPage.getByTestId("admin-accounts-list").textContent()).toContain("Email and password");
  });

  it("bans a user, whose other browser loses its session; unbanning lets them back in", async () => {
    await openUser(adminPage, "bob");
    await adminPage.getByTestId("admin-ban-reason").fill("Spamming the forum");
    await adminPage.getByTestId("admin-ban-duration").selectOption("86400");
    await adminPage.getByTestId("admin-ban-submit").click();
    await expect.poll(() => adminPage.getByTestId("admin-notice").textContent()).toBe("User banned.");
    await adminPage.getByTestId("admin-user-banned").waitFor();
    expect(await adminPage.getByTestId("admin-user-ban-reason").textContent()).toBe("Spamming the forum");

    await bobPage.reload();
    await bobPage.waitForURL(/\/sign-in/);
    await signInInBrowser(bobPage, e2e.service.origin, bob);
    await bobPage.getByTestId("form-error").waitFor();
    expect(bobPage.url()).toContain("/sign-in");

    await adminPage.getByTestId("admin-unban").click();
    await expect.poll(() => adminPage.getByTestId("admin-notice").textContent()).toBe("Ban lifted.");
    // The notice shows before the user record is read again: wait for the badge the admin sees to go.
    await expect.poll(() => adminPage.getByTestId("admin-user-banned").count()).toBe(0);
    await signInInBrowser(bobPage, e2e.service.origin, bob);
    await bobPage.getByTestId("home-title").waitFor();
  });

  it("impersonates a user with a banner on every page, acts as them, and stops back on their admin page", async () => {
    await openUser(adminPage, "bob");
    await adminPage.getByTestId("admin-impersonate").click();
    await adminPage.waitForURL(`${e2e.service.origin}/`);
    await expect
      .poll(() => adminPage.getByTestId("impersonation-banner").textContent())
      .toContain(`You are acting as ${bob.name}`);
    expect(await adminPage.getByTestId("home-title").textContent()).toBe(`Welcome, ${bob.name}`);
    expect(await adminPage.getByRole("link", { name: "Admin", exact: true }).count()).toBe(0);

    // Acting as Bob: an organization created now is Bob's.
    await adminPage.goto(`${e2e.service.origin}/organizations/new`);
    await adminPage.getByTestId("impersonation-banner").waitFor();
    await adminPage.getByTestId("org-create-name").fill("Bob Bakery");
    await adminPage.getByTestId("org-create-submit").click();
    await adminPage.waitForURL(`${e2e.service.origin}/organization`);

    await adminPage.getByTestId("stop-impersonating").click();
    await adminPage.waitForURL(`${e2e.service.origin}/admin/users/${bobId}`);
    await expect.poll(() => adminPage.getByTestId("shell-user").textContent()).toBe(admin.name);
    await expect.poll(() => adminPage.getByTestId("impersonation-banner").count()).toBe(0);
    await expect.poll(() => adminPage.getByTestId("admin-memberships-list").textContent()).toContain("Bob Bakery");
    await screenshot(adminPage, "admin-user");

    await adminPage.getByRole("link", { name: "Audit log" }).click();
    await adminPage.getByTestId("admin-audit-list").waitFor();
    const actions = await adminPage.getByTestId("admin-audit-row").locator("strong").allTextContents();
    expect(actions.slice(0, 4)).toEqual(["user.stop-impersonating", "user.impersonate", "user.unban", "user.ban"]);
  });

  it("deletes a user only after the confirmation", async () => {
    await openUser(adminPage, "Filler 07");
    const submit = adminPage.getByTestId("admin-delete-submit");
    expect(await submit.isDisabled()).toBe(true);
    await adminPage.getByTestId("admin-delete-confirm").check();
    await submit.click();
    await adminPage.waitForURL(`${e2e.service.origin}/admin`);
    const left = await e2e.service.auth.database.db
      .selectFrom("user")
      .select("id")
      .where("email", "=", "filler7@example.com")
      .execute();
    expect(left).toEqual([]);
  });

  it("creates a user, edits their name, and the audit log names actor and target", async () => {
    await adminPage.goto(`${e2e.service.origin}/admin`);
    await adminPage.getByTestId("admin-create-card").waitFor();
    // A taken email comes back as the server's code, in the admin's words.
    await adminPage.getByTestId("admin-create-email").fill(bob.email);
    await adminPage.getByTestId("admin-create-name").fill("Second Bob");
    await adminPage.getByTestId("admin-create-submit").click();
    await expect
      .poll(() => adminPage.getByTestId("admin-create-card").getByTestId("form-error").textContent())
      .toBe("Another account already uses this email.");

    await adminPage.getByTestId("admin-create-email").fill("carol.created@example.com");
    await adminPage.getByTestId("admin-create-name").fill("Carol Created");
    await adminPage.getByTestId("admin-create-password").fill(PASSWORD);
    await adminPage.getByTestId("admin-create-role").selectOption("user");
    await adminPage.getByTestId("admin-create-submit").click();
    await adminPage.waitForURL(/\/admin\/users\/[^/]+$/);
    const carolId = adminPage.url().split("/").pop();
    await adminPage.getByTestId("admin-user-profile").waitFor();
    expect(await adminPage.getByTestId("admin-user-email").textContent()).toContain("carol.created@example.com");
    expect(await adminPage.getByTestId("admin-accounts-list").textContent()).toContain("Email and password");

    await adminPage.getByTestId("admin-edit-name").fill("Carol Renamed");
    await adminPage.getByTestId("admin-edit-email-verified").check();
    await adminPage.getByTestId("admin-edit-submit").click();
    await expect.poll(() => adminPage.getByTestId("admin-notice").textContent()).toBe("Profile saved.");
    await expect
      .poll(() => adminPage.getByTestId("admin-user-profile").getByRole("heading").textContent())
      .toBe("Carol Renamed");
    expect(await adminPage.getByTestId("admin-user-email").textContent()).toContain("(verified)");
    await screenshot(adminPage, "admin-user-edit");

    await adminPage.getByRole("link", { name: "Audit log" }).click();
    await adminPage.getByTestId("admin-audit-list").waitFor();
    const latest = adminPage.getByTestId("admin-audit-row").first();
    expect(await latest.locator("strong").textContent()).toBe("user.update");
    expect(await latest.getByTestId("admin-audit-actor").textContent()).toBe(`${admin.name} <${admin.email}>`);
    expect(await latest.getByTestId("admin-audit-target").textContent()).toBe(
      "Carol Renamed <carol.created@example.com>",
    );
    await screenshot(adminPage, "admin-audit");
    await latest.getByTestId("admin-audit-target").click();
    await adminPage.waitForURL(`${e2e.service.origin}/admin/users/${carolId}`);
  });

  it("a plain user sees no admin nav and is refused at the admin URL", async () => {
    await bobPage.goto(`${e2e.service.origin}/`);
    await bobPage.getByTestId("home-title").waitFor();
    expect(await bobPage.getByRole("link", { name: "Admin", exact: true }).count()).toBe(0);
    await bobPage.goto(`${e2e.service.origin}/admin`);
    await bobPage.getByTestId("admin-refused").waitFor();
    expect(await bobPage.getByTestId("admin-users-list").count()).toBe(0);
    await bobPage.goto(`${e2e.service.origin}/admin/users/${bobId}`);
    await bobPage.getByTestId("admin-refused").waitFor();
  });
});

describe("admin screens: accessibility and phone width", () => {
  const screens = () => [
    ["/admin", "admin-users-list"],
    [`/admin/users/${bobId}`, "admin-user-profile"],
    ["/admin/audit", "admin-audit-list"],
  ];

  it("have no serious or critical axe violations", async () => {
    for (const [path, ready] of screens()) {
      const page = await adminContext.newPage();
      await page.goto(`${e2e.service.origin}${path}`);
      await page.getByTestId(ready!).waitFor();
      expect({ path, violations: await seriousA11yViolations(page) }).toEqual({ path, violations: [] });
      await page.close();
    }
  });

  it("fit a 360 px wide phone", async () => {
    const phone = await e2e.browser.newContext({
      viewport: { width: 360, height: 740 },
      storageState: await adminContext.storageState(),
    });
    for (const [path, ready] of screens()) {
      const page = await phone.newPage();
      await page.goto(`${e2e.service.origin}${path}`);
      await page.getByTestId(ready!).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
      await page.close();
    }
    await phone.close();
  });
});

import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { translate } from "../src/i18n/index.js";
import { insertCredentialAccount } from "../src/server/store/accounts.js";
import { insertUser } from "../src/server/store/users.js";
import { testHasher } from "../test/helpers/server.js";
import { seriousA11yViolations, signInThroughApi } from "./helpers/browser.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/**
 * The header's components and the organization screens, driven by keyboard where a keyboard user
 * would: the OrganizationSwitcher and UserButton menus, confirmation dialogs before destructive
 * actions, controls hidden from roles the server would refuse, and pending invitations.
 */
const PASSWORD = "correct horse battery";
// An admin by `admin.adminUserIds` only: their role stays "user".
const CONFIGURED_ADMIN_ID = "configured-admin-0001";
// The development outbox on: /dev/components, where the screen components are rendered, is served with it.
const e2e = setUpServiceAndBrowser({
  developmentOutbox: true,
  options: { admin: { adminUserIds: [CONFIGURED_ADMIN_ID] } },
});
const person = (name: string) => ({
  name,
  email: `${name.split(" ")[0]!.toLowerCase()}@example.com`,
  password: PASSWORD,
});
const owner = person("Olga Owner");
const admin = person("Adam Admin");
const member = person("Mia Member");
const invitee = person("Ivy Invitee");
const roleAdmin = person("Rita Roleadmin");
const configuredAdmin = person("Carl Configured");
let acmeId: string;
const ids: Record<string, string> = {};

async function signUpByApi(user: { name: string; email: string; password: string }): Promise<string> {
  const res = await fetch(`${e2e.service.origin}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: e2e.service.origin },
    body: JSON.stringify(user),
  });
  expect(res.status).toBe(200);
  const id = ((await res.json()) as { user: { id: string } }).user.id;
  // Invitations are listed only to verified addresses.
  await e2e.service.auth.database.db.updateTable("user").set({ emailVerified: true }).where("id", "=", id).execute();
  return id;
}

/** A signed-in page in its own browser context. */
async function pageFor(user: { email: string; password: string }): Promise<Page> {
  const context = await e2e.newContext({ viewport: { width: 1100, height: 800 } });
  await signInThroughApi(context, e2e.service.origin, user);
  const page = await context.newPage();
  await page.goto(`${e2e.service.origin}/`);
  await page.getByTestId("home-title").waitFor();
  return page;
}

async function api(page: Page, path: string, data: unknown) {
  const res = await page.request.post(`${e2e.service.origin}/api/auth${path}`, {
    data,
    headers: { origin: e2e.service.origin },
  });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

/** A signed-in page with Acme as the active organization (members added server-side have none yet). */
async function pageInAcme(user: { email: string; password: string }): Promise<Page> {
  const page = await pageFor(user);
  await api(page, "/organization/set-active", { organizationId: acmeId });
  return page;
}

const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? null);
const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent ?? null);

beforeAll(async () => {
  for (const [key, user] of Object.entries({ owner, admin, member, invitee, roleAdmin })) {
    ids[key] = await signUpByApi(user);
  }
  await e2e.service.auth.database.db
    .updateTable("user")
    .set({ role: "admin" })
    .where("id", "=", ids.roleAdmin!)
    .execute();
  const now = new Date();
  await insertUser(e2e.service.auth.database.db, {
    id: CONFIGURED_ADMIN_ID,
    ...configuredAdmin,
    emailVerified: true,
    image: null,
    role: "user",
    now,
  });
  await insertCredentialAccount(e2e.service.auth.database.db, {
    id: "configured-admin-account",
    userId: CONFIGURED_ADMIN_ID,
    passwordHash: await testHasher.hash(PASSWORD),
    now,
  });
});

describe("OrganizationSwitcher and pending invitations", () => {
  it("is a menu button: arrows move without acting, Escape returns focus, Enter switches", async () => {
    const page = await pageFor(owner);
    acmeId = (await api(page, "/organization/create", { name: "Acme", slug: "acme" })).id;
    await api(page, "/organization/create", { name: "Beta", slug: "beta" });
    for (const [key, role] of [
      ["admin", "admin"],
      ["member", "member"],
    ] as const) {
      await e2e.service.auth.api.addMember({ body: { userId: ids[key]!, organizationId: acmeId, role } });
    }
    await api(page, "/organization/set-active", { organizationId: acmeId });
    await page.reload();
    const button = page.getByTestId("org-switcher");
    await expect.poll(() => page.getByTestId("org-switcher-active").textContent()).toBe("Acme");
    expect(await button.getAttribute("aria-haspopup")).toBe("menu");
    expect(await button.getAttribute("aria-expanded")).toBe("false");

    // ArrowDown opens on the first item; more arrows only move focus (wrapping), nothing is chosen.
    await button.focus();
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => button.getAttribute("aria-expanded")).toBe("true");
    expect(await focusedText(page)).toContain("Acme");
    expect(await page.getByRole("menuitemradio", { name: "Acme" }).getAttribute("aria-checked")).toBe("true");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.keyboard.press("ArrowDown");
    expect(await focusedText(page)).toContain("Beta");
    await page.keyboard.press("ArrowDown");
    expect(await focused(page)).toBe("org-switcher-create");
    await page.keyboard.press("ArrowDown");
    expect(await focusedText(page)).toContain("Acme");
    await page.keyboard.press("ArrowUp");
    expect(await focused(page)).toBe("org-switcher-create");
    expect(new URL(page.url()).pathname).toBe("/");

    // Escape closes and gives focus back to the button; the active organization has not changed.
    await page.keyboard.press("Escape");
    await expect.poll(() => page.getByRole("menu").count()).toBe(0);
    expect(await focused(page)).toBe("org-switcher");
    expect(await page.getByTestId("org-switcher-active").textContent()).toBe("Acme");

    // Enter opens; ArrowDown, Enter chooses Beta: it becomes active and its page opens.
    await page.keyboard.press("Enter");
    await page.getByRole("menu").waitFor();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${e2e.service.origin}/organization`);
    await expect.poll(() => page.getByTestId("org-switcher-active").textContent()).toBe("Beta");
    expect(await focused(page)).toBe("org-switcher");
    await api(page, "/organization/set-active", { organizationId: acmeId });
    await page.close();
  });

  it("shows an invitee a badge and the invitation in the menu and on the home page", async () => {
    const ownerPage = await pageFor(owner);
    const invitation = await api(ownerPage, "/organization/invite-member", {
      email: invitee.email,
      role: "member",
      organizationId: acmeId,
    });
    const page = await pageFor(invitee);
    await expect.poll(() => page.getByTestId("org-switcher-badge").textContent()).toBe("1 pending invitation");
    expect(await page.getByTestId("org-switcher").textContent()).toContain("Choose an organization");
    const row = page.getByTestId("home-invitation");
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain("Acme");

    await page.getByTestId("org-switcher").click();
    const item = page.getByTestId("org-switcher-invitation");
    expect(await item.textContent()).toBe("Join Acme (invitation)");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await item.click();
    await page.waitForURL(`${e2e.service.origin}/accept-invitation/${invitation.id}`);
    await page.getByTestId("invitation-accept").click();
    await page.getByTestId("org-settings-card").waitFor();
    await expect.poll(() => page.getByTestId("org-switcher-badge").count()).toBe(0);
    expect(await page.getByTestId("org-switcher-active").textContent()).toBe("Acme");
    await ownerPage.close();
    await page.close();
  });
});

describe("what each role sees", () => {
  it("an admin gets no Remove or role picker on the owner, and cannot hand out the owner role", async () => {
    const page = await pageInAcme(admin);
    await page.goto(`${e2e.service.origin}/organization/members`);
    // By the name itself: other rows may mention it ("Invited by Olga Owner").
    const rowOf = (name: string) =>
      page.getByTestId("member-row").filter({ has: page.getByText(name, { exact: true }) });
    await rowOf(owner.name).waitFor();
    expect(await rowOf(owner.name).getByTestId("member-remove").count()).toBe(0);
    expect(await rowOf(owner.name).getByTestId("member-role").count()).toBe(0);
    expect(await rowOf(owner.name).getByTestId("member-role-label").textContent()).toBe("Owner");
    expect(await rowOf(member.name).getByTestId("member-remove").count()).toBe(1);
    const options = await rowOf(member.name).getByTestId("member-role").locator("option").allTextContents();
    expect(options).toEqual(["Member", "Admin"]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.close();
  });

  it("a member sees the settings read-only and no member controls", async () => {
    const page = await pageInAcme(member);
    await page.goto(`${e2e.service.origin}/organization`);
    await page.getByTestId("org-settings-read-only").waitFor();
    // A read-only view, not disabled inputs.
    expect(await page.getByTestId("org-settings-name").textContent()).toBe("Acme");
    expect(await page.getByTestId("org-settings-card").locator("input").count()).toBe(0);
    expect(await page.getByTestId("org-settings-submit").count()).toBe(0);
    expect(await page.getByTestId("org-delete").count()).toBe(0);
    await page.goto(`${e2e.service.origin}/organization/members`);
    await expect.poll(() => page.getByTestId("member-row").count()).toBe(4);
    expect(await page.getByTestId("member-remove").count()).toBe(0);
    expect(await page.getByTestId("member-role").count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.close();
  });
});

describe("confirmation before destructive actions", () => {
  it("removes a member only after a confirmed dialog, by keyboard; Escape cancels and returns focus", async () => {
    const page = await pageInAcme(owner);
    await page.goto(`${e2e.service.origin}/organization/members`);
    const row = page.getByTestId("member-row").filter({ hasText: invitee.name });
    const remove = row.getByTestId("member-remove");
    await remove.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    // Modal, named after what goes, focus on Cancel.
    expect(await dialog.evaluate((d) => (d as HTMLDialogElement).open && d.matches(":modal"))).toBe(true);
    expect(await dialog.getByRole("heading").textContent()).toBe(`Remove ${invitee.name} from Acme?`);
    expect(await dialog.textContent()).toContain(invitee.email);
    expect(await focused(page)).toBe("confirm-cancel");
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await focused(page)).toBe("member-remove");
    expect(await page.getByTestId("member-row").count()).toBe(4);

    await page.keyboard.press("Enter");
    await dialog.waitFor();
    await page.keyboard.press("Tab");
    expect(await focused(page)).toBe("confirm-accept");
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.getByTestId("members-notice").textContent())
      .toBe(`${invitee.name} was removed from Acme.`);
    await expect.poll(() => page.getByTestId("member-row").count()).toBe(3);
    // The button went with the row: focus is on the notice, not lost to the page.
    expect(await focused(page)).toBe("members-notice");
    await page.close();
  });

  it("changes a role only when confirmed; a cancelled change leaves the picker as it was", async () => {
    const page = await pageInAcme(owner);
    await page.goto(`${e2e.service.origin}/organization/members`);
    const select = page.getByTestId("member-row").filter({ hasText: member.name }).getByTestId("member-role");
    // On a closed select an arrow key changes the value at once: that change only opens the dialog.
    await select.focus();
    await page.keyboard.press("ArrowDown");
    await page.getByRole("dialog").waitFor();
    expect(await page.getByRole("dialog").getByRole("heading").textContent()).toBe(`Make ${member.name} Admin?`);
    await page.keyboard.press("Escape");
    await expect.poll(() => select.inputValue()).toBe("member");
    expect(await focused(page)).toBe("member-role");
    expect(
      await e2e.service.auth.database.db
        .selectFrom("member")
        .select("role")
        .where("userId", "=", ids.member!)
        .executeTakeFirst(),
    ).toEqual({ role: "member" });

    await select.selectOption("admin");
    await page.getByTestId("confirm-accept").click();
    await expect.poll(() => page.getByTestId("members-notice").textContent()).toBe(`${member.name} is now Admin.`);
    await expect.poll(() => select.inputValue()).toBe("admin");
    await page.close();
  });

  it("asks before leaving an organization and before signing out another session", async () => {
    const page = await pageInAcme(admin);
    const other = await pageFor(admin);
    await page.goto(`${e2e.service.origin}/account/sessions`);
    await expect.poll(() => page.getByTestId("session-row").count()).toBeGreaterThanOrEqual(2);
    const before = await page.getByTestId("session-row").count();
    await page.getByTestId("session-revoke").first().click();
    await page.getByTestId("confirm-cancel").click();
    expect(await page.getByTestId("session-row").count()).toBe(before);
    await page.getByTestId("session-revoke").first().click();
    expect(await page.getByRole("dialog").getByRole("heading").textContent()).toMatch(/^Sign out Chrome on Linux/);
    await page.getByTestId("confirm-accept").click();
    await expect.poll(() => page.getByTestId("sessions-notice").textContent()).toMatch(/is signed out\.$/);
    await expect.poll(() => page.getByTestId("session-row").count()).toBe(before - 1);

    await page.goto(`${e2e.service.origin}/organization/members`);
    await page.getByTestId("org-leave").click();
    expect(await page.getByRole("dialog").getByRole("heading").textContent()).toBe("Leave Acme?");
    await page.keyboard.press("Escape");
    expect(await focused(page)).toBe("org-leave");
    await page.getByTestId("org-leave").click();
    await page.getByTestId("confirm-accept").click();
    await expect.poll(() => page.getByTestId("home-notice").textContent()).toBe("You left Acme.");
    await other.close();
    await page.close();
  });

  it("asks before removing a team", async () => {
    const page = await pageInAcme(owner);
    await api(page, "/organization/create-team", { name: "Design", organizationId: acmeId });
    await page.goto(`${e2e.service.origin}/organization/teams`);
    const row = page.getByTestId("team-row").filter({ hasText: "Design" });
    await row.getByTestId("team-open").click();
    await page.getByTestId("team-remove").click();
    expect(await page.getByRole("dialog").getByRole("heading").textContent()).toBe("Remove the team Design?");
    await page.getByTestId("confirm-cancel").click();
    expect(await page.getByTestId("team-detail").count()).toBe(1);
    await page.getByTestId("team-remove").click();
    await page.getByTestId("confirm-accept").click();
    await expect.poll(() => page.getByTestId("teams-notice").textContent()).toBe("The team Design was removed.");
    await expect.poll(() => row.count()).toBe(0);
    await page.close();
  });
});

describe("UserButton", () => {
  const menuEntries = async (page: Page) => {
    const button = page.getByTestId("user-button");
    await button.focus();
    await page.keyboard.press("Enter");
    await page.getByRole("menu").waitFor();
    const entries = await page.getByRole("menuitem").allTextContents();
    await page.keyboard.press("Escape");
    return entries;
  };

  it("shows initials and Account and Sign out; Admin only for admins by role or by adminUserIds", async () => {
    const plain = await pageFor(member);
    expect(await plain.getByTestId("gh-avatar").first().textContent()).toBe("MM");
    // Wait for the server's answer on admin access before reading the menu.
    await plain.waitForLoadState("networkidle");
    expect(await menuEntries(plain)).toEqual(["Account", "Sign out"]);
    expect(await plain.getByRole("link", { name: "Admin", exact: true }).count()).toBe(0);
    expect(await focused(plain)).toBe("user-button");

    for (const user of [roleAdmin, configuredAdmin]) {
      const page = await pageFor(user);
      await expect.poll(() => menuEntries(page)).toEqual(["Account", "Admin", "Sign out"]);
      const button = page.getByTestId("user-button");
      await button.focus();
      await page.keyboard.press("ArrowUp");
      expect(await focused(page)).toBe("sign-out");
      await page.keyboard.press("ArrowUp");
      expect(await focused(page)).toBe("user-menu-admin");
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.keyboard.press("Enter");
      await page.waitForURL(`${e2e.service.origin}/admin`);
      await page
        .getByTestId("admin-refused")
        .or(page.getByRole("heading", { name: "Administration" }))
        .waitFor();
      expect(await page.getByTestId("admin-refused").count()).toBe(0);
      await page.close();
    }

    // Sign out from the menu by keyboard.
    await plain.getByTestId("user-button").focus();
    await plain.keyboard.press("ArrowUp");
    await plain.keyboard.press("Enter");
    await plain.waitForURL(`${e2e.service.origin}/sign-in`);
    await plain.close();
  });

  it("shows the user's picture when there is one, and the initials when it fails to load", async () => {
    const page = await pageFor(invitee);
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
      "base64",
    );
    await page.route("https://images.example/ivy.png", (route) =>
      route.fulfill({ contentType: "image/png", body: png }),
    );
    await page.route("https://images.example/broken.png", (route) => route.abort());
    const avatar = page.getByTestId("user-button").getByTestId("gh-avatar");
    await api(page, "/update-user", { image: "https://images.example/ivy.png" });
    await page.reload();
    await expect.poll(() => avatar.locator("img").getAttribute("src")).toBe("https://images.example/ivy.png");
    await expect.poll(() => avatar.locator("img").evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(1);
    await api(page, "/update-user", { image: "https://images.example/broken.png" });
    await page.reload();
    await expect.poll(() => avatar.textContent()).toBe("II");
    expect(await avatar.locator("img").count()).toBe(0);
    await page.close();
  });
});

describe("SignIn and SignUp", () => {
  // The dev page renders the exported components as a consumer would, set from the query.
  const preview = (query: Record<string, string>) =>
    `${e2e.service.origin}/dev/components?${new URLSearchParams(query)}`;
  const style = (page: Page, testId: string, property: string) =>
    page.getByTestId(testId).evaluate((node, name) => getComputedStyle(node).getPropertyValue(name), property);
  const box = async (page: Page, testId: string) => (await page.getByTestId(testId).boundingBox())!;

  it("speak German with words of one's own, take an appearance, and sign in", async () => {
    const context = await e2e.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    await page.goto(
      preview({
        lang: "de",
        theme: "dark",
        primary: "#f4a6d7",
        radius: "14px",
        font: "Georgia, serif",
        "label.signIn.newHere": "Noch kein Konto?",
      }),
    );
    const signIn = page.getByTestId("gh-sign-in");
    const signUp = page.getByTestId("gh-sign-up");
    await page.getByTestId("sign-in-submit").waitFor();
    const de = (key: Parameters<typeof translate>[1]) => translate("de", key);
    expect(await signIn.getByRole("heading", { level: 1 }).textContent()).toBe(de("signIn.title"));
    expect(await page.getByTestId("sign-in-submit").textContent()).toBe(de("signIn.submit"));
    expect(await page.getByTestId("sign-in-passkey").textContent()).toBe(de("signIn.passkey"));
    expect(await page.getByTestId("magic-link-link").textContent()).toBe(de("signIn.magicLink"));
    expect(await signIn.getByLabel(de("field.password"), { exact: true }).count()).toBe(1);
    expect(await signIn.textContent()).toContain("Noch kein Konto?");
    expect(await signUp.getByRole("heading", { level: 1 }).textContent()).toBe(de("signUp.title"));
    expect(await page.getByTestId("sign-up-submit").textContent()).toBe(de("signUp.submit"));

    // The appearance: the primary colour, the radius, the font, and the dark theme pinned.
    expect(await style(page, "sign-in-submit", "background-color")).toBe("rgb(244, 166, 215)");
    expect(await style(page, "gh-sign-in", "border-top-left-radius")).toBe("14px");
    expect(await style(page, "sign-in-submit", "border-top-left-radius")).toBe("10px");
    expect(await style(page, "gh-sign-in", "font-family")).toContain("Georgia");
    expect(await style(page, "gh-sign-in", "color-scheme")).toBe("dark");
    expect(await style(page, "gh-sign-in", "background-color")).toBe("rgb(24, 28, 35)");
    // The designer's finding: the primary action as wide as the other methods, all of one style.
    const primary = await box(page, "sign-in-submit");
    for (const other of ["sign-in-passkey", "magic-link-link", "email-code-link"]) {
      expect(Math.round((await box(page, other)).width)).toBe(Math.round(primary.width));
      expect(await style(page, other, "background-color")).toBe(
        await style(page, "sign-in-passkey", "background-color"),
      );
    }
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Errors in the component's language: the form's checks and the server's answer.
    await page.getByTestId("sign-in-submit").click();
    expect(await page.getByTestId("sign-in-email-error").textContent()).toBe(de("validation.email"));
    await page.getByTestId("sign-in-email").fill(member.email);
    await page.getByTestId("sign-in-password").fill("not the password");
    await page.getByTestId("sign-in-submit").click();
    await expect
      .poll(() => signIn.getByTestId("form-error").textContent())
      .toBe("E-Mail-Adresse oder Passwort ist falsch.");

    // The sign-in link, in place: a German screen of its own, and back.
    await page.getByTestId("magic-link-link").click();
    expect(await signIn.getByRole("heading", { level: 1 }).textContent()).toBe(de("magicLink.title"));
    expect(await page.getByTestId("magic-link-email").inputValue()).toBe(member.email);
    await page.getByTestId("sign-in-back").click();
    expect(await page.getByTestId("sign-in-email").inputValue()).toBe(member.email);
    await page.getByTestId("sign-in-password").fill(member.password);
    await page.getByTestId("sign-in-submit").click();
    // Through the app's router (navigate), to the home page, signed in.
    await page.getByTestId("home-title").waitFor();
    expect(new URL(page.url()).pathname).toBe("/");

    // CreateOrganization: German, the slug following the name and checked, then the new one active.
    await page.goto(preview({ lang: "de", theme: "dark", primary: "#f4a6d7" }));
    const create = page.getByTestId("org-create-card");
    expect(await create.getByRole("heading", { level: 1 }).textContent()).toBe(de("org.create.title"));
    expect(await style(page, "org-create-submit", "background-color")).toBe("rgb(244, 166, 215)");
    await page.getByTestId("org-create-submit").click();
    expect(await page.getByTestId("org-create-name-error").textContent()).toBe(de("validation.nameRequired"));
    await page.getByTestId("org-create-name").fill("Gamma Werke");
    expect(await page.getByTestId("org-create-slug").inputValue()).toBe("gamma-werke");
    await page.getByTestId("org-create-slug").focus();
    await create.getByText(de("org.slug.free")).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByTestId("org-create-submit").click();
    await page.waitForURL(`${e2e.service.origin}/organization`);
    await expect.poll(() => page.getByTestId("org-switcher-active").textContent()).toBe("Gamma Werke");
    await context.close();
  });

  it("follow the page's theme when none is pinned, and build the application's sign-in", async () => {
    const context = await e2e.newContext({ viewport: { width: 1100, height: 900 }, colorScheme: "light" });
    const page = await context.newPage();
    await page.goto(preview({ lang: "en" }));
    await page.getByTestId("sign-up-submit").waitFor();
    expect(await style(page, "gh-sign-up", "background-color")).toBe("rgb(255, 255, 255)");
    expect(await style(page, "sign-up-submit", "background-color")).toBe("rgb(10, 79, 214)");
    expect(await page.getByTestId("sign-up-submit").textContent()).toBe("Create account");

    // The application's own sign-in page is the same component.
    await page.goto(`${e2e.service.origin}/sign-in`);
    await page.getByTestId("gh-sign-in").waitFor();
    await page.getByTestId("sign-in-submit").waitFor();
    expect(Math.round((await box(page, "sign-in-submit")).width)).toBe(
      Math.round((await box(page, "sign-in-passkey")).width),
    );
    await page.goto(`${e2e.service.origin}/sign-up`);
    await page.getByTestId("gh-sign-up").waitFor();
    await context.close();
  });
});

describe("UserProfile and AcceptInvitation, as a consumer drops them in", () => {
  const preview = (query: Record<string, string>) =>
    `${e2e.service.origin}/dev/components?${new URLSearchParams(query)}`;
  const style = (page: Page, testId: string, property: string) =>
    page.getByTestId(testId).evaluate((node, name) => getComputedStyle(node).getPropertyValue(name), property);
  const de = (key: Parameters<typeof translate>[1]) => translate("de", key);

  it("AcceptInvitation, signed out, in German with an appearance: create an account first", async () => {
    const ownerPage = await pageInAcme(owner);
    const invited = `gast-${Date.now()}@example.com`;
    const invitation = await api(ownerPage, "/organization/invite-member", { email: invited, role: "member" });
    const context = await e2e.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    await page.goto(preview({ lang: "de", theme: "dark", primary: "#f4a6d7", invitation: invitation.id }));
    const card = page.getByTestId("gh-accept-invitation");
    await page.getByTestId("invitation-summary").waitFor();
    expect(await card.getByRole("heading", { level: 1 }).textContent()).toBe(de("invitation.title"));
    expect(await page.getByTestId("invitation-summary").textContent()).toBe(
      `${owner.name} lädt Sie ein, Acme als ${de("role.member")} beizutreten.`,
    );
    expect(await card.textContent()).toContain(invited);
    expect(await page.getByTestId("invitation-sign-up").textContent()).toBe(de("invitation.createAccount"));
    expect(await style(page, "invitation-sign-up", "background-color")).toBe("rgb(244, 166, 215)");
    expect(await style(page, "gh-accept-invitation", "color-scheme")).toBe("dark");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByTestId("invitation-sign-up").click();
    await page.waitForURL(/\/sign-up\?/);
    expect(await page.getByTestId("sign-up-email").inputValue()).toBe(invited);
    await context.close();
    await ownerPage.context().close();
  });

  it("UserProfile, signed in, in German: its menu switches sections in place", async () => {
    const page = await pageFor(member);
    await page.goto(preview({ lang: "de", primary: "#7a1f5c", radius: "14px", profile: "1" }));
    const profile = page.getByTestId("gh-user-profile");
    await page.getByTestId("profile-submit").waitFor();
    expect(await profile.getByRole("heading", { level: 1 }).textContent()).toBe(de("profile.account"));
    expect(await page.getByTestId("profile-name").inputValue()).toBe(member.name);
    expect(await style(page, "profile-submit", "background-color")).toBe("rgb(122, 31, 92)");
    expect(await seriousA11yViolations(page)).toEqual([]);
    const before = page.url();
    await page.getByTestId("profile-nav-security").click();
    await page.getByTestId("change-password-submit").waitFor();
    expect(page.url()).toBe(before);
    expect(await page.getByTestId("profile-nav-security").getAttribute("aria-current")).toBe("page");
    expect(await page.getByTestId("change-password-submit").textContent()).toBe(de("changePassword.form"));
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.context().close();
  });
});

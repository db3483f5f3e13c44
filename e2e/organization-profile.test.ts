import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { translate } from "../src/i18n/index.js";
import {
  seriousA11yViolations,
  signInInBrowser,
  signInThroughApi,
  signOutInBrowser,
  signUpThroughApi,
} from "./helpers/browser.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/**
 * The organization screens as the exported OrganizationProfile and OrganizationList draw them in
 * the application: what an owner and a plain member see, the only owner kept from leaving, the
 * notice after creating, and the active organization kept across a sign-out and sign-in.
 */
const PASSWORD = "correct horse battery";
// The development outbox on: /dev/components, where the components render as a consumer's, needs it.
const e2e = setUpServiceAndBrowser({ developmentOutbox: true });
const person = (name: string) => ({
  name,
  email: `${name.split(" ")[0]!.toLowerCase()}@example.com`,
  password: PASSWORD,
});
const owner = person("Olga Owner");
const member = person("Mia Member");
const ids: Record<string, string> = {};
let orgId = "";
const de = (key: Parameters<typeof translate>[1], vars?: Parameters<typeof translate>[2]) => translate("de", key, vars);

const signUpByApi = (user: { name: string; email: string; password: string }) =>
  signUpThroughApi(e2e.service.origin, user);

async function pageFor(user: { email: string; password: string }, locale?: "de"): Promise<Page> {
  const context = await e2e.newContext({ viewport: { width: 1100, height: 900 } });
  if (locale) await context.addInitScript((l) => localStorage.setItem("gatehouse.locale", l), locale);
  await signInThroughApi(context, e2e.service.origin, user);
  const page = await context.newPage();
  await page.goto(`${e2e.service.origin}/`);
  await page.getByTestId("home-title").waitFor();
  return page;
}

const go = (page: Page, path: string) => page.goto(`${e2e.service.origin}${path}`);

const setActive = (page: Page) =>
  page.request.post(`${e2e.service.origin}/api/auth/organization/set-active`, {
    data: { organizationId: orgId },
    headers: { origin: e2e.service.origin },
  });

beforeAll(async () => {
  ids.owner = await signUpByApi(owner);
  ids.member = await signUpByApi(member);
});

describe("creating an organization", () => {
  it("says it is ready, keeps the team picker and the metadata out of the settings", async () => {
    const page = await pageFor(owner);
    await go(page, "/organizations/new");
    await page.getByTestId("org-create-name").fill("Acme Works");
    await page.getByTestId("org-create-submit").click();
    await page.waitForURL(`${e2e.service.origin}/organization`);
    await expect
      .poll(() => page.getByTestId("org-profile-notice").textContent())
      .toBe("Acme Works is ready. Invite members next.");
    orgId = (
      await page.request.get(`${e2e.service.origin}/api/auth/organization/get-full-organization`).then((r) => r.json())
    ).id;
    await e2e.service.auth.api.addMember({ body: { userId: ids.member!, organizationId: orgId, role: "member" } });
    // The owner's form: name, slug, logo; the metadata only under "Advanced", closed.
    expect(await page.getByTestId("org-settings-name").inputValue()).toBe("Acme Works");
    expect(await page.getByTestId("org-settings-metadata").isVisible()).toBe(false);
    await page.getByTestId("org-settings-advanced").locator("summary").click();
    expect(await page.getByTestId("org-settings-metadata").isVisible()).toBe(true);
    // No active-team select above the sections (one team, and not on this section anyway).
    expect(await page.getByTestId("active-team").count()).toBe(0);
    expect(await page.getByTestId("org-delete").count()).toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.context().close();
  });
});

describe("the owner's sections", () => {
  it("refuses the only owner's leaving with the reason, and asks a promotion with a neutral button", async () => {
    // A new browser remembers nothing: the organization is made active by hand.
    const page = await pageFor(owner);
    await setActive(page);
    await go(page, "/organization/members");
    await page.getByTestId("members-list").waitFor();
    expect(await page.getByTestId("org-leave").isDisabled()).toBe(true);
    expect(await page.getByTestId("org-leave-only-owner").textContent()).toBe(
      translate("en", "members.leave.onlyOwner"),
    );
    const row = page.getByTestId("member-row").filter({ hasText: member.name });
    await row.getByTestId("member-role").selectOption("admin");
    const accept = page.getByTestId("confirm-accept");
    expect(await accept.getAttribute("data-tone")).toBe("primary");
    expect(await accept.getAttribute("class")).toContain("gh-primary");
    await page.getByTestId("confirm-cancel").click();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Teams: a list with "Add team", each team in its own detail.
    await go(page, "/organization/teams");
    await page.getByTestId("team-add").click();
    await page.getByTestId("team-create-name").fill("Design");
    await page.getByTestId("team-create-submit").click();
    const design = page.getByTestId("team-row").filter({ hasText: "Design" });
    await design.waitFor();
    expect(await page.getByTestId("team-rename-name").count()).toBe(0);
    await design.getByTestId("team-open").click();
    expect(await page.getByTestId("team-detail-name").textContent()).toBe("Design");
    await page.getByTestId("team-add-member").selectOption({ label: owner.name });
    await page.getByTestId("team-add-member-submit").click();
    await expect.poll(() => page.getByTestId("team-members").textContent()).toContain(owner.name);
    // In two teams now (the default one and Design): the active-team select shows, here only.
    await go(page, "/organization/teams");
    await page.getByTestId("active-team-select").waitFor();
    await go(page, "/organization/members");
    await page.getByTestId("members-list").waitFor();
    expect(await page.getByTestId("active-team").count()).toBe(0);
    await page.context().close();
  });
});

describe("a plain member's sections", () => {
  it("shows the settings read-only, no Invitations entry and no member controls, in German", async () => {
    const page = await pageFor(member, "de");
    await setActive(page);
    await go(page, "/organization");
    await page.getByTestId("org-settings-read-only").waitFor();
    expect(await page.getByTestId("org-settings-read-only").textContent()).toBe(de("org.settings.readOnly"));
    expect(await page.getByTestId("org-settings-name").textContent()).toBe("Acme Works");
    expect(await page.locator("input").count()).toBe(0);
    expect(await page.getByTestId("org-settings-submit").count()).toBe(0);
    expect(await page.getByTestId("org-settings-advanced").count()).toBe(0);
    expect(await page.getByTestId("org-delete").count()).toBe(0);
    const nav = page.locator(".settings-nav");
    expect(await nav.getByRole("link").allTextContents()).toEqual([
      de("org.settings.title"),
      de("members.title"),
      de("teams.title"),
    ]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await go(page, "/organization/members");
    await page.getByTestId("members-list").waitFor();
    expect(await page.getByRole("heading", { level: 2, name: de("members.title") }).count()).toBe(1);
    expect(await page.getByTestId("member-role").count()).toBe(0);
    expect(await page.getByTestId("member-remove").count()).toBe(0);
    expect(await page.getByTestId("org-leave").isDisabled()).toBe(false);
    await go(page, "/organization/teams");
    await page.getByTestId("teams-list").waitFor();
    expect(await page.getByTestId("team-add").count()).toBe(0);
    await page.context().close();
  });
});

describe("the components as a consumer drops them in", () => {
  it("switch sections in place, add the consumer's own section for owners, and list the organizations", async () => {
    const page = await pageFor(owner, "de");
    await setActive(page);
    const preview = `/dev/components?${new URLSearchParams({ screen: "organization", lang: "de", theme: "dark", primary: "#f4a6d7", extra: "Abrechnung" })}`;
    await go(page, preview);
    const profile = page.getByTestId("gh-organization-profile");
    await page.getByTestId("org-settings-name").waitFor();
    expect(await profile.getByRole("heading", { level: 1 }).textContent()).toBe("Acme Works");
    expect(await profile.getByRole("navigation").locator("li").allTextContents()).toEqual([
      de("org.settings.title"),
      de("members.title"),
      de("invitations.title"),
      de("teams.title"),
      "Abrechnung",
    ]);
    expect(
      await page.getByTestId("org-settings-submit").evaluate((node) => getComputedStyle(node).backgroundColor),
    ).toBe("rgb(244, 166, 215)");
    await page.getByTestId("org-section-members").click();
    await page.getByTestId("members-list").waitFor();
    expect(await page.getByTestId("org-section-members").getAttribute("aria-current")).toBe("page");
    expect(await page.getByTestId("org-leave-only-owner").textContent()).toBe(de("members.leave.onlyOwner"));
    await page.getByTestId("org-section-extra").click();
    expect(await page.getByTestId("extra-section").textContent()).toBe("acme-works");
    // The list: the active one marked, and its only owner told why there is no Leave.
    const row = page.getByTestId("org-list-row").filter({ hasText: "Acme Works" });
    expect(await row.textContent()).toContain(de("orgList.active"));
    expect(await row.getByTestId("org-list-leave").count()).toBe(0);
    expect(await row.getByTestId("org-list-leave-refused").textContent()).toBe(de("members.leave.onlyOwner"));
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.context().close();

    // A plain member does not get the owners' section.
    const memberPage = await pageFor(member);
    await setActive(memberPage);
    await go(memberPage, preview.replace("lang=de", "lang=en"));
    await memberPage.getByTestId("org-settings-read-only").waitFor();
    expect(await memberPage.getByTestId("org-section-extra").count()).toBe(0);
    expect(await memberPage.getByTestId("org-list-row").getByTestId("org-list-leave").count()).toBe(1);
    await memberPage.context().close();
  });
});

describe("the active organization", () => {
  it("is the same after signing out and in again", async () => {
    const page = await pageFor(member);
    // With none active: the OrganizationList, to open one.
    await go(page, "/organization");
    const row = page.getByTestId("org-list-row").filter({ hasText: "Acme Works" });
    await row.getByTestId("org-list-open").click();
    await page.getByTestId("org-settings-read-only").waitFor();
    await signOutInBrowser(page);
    await page.waitForURL(`${e2e.service.origin}/sign-in`);
    await signInInBrowser(page, e2e.service.origin, member);
    await page.getByTestId("home-title").waitFor();
    await expect.poll(() => page.getByTestId("org-switcher-active").textContent()).toBe("Acme Works");
    await go(page, "/organization");
    await page.getByTestId("org-settings-read-only").waitFor();
    await page.context().close();
  });
});

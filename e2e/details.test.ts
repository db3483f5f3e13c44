import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { translate } from "../src/i18n/index.js";
import { seriousA11yViolations, signInThroughApi } from "./helpers/browser.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/**
 * Issue 16 item 10, in Chromium: pictures (header, profile, members; initials when none or broken),
 * the sessions list's order and relative times in both languages, what the email-change landing page
 * says at each step, who invited a member, the active team switched by keyboard, and pages loaded
 * on first visit.
 */
const e2e = setUpServiceAndBrowser();
const PASSWORD = "correct horse battery";
let n = 0;
const person = (name: string) => ({
  name,
  email: `${name.split(" ")[0]!.toLowerCase()}-${Date.now().toString(36)}-${n++}@example.com`,
  password: PASSWORD,
});
type Person = ReturnType<typeof person>;

// A 1x1 PNG the browser is handed for https://img.example/ok.png (no network involved).
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const GOOD_PICTURE = "https://img.example/ok.png";
const BROKEN_PICTURE = "https://img.example/missing.png";

const db = () => e2e.service.auth.database.db;

/** Signs up through the API with a verified address; returns the user's id. */
async function signUpByApi(user: Person, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await fetch(`${e2e.service.origin}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: e2e.service.origin },
    body: JSON.stringify({ ...user, ...extra }),
  });
  expect(res.status).toBe(200);
  const id = ((await res.json()) as { user: { id: string } }).user.id;
  await db().updateTable("user").set({ emailVerified: true }).where("id", "=", id).execute();
  return id;
}

/** A signed-in page in its own context; pictures under https://img.example/ answer from here. */
async function pageFor(user: Person, options: { locale?: string; colorScheme?: "light" | "dark" } = {}): Promise<Page> {
  const context = await e2e.newContext({ viewport: { width: 1100, height: 800 }, ...options });
  await context.route("https://img.example/**", (route) =>
    route.request().url() === GOOD_PICTURE
      ? route.fulfill({ status: 200, contentType: "image/png", body: PNG })
      : route.fulfill({ status: 404, body: "" }),
  );
  await signInThroughApi(context, e2e.service.origin, user);
  const page = await context.newPage();
  await page.goto(`${e2e.service.origin}/`);
  await page.getByTestId("home-title").waitFor();
  return page;
}

async function api(page: Page, path: string, data?: unknown) {
  const headers = { origin: e2e.service.origin };
  const res = data
    ? await page.request.post(`${e2e.service.origin}/api/auth${path}`, { data, headers })
    : await page.request.get(`${e2e.service.origin}/api/auth${path}`, { headers });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

/** The <img> inside an avatar, if one is shown, and whether it loaded. */
const avatarImage = (page: Page, within: string) =>
  page.evaluate((selector) => {
    const img = document.querySelector<HTMLImageElement>(`${selector} [data-testid="gh-avatar"] img`);
    return img ? { src: img.getAttribute("src"), loaded: img.complete && img.naturalWidth > 0 } : null;
  }, within);
const avatarText = (page: Page, within: string) =>
  page.locator(`${within} [data-testid="gh-avatar"]`).first().textContent();

describe("profile pictures", () => {
  it("sets a picture on the profile page; header, profile and member list show it; initials otherwise", async () => {
    const pia = person("Pia Picture");
    const nils = person("Nils Nopicture");
    const piaId = await signUpByApi(pia);
    const nilsId = await signUpByApi(nils);
    const page = await pageFor(pia);
    const organization = await api(page, "/organization/create", { name: "Pictures", slug: `pictures-${n++}` });
    await e2e.service.auth.api.addMember({ body: { userId: nilsId, role: "member", organizationId: organization.id } });

    await page.goto(`${e2e.service.origin}/account`);
    await page.getByTestId("profile-picture-card").waitFor();
    expect(await avatarText(page, '[data-testid="profile-picture-card"]')).toBe("PP");
    expect(await avatarText(page, '[data-testid="user-button"]')).toBe("PP");

    // Plain http to another host is refused in words, with the focus on the field; nothing is stored.
    await page.getByTestId("profile-image").fill("http://img.example/ok.png");
    await page.getByTestId("profile-submit").click();
    expect(await page.getByTestId("profile-image-error").textContent()).toBe(
      "Enter an address that starts with https:// (http:// only on this computer).",
    );
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("profile-image");
    const stored = () => db().selectFrom("user").select("image").where("id", "=", piaId).executeTakeFirstOrThrow();
    expect((await stored()).image).toBeNull();

    await page.getByTestId("profile-image").fill(GOOD_PICTURE);
    await page.getByTestId("profile-submit").click();
    await page.getByTestId("profile-saved").waitFor();
    expect((await stored()).image).toBe(GOOD_PICTURE);
    for (const where of ['[data-testid="profile-picture-card"]', '[data-testid="user-button"]']) {
      await expect.poll(() => avatarImage(page, where)).toEqual({ src: GOOD_PICTURE, loaded: true });
    }
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.goto(`${e2e.service.origin}/organization/members`);
    await page.getByTestId("members-list").waitFor();
    const rows = page.getByTestId("member-row");
    await expect
      .poll(() => avatarImage(page, '[data-testid="member-row"]:nth-child(1)'))
      .toEqual({
        src: GOOD_PICTURE,
        loaded: true,
      });
    expect(await rows.nth(1).getByTestId("gh-avatar").textContent()).toBe("NN");

    // A picture that does not load falls back to the initials.
    await api(page, "/update-user", { image: BROKEN_PICTURE });
    await page.goto(`${e2e.service.origin}/account`);
    await page.getByTestId("profile-picture-card").waitFor();
    for (const where of ['[data-testid="profile-picture-card"]', '[data-testid="user-button"]']) {
      await expect.poll(() => avatarImage(page, where)).toBeNull();
      expect(await avatarText(page, where)).toBe("PP");
    }

    // Emptying the field clears it.
    await page.getByTestId("profile-image").fill("");
    await page.getByTestId("profile-submit").click();
    await page.getByTestId("profile-saved").waitFor();
    expect((await stored()).image).toBeNull();
  });
});

describe("sessions list", () => {
  it("puts this device first, then the most recently active, with relative times in English and German", async () => {
    const sam = person("Sam Sessions");
    const samId = await signUpByApi(sam);
    // Only the sessions this test opens: sign-up's own goes.
    await db().deleteFrom("session").where("userId", "=", samId).execute();
    // Two more devices sign in after the browser, then are made older by hand.
    const page = await pageFor(sam);
    const devices = {
      phone: "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36",
      laptop: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0",
    };
    for (const userAgent of Object.values(devices)) {
      const res = await fetch(`${e2e.service.origin}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: e2e.service.origin, "user-agent": userAgent },
        body: JSON.stringify({ email: sam.email, password: PASSWORD }),
      });
      expect(res.status).toBe(200);
    }
    const now = Date.now();
    const setActive = (userAgent: string, msAgo: number) =>
      db()
        .updateTable("session")
        .set({ updatedAt: new Date(now - msAgo) })
        .where("userId", "=", samId)
        .where("userAgent", "=", userAgent)
        .execute();
    await setActive(devices.laptop, 2 * 3600_000 + 60_000);
    await setActive(devices.phone, 5 * 60_000 + 10_000);

    await page.goto(`${e2e.service.origin}/account/sessions`);
    await page.getByTestId("sessions-list").waitFor();
    const rows = page.getByTestId("session-row");
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.nth(0).getAttribute("data-current")).toBe("true");
    expect(await rows.nth(1).locator("strong").textContent()).toBe("Chrome on Android");
    expect(await rows.nth(2).locator("strong").textContent()).toBe("Firefox on Windows");
    const lastActive = (i: number) => rows.nth(i).getByTestId("session-last-active");
    expect(await lastActive(1).textContent()).toBe("5 minutes ago");
    expect(await lastActive(2).textContent()).toBe("2 hours ago");
    // The exact moment is there for machines and in the tooltip.
    const dateTime = await lastActive(2).getAttribute("datetime");
    expect(Math.abs(new Date(dateTime!).getTime() - (now - 2 * 3600_000 - 60_000))).toBeLessThan(1000);
    expect(await lastActive(2).getAttribute("title")).toMatch(/\d/);
    expect(await seriousA11yViolations(page)).toEqual([]);

    const german = await pageFor(sam, { locale: "de-DE" });
    await german.goto(`${e2e.service.origin}/account/sessions`);
    await german.getByTestId("sessions-list").waitFor();
    const germanRows = german.getByTestId("session-row");
    await expect.poll(() => germanRows.count()).toBe(4);
    expect(await germanRows.nth(0).getAttribute("data-current")).toBe("true");
    expect(await germanRows.nth(3).getByTestId("session-last-active").textContent()).toBe("vor 2 Stunden");
  });
});

describe("email change landing page", () => {
  const mailTo = (email: string, subject: RegExp) =>
    e2e.service.mail!.waitFor((m) => m.to === email && subject.test(m.subject), 15_000);
  const link = (mail: { links: string[] }) => mail.links.find((l) => l.includes("/verify-email"))!;

  async function requestChange(page: Page, newEmail: string) {
    await page.goto(`${e2e.service.origin}/account/security`);
    await page.getByTestId("change-email-new").fill(newEmail);
    await page.getByTestId("change-email-submit").click();
    await page.getByTestId("security-notice").waitFor();
  }

  it("after approval says a link went to the new address; after that link, the change is done", async () => {
    const eli = person("Eli Email");
    await signUpByApi(eli);
    const newEmail = `eli-new-${n++}@example.com`;
    const page = await pageFor(eli);
    await requestChange(page, newEmail);

    const approval = await mailTo(eli.email, /change/i);
    await page.goto(link(approval));
    const approved = page.getByTestId("verify-change-approved");
    await approved.waitFor();
    expect(await approved.textContent()).toBe(
      "We have sent a link to your new email address. The change finishes when you open that link; until then you keep signing in with your current address.",
    );
    expect(await page.locator("h1").textContent()).toBe("Change approved");
    expect(await page.getByTestId("verify-success").count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.goto(link(await mailTo(newEmail, /verify/i)));
    await expect
      .poll(() => page.getByTestId("verify-success").textContent())
      .toBe(`Your email address is now ${newEmail}. Use it to sign in from now on.`);
    expect(await page.locator("h1").textContent()).toBe("Email address changed");

    // The approval link again: the old address has no account any more.
    await page.goto(link(approval));
    await page.getByTestId("verify-error").waitFor();
    expect(await page.getByTestId("verify-change-approved").count()).toBe(0);
  });

  it("says so when another account took the new address before the link was opened", async () => {
    const tia = person("Tia Taken");
    await signUpByApi(tia);
    const wanted = person("Wanda Wanted");
    const page = await pageFor(tia);
    await requestChange(page, wanted.email);
    await page.goto(link(await mailTo(tia.email, /change/i)));
    await page.getByTestId("verify-change-approved").waitFor();
    const verify = await mailTo(wanted.email, /verify/i);
    await signUpByApi(wanted);
    await page.goto(link(verify));
    await expect
      .poll(() => page.getByTestId("verify-error").textContent())
      .toBe("Another account took the new address in the meantime, so your email address was not changed.");
  });
});

describe("who invited a member", () => {
  it("shows 'Invited by <name>' on members and invitations, and a former member when the inviter left", async () => {
    const olga = person("Olga Owner");
    const adam = person("Adam Admin");
    const ivy = person("Ivy Invitee");
    const pat = person("Pat Pending");
    await signUpByApi(olga);
    const adamId = await signUpByApi(adam);
    await signUpByApi(ivy);
    const owner = await pageFor(olga);
    const org = await api(owner, "/organization/create", { name: "Inviters", slug: `inviters-${n++}` });
    await e2e.service.auth.api.addMember({ body: { userId: adamId, role: "admin", organizationId: org.id } });

    const adamPage = await pageFor(adam);
    await api(adamPage, "/organization/set-active", { organizationId: org.id });
    const invitation = await api(adamPage, "/organization/invite-member", { email: ivy.email, role: "member" });
    await api(owner, "/organization/invite-member", { email: pat.email, role: "member" });
    const ivyPage = await pageFor(ivy);
    await api(ivyPage, "/organization/accept-invitation", { invitationId: invitation.id });

    await owner.goto(`${e2e.service.origin}/organization/members`);
    await owner.getByTestId("members-list").waitFor();
    const rowOf = (name: string) =>
      owner.getByTestId("member-row").filter({ has: owner.getByText(name, { exact: true }) });
    await expect
      .poll(() => rowOf("Ivy Invitee").getByTestId("member-invited-by").textContent())
      .toBe("Invited by Adam Admin");
    // Founders and members added directly were invited by nobody.
    expect(await rowOf("Olga Owner").getByTestId("member-invited-by").count()).toBe(0);
    expect(await seriousA11yViolations(owner)).toEqual([]);

    await owner.goto(`${e2e.service.origin}/organization/invitations`);
    const pending = owner.getByTestId("invitation-row").filter({ hasText: pat.email });
    await expect.poll(() => pending.getByTestId("invitation-inviter").textContent()).toBe("Invited by Olga Owner");

    await api(adamPage, "/organization/leave", { organizationId: org.id });
    await owner.goto(`${e2e.service.origin}/organization/members`);
    await owner.getByTestId("members-list").waitFor();
    await expect
      .poll(() => rowOf("Ivy Invitee").getByTestId("member-invited-by").textContent())
      .toBe("Invited by a former member");
  });
});

describe("ownership transfer", () => {
  it("the owner hands the ownership to a member after confirming; then sees an admin's controls", async () => {
    const olga = person("Olga Owner");
    const mia = person("Mia Member");
    await signUpByApi(olga);
    const miaId = await signUpByApi(mia);
    const owner = await pageFor(olga);
    const org = await api(owner, "/organization/create", { name: "Handover", slug: `handover-${n++}` });
    await e2e.service.auth.api.addMember({ body: { userId: miaId, role: "member", organizationId: org.id } });

    await owner.goto(`${e2e.service.origin}/organization/members`);
    await owner.getByTestId("members-list").waitFor();
    const rowOf = (name: string) =>
      owner.getByTestId("member-row").filter({ has: owner.getByText(name, { exact: true }) });
    // Not on the owner's own row.
    expect(await rowOf("Olga Owner").getByTestId("member-transfer-ownership").count()).toBe(0);
    await rowOf("Mia Member").getByTestId("member-transfer-ownership").click();
    await owner.getByTestId("confirm-dialog").waitFor();
    expect(await owner.getByTestId("confirm-dialog").textContent()).toContain("Make Mia Member the owner of Handover?");
    await owner.getByTestId("confirm-accept").click();
    await expect
      .poll(() => owner.getByTestId("members-notice").textContent())
      .toBe("Mia Member is now the owner. You are an admin.");
    await expect.poll(() => rowOf("Mia Member").getByTestId("member-role-label").textContent()).toBe("Owner");
    expect(await owner.getByTestId("member-transfer-ownership").count()).toBe(0);
    const roles = await db()
      .selectFrom("member")
      .select(["userId", "role"])
      .where("organizationId", "=", org.id)
      .execute();
    expect(roles.map((r) => r.role).sort()).toEqual(["admin", "owner"]);
  });
});

describe("active team", () => {
  it("shows the session's team and switches it, or clears it, by keyboard", async () => {
    const tom = person("Tom Teams");
    const tomId = await signUpByApi(tom);
    const page = await pageFor(tom);
    const org = await api(page, "/organization/create", { name: "Teamwork", slug: `teamwork-${n++}` });
    const blue = await api(page, "/organization/create-team", { name: "Blue", organizationId: org.id });
    await api(page, "/organization/add-team-member", { teamId: blue.id, userId: tomId, organizationId: org.id });
    // A team Tom is not in is not offered.
    await api(page, "/organization/create-team", { name: "Green", organizationId: org.id });
    const activeTeamId = async () => (await api(page, "/get-session")).session.activeTeamId;
    const defaultTeamId = await activeTeamId();
    expect(defaultTeamId).toBeTruthy();

    // The select is on the Teams section only (Tom is in two teams here).
    await page.goto(`${e2e.service.origin}/organization/teams`);
    const select = page.getByLabel("Active team");
    await select.waitFor();
    await expect.poll(() => select.inputValue()).toBe(defaultTeamId);
    const options = await select.locator("option").allTextContents();
    expect(options).toEqual(["No team", "Teamwork", "Blue"]);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await select.focus();
    await select.selectOption({ label: "Blue" });
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("active-team-submit");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("active-team-notice").textContent()).toBe("Blue is now your active team.");
    expect(await activeTeamId()).toBe(blue.id);

    await select.selectOption({ label: "No team" });
    await page.getByTestId("active-team-submit").press("Enter");
    await expect.poll(() => page.getByTestId("active-team-notice").textContent()).toBe("No team is active now.");
    expect(await activeTeamId()).toBeNull();
    expect(await select.inputValue()).toBe("");
  });
});

describe("in German and dark", () => {
  it("the screens this item changed speak German and pass axe (contrast included) in the dark theme", async () => {
    const greta = person("Greta Grün");
    const hugo = person("Hugo Hell");
    const gretaId = await signUpByApi(greta, { image: GOOD_PICTURE });
    await signUpByApi(hugo);
    const page = await pageFor(greta, { locale: "de-DE", colorScheme: "dark" });
    const org = await api(page, "/organization/create", { name: "Dunkel", slug: `dunkel-${n++}` });
    const team = await api(page, "/organization/create-team", { name: "Nacht", organizationId: org.id });
    await api(page, "/organization/add-team-member", { teamId: team.id, userId: gretaId, organizationId: org.id });
    const invitation = await api(page, "/organization/invite-member", { email: hugo.email, role: "member" });
    await api(page, "/organization/invite-member", { email: `offen-${n++}@example.com`, role: "member" });
    await api(await pageFor(hugo), "/organization/accept-invitation", { invitationId: invitation.id });

    const invitedByGreta = translate("de", "details.members.invitedBy", { name: greta.name });
    const screens: [path: string, testId: string, text: string | RegExp][] = [
      ["/account", "profile-picture-card", translate("de", "details.profile.picture")],
      ["/account/sessions", "session-last-active", /^(jetzt|vor )/],
      ["/organization/teams", "active-team-submit", translate("de", "details.team.switch")],
      ["/organization/members", "member-invited-by", invitedByGreta],
      ["/organization/invitations", "invitation-inviter", invitedByGreta],
      ["/verified?emailChange=approved", "verify-change-approved", translate("de", "details.verified.approved")],
    ];
    for (const [path, testId, text] of screens) {
      await page.goto(`${e2e.service.origin}${path}`);
      const element = page.getByTestId(testId).first();
      await element.waitFor();
      expect(await element.textContent()).toMatch(text);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe("de");
      // The theme's dark background (styles.css --bg): axe checks contrast against it.
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe(
        "rgb(15, 18, 23)",
      );
      expect(await seriousA11yViolations(page), path).toEqual([]);
    }
    expect(await page.title()).toBe(`${translate("de", "details.verified.approvedTitle")} · Gatehouse`);
  });
});

describe("route splitting", () => {
  it("loads an area's code on its first visit, not with the sign-in page", async () => {
    const context = await e2e.newContext();
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(`${e2e.service.origin}/sign-in`);
    await page.getByTestId("sign-in-email").waitFor();
    const loaded = (area: string) => scripts.some((path) => path.includes(area));
    expect(loaded("auth-pages")).toBe(true);
    expect([loaded("admin-pages"), loaded("organization-pages"), loaded("account-pages")]).toEqual([
      false,
      false,
      false,
    ]);
  });

  it("keeps the current page, marked busy, while the next area's code loads, then shows it", async () => {
    const user = person("Rhea Router");
    await signUpByApi(user);
    const page = await pageFor(user);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/account-pages-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.locator("#shell-nav").getByRole("link", { name: "Account" }).click();
    await expect.poll(() => page.locator("main").getAttribute("aria-busy")).toBe("true");
    // Under React.lazy the page gave way to a loading line here, and React then held that line for at
    // least 300 ms after the code arrived.
    expect(await page.getByTestId("home-title").isVisible()).toBe(true);
    expect(page.url()).toBe(`${e2e.service.origin}/`);
    release();
    await expect.poll(() => page.getByTestId("gh-user-profile").getAttribute("data-section")).toBe("profile");
    expect(page.url()).toBe(`${e2e.service.origin}/account`);
    expect(await page.locator("main").getAttribute("aria-busy")).toBeNull();
  });

  it("reloads at the page's address when its module is gone (a newer build), once, then says so", async () => {
    const user = person("Nora Newbuild");
    await signUpByApi(user);
    const page = await pageFor(user);
    let loads = 0;
    page.on("load", () => {
      loads += 1;
    });
    // The account module answers 404 once, as a tab from before a deployment would meet it.
    let refusals = 1;
    await page.route(/\/assets\/account-pages-[^/]*\.js$/, (route) =>
      refusals-- > 0 ? route.fulfill({ status: 404, body: "" }) : route.continue(),
    );
    await page.locator("#shell-nav").getByRole("link", { name: "Account" }).click();
    await expect.poll(() => page.getByTestId("gh-user-profile").getAttribute("data-section")).toBe("profile");
    expect(page.url()).toBe(`${e2e.service.origin}/account`);
    expect(loads).toBe(1);

    // Gone for good: one reload, then a page that says so instead of reloading again.
    await page.route(/\/assets\/organization-pages-[^/]*\.js$/, (route) => route.fulfill({ status: 404, body: "" }));
    await page.locator("#shell-nav").getByRole("link", { name: "Organization" }).click();
    await expect.poll(() => loads).toBe(2);
    await page.getByTestId("page-error").waitFor();
    expect(page.url()).toBe(`${e2e.service.origin}/organization`);
    expect(loads).toBe(2);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("This page could not be shown");
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it("says an address has no page, and leads home", async () => {
    const page = await (await e2e.newContext()).newPage();
    await page.goto(`${e2e.service.origin}/no-such-page`);
    await page.getByTestId("page-not-found").waitFor();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Page not found");
    expect(await page.title()).toContain("Page not found");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "Go to the home page" }).click();
    // Signed out, home asks for a sign-in first.
    await page.waitForURL(`${e2e.service.origin}/sign-in?redirectTo=%2F`);
  });

  it("starts loading an area when its nav link is pointed at or focused, before the click", async () => {
    const user = person("Pia Prefetch");
    await signUpByApi(user);
    const page = await pageFor(user);
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
    });
    const requested = (area: string) => scripts.some((path) => path.includes(`/${area}-`));
    const nav = page.locator("#shell-nav");
    expect([requested("account-pages"), requested("organization-pages")]).toEqual([false, false]);
    await nav.getByRole("link", { name: "Account" }).hover();
    await expect.poll(() => requested("account-pages")).toBe(true);
    await nav.getByRole("link", { name: "Organization" }).focus();
    await expect.poll(() => requested("organization-pages")).toBe(true);
    // Loaded, not visited.
    expect(page.url()).toBe(`${e2e.service.origin}/`);
    expect(await page.getByTestId("home-title").isVisible()).toBe(true);
  });
});

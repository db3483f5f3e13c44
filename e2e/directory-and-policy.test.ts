import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { apiFromPage, screenshot, seriousA11yViolations, signUpInBrowser } from "./helpers/browser.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/**
 * The owners' Directory and Policy screens (issue 33) in real Chromium: a SCIM token generated on
 * screen provisions a person through a real SCIM request, as Okta would send it; a policy set on
 * screen sends a member without a second factor to set one up; a plain member sees neither screen.
 */
const e2e = setUpServiceAndBrowser({ options: { scim: { enabled: true } } });

const PASSWORD = "correct horse battery";

async function newPerson(name: string) {
  const page = await (await e2e.browser.newContext()).newPage();
  const email = `${name.toLowerCase().replace(/\W+/g, "-")}-${Date.now()}@example.com`;
  await signUpInBrowser(page, e2e.service.origin, { name, email, password: PASSWORD });
  await page.getByTestId("home-title").waitFor();
  const session = await apiFromPage(page, "/get-session");
  return { page, email, userId: session.body.user.id as string };
}

const navLabels = (page: Page) => page.locator(".settings-nav a").allTextContents();

describe("the Directory and Policy screens", () => {
  it("owner provisions through SCIM, requires a second factor; the member is guided; plain members see neither", async () => {
    const { origin, auth } = e2e.service;
    const owner = await newPerson("Olivia Owner");
    const created = await apiFromPage(owner.page, "/organization/create", {
      name: "Globex",
      slug: `globex-${Date.now()}`,
    });
    expect(created.status).toBe(200);
    const organizationId = created.body.id as string;

    // Directory: generate the token; it is shown once with the base URL.
    await owner.page.goto(`${origin}/organization`);
    await owner.page.getByRole("link", { name: "Directory" }).click();
    await owner.page.getByTestId("scim-connect-card").waitFor();
    expect(await navLabels(owner.page)).toEqual(["Settings", "Members", "Invitations", "Teams", "Directory", "Policy"]);
    await owner.page.getByTestId("scim-provider-id").fill(`okta-${Date.now()}`);
    await owner.page.getByTestId("scim-generate").click();
    await owner.page.getByTestId("scim-token-card").waitFor();
    const token = await owner.page.getByTestId("scim-token").inputValue();
    const baseUrl = await owner.page.getByTestId("scim-base-url").inputValue();
    expect(baseUrl).toBe(`${origin}/api/auth/scim/v2`);
    expect(token.length).toBeGreaterThan(40);
    expect(await owner.page.getByTestId("scim-last-sync").textContent()).toContain("Not yet");
    // The provisioned people are asked for once the connection exists: a moment after the token shows.
    await owner.page.getByTestId("scim-users-none").waitFor();
    expect(await seriousA11yViolations(owner.page)).toEqual([]);
    await screenshot(owner.page, "organization-directory");

    // The identity provider creates a person, as Okta does.
    const res = await fetch(`${baseUrl}/Users`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/scim+json" },
      body: JSON.stringify({
        schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
        userName: "dana.directory@globex.example",
        name: { givenName: "Dana", familyName: "Directory" },
        emails: [{ primary: true, value: "dana.directory@globex.example", type: "work" }],
        active: true,
      }),
    });
    expect(res.status).toBe(201);
    const dana = (await res.json()) as { id: string };
    // And a group with that person in it, which grants nothing until the owner maps it.
    const group = await fetch(`${baseUrl}/Groups`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/scim+json" },
      body: JSON.stringify({
        schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"],
        displayName: "Globex Admins",
        members: [{ value: dana.id }],
      }),
    });
    expect(group.status).toBe(201);

    // Done copying: the token is gone from the screen; the person and the sync are there.
    await owner.page.getByTestId("scim-token-done").click();
    await owner.page.reload();
    await owner.page.getByTestId("scim-user-row").waitFor();
    expect(await owner.page.getByTestId("scim-token").count()).toBe(0);
    // Taking over existing members, switched on after the connection exists; the token stays.
    await owner.page.getByTestId("scim-connection-link-existing").check();
    await owner.page.getByTestId("scim-link-existing-saved").waitFor();
    const connections = await apiFromPage(owner.page, "/scim/list-provider-connections");
    expect(connections.body.providers).toMatchObject([{ linkExistingMembers: true }]);
    const row = await owner.page.getByTestId("scim-user-row").textContent();
    expect(row).toContain("Dana Directory");
    expect(row).toContain("dana.directory@globex.example");
    expect(await owner.page.getByTestId("scim-last-sync").textContent()).not.toContain("Not yet");
    expect(await seriousA11yViolations(owner.page)).toEqual([]);

    // The owner maps the group to the admin role: its member becomes an admin.
    const roleOf = async () =>
      (
        await auth.database.db
          .selectFrom("member")
          .select("role")
          .where("organizationId", "=", organizationId)
          .where("userId", "=", dana.id)
          .executeTakeFirstOrThrow()
      ).role;
    expect(await roleOf()).toBe("member");
    const groupRow = owner.page.getByTestId("scim-group-row").filter({ hasText: "Globex Admins" });
    expect(await groupRow.textContent()).toContain("Members in the directory: 1");
    await groupRow.getByTestId("scim-group-mapping").selectOption("role:admin");
    await groupRow.getByTestId("scim-group-save").click();
    await owner.page.getByTestId("scim-group-saved").waitFor();
    expect(await roleOf()).toBe("admin");
    expect(await owner.page.getByTestId("scim-group-mapping").inputValue()).toBe("role:admin");
    expect(await seriousA11yViolations(owner.page)).toEqual([]);

    // A plain member: neither entry in the nav, and the screens say they are not theirs.
    const member = await newPerson("Milo Member");
    await auth.api.addMember({ body: { userId: member.userId, role: "member", organizationId } });
    expect((await apiFromPage(member.page, "/organization/set-active", { organizationId })).status).toBe(200);
    await member.page.goto(`${origin}/organization`);
    await member.page.getByTestId("org-settings-card").waitFor();
    // Invitations are for those who may invite (OrganizationProfile), so a plain member sees no entry.
    expect(await navLabels(member.page)).toEqual(["Settings", "Members", "Teams"]);
    await member.page.goto(`${origin}/organization/directory`);
    await member.page.getByTestId("directory-restricted").waitFor();
    await member.page.goto(`${origin}/organization/policy`);
    await member.page.getByTestId("policy-restricted").waitFor();

    // Policy: the server's refusals are shown by the setting they are about.
    await owner.page.goto(`${origin}/organization/policy`);
    await owner.page.getByTestId("policy-card").waitFor();
    await owner.page.getByTestId("policy-require-two-factor").check();
    await owner.page.getByTestId("policy-idle-timeout").fill("0.5");
    await owner.page.getByTestId("policy-submit").click();
    await owner.page.getByTestId("policy-idle-timeout-error").waitFor();
    expect(await owner.page.getByTestId("policy-idle-timeout").getAttribute("aria-invalid")).toBe("true");
    expect(await seriousA11yViolations(owner.page)).toEqual([]);
    await owner.page.getByTestId("policy-idle-timeout").fill("");
    await owner.page.getByTestId("policy-submit").click();
    // The owner has no second factor: requiring one would refuse their own session.
    await expect
      .poll(() => owner.page.getByTestId("form-error").textContent())
      .toContain("These rules would refuse your own session");
    // The owner turns it on (the TOTP set-up itself is account.test.ts's), then saves.
    await auth.database.db.updateTable("user").set({ twoFactorEnabled: true }).where("id", "=", owner.userId).execute();
    await owner.page.getByTestId("policy-submit").click();
    await owner.page.getByTestId("policy-saved").waitFor();
    expect(await owner.page.getByTestId("form-error").count()).toBe(0);
    expect(await seriousA11yViolations(owner.page)).toEqual([]);
    await screenshot(owner.page, "organization-policy");

    // The member without a second factor is told so and sent to set one up.
    await member.page.goto(`${origin}/organization/members`);
    await member.page.getByTestId("policy-guidance").waitFor();
    expect(await member.page.getByTestId("policy-guidance").textContent()).toContain(
      "Globex requires two-factor authentication",
    );
    expect(await member.page.getByTestId("members-card").count()).toBe(0);
    expect(await seriousA11yViolations(member.page)).toEqual([]);
    await member.page.getByTestId("policy-guidance-action").click();
    await member.page.waitForURL(`${origin}/account/security`);
    await member.page.getByTestId("security-org-requires-two-factor").waitFor();

    // And in German.
    await member.page.evaluate(() => localStorage.setItem("gatehouse.locale", "de"));
    await member.page.goto(`${origin}/organization`);
    await member.page.getByTestId("policy-guidance").waitFor();
    expect(await member.page.getByTestId("policy-guidance").textContent()).toContain(
      "Globex verlangt Zwei-Faktor-Authentifizierung",
    );
    expect(await seriousA11yViolations(member.page)).toEqual([]);
  });

  it("an admin sees the policy read-only and no Directory", async () => {
    const { origin, auth } = e2e.service;
    const owner = await newPerson("Otto Owner");
    const created = await apiFromPage(owner.page, "/organization/create", {
      name: "Initech",
      slug: `initech-${Date.now()}`,
    });
    const organizationId = created.body.id as string;
    const admin = await newPerson("Ada Admin");
    await auth.api.addMember({ body: { userId: admin.userId, role: "admin", organizationId } });
    expect((await apiFromPage(admin.page, "/organization/set-active", { organizationId })).status).toBe(200);
    await admin.page.goto(`${origin}/organization/policy`);
    await admin.page.getByTestId("policy-read-only").waitFor();
    expect(await navLabels(admin.page)).toEqual(["Settings", "Members", "Invitations", "Teams", "Policy"]);
    expect(await admin.page.getByTestId("policy-submit").count()).toBe(0);
    expect(await admin.page.getByTestId("policy-require-two-factor").isDisabled()).toBe(true);
    expect(await seriousA11yViolations(admin.page)).toEqual([]);
  });
});

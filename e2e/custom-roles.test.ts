import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { signInThroughApi, signUpThroughApi } from "./helpers/browser.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/**
 * Issue 51.2: the screens take their roles from the server's table (GET /app-config), not from
 * built-in names. With the creator role renamed ("founder") and a custom role ("billing"), the
 * founder keeps every role control, and the choices are the server's roles.
 */
const FOUNDER = {
  organization: ["update", "delete"],
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
  team: ["create", "update", "delete"],
};
const e2e = setUpServiceAndBrowser({
  options: {
    organization: {
      creatorRole: "founder",
      roles: { founder: FOUNDER, billing: { invitation: ["create"] } },
    },
  },
});
const PASSWORD = "correct horse battery";
const founder = { name: "Fay Founder", email: "fay@example.com", password: PASSWORD };
const clerk = { name: "Bill Clerk", email: "bill@example.com", password: PASSWORD };
const ids: Record<string, string> = {};
let orgId = "";

const signUpByApi = (user: { name: string; email: string; password: string }) =>
  signUpThroughApi(e2e.service.origin, user);

async function pageFor(user: { email: string; password: string }): Promise<Page> {
  const context = await e2e.newContext({ viewport: { width: 1100, height: 900 } });
  await signInThroughApi(context, e2e.service.origin, user);
  const page = await context.newPage();
  await page.goto(`${e2e.service.origin}/`);
  await page.getByTestId("home-title").waitFor();
  return page;
}

beforeAll(async () => {
  ids.founder = await signUpByApi(founder);
  ids.clerk = await signUpByApi(clerk);
  const organization = await e2e.service.auth.api.createOrganization({
    body: { name: "Founded", slug: "founded", userId: ids.founder },
  });
  orgId = organization.id;
  await e2e.service.auth.api.addMember({ body: { userId: ids.clerk!, organizationId: orgId, role: "billing" } });
});

describe("a custom creator role", () => {
  it("keeps the founder's role controls, offering the server's roles", async () => {
    const page = await pageFor(founder);
    await page.request.post(`${e2e.service.origin}/api/auth/organization/set-active`, {
      data: { organizationId: orgId },
      headers: { origin: e2e.service.origin },
    });
    await page.goto(`${e2e.service.origin}/organization/members`);
    const clerkRow = page.getByTestId("member-row").filter({ hasText: clerk.email });
    await clerkRow.waitFor();
    // The founder may change the clerk's role, to any of the server's roles, founder included.
    const select = clerkRow.getByTestId("member-role");
    await select.waitFor();
    const choices = await select
      .locator("option")
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    expect(choices.sort()).toEqual(["admin", "billing", "founder", "member", "owner"].sort());
    expect(await clerkRow.getByTestId("member-remove").count()).toBe(1);
    expect(await clerkRow.getByTestId("member-transfer-ownership").count()).toBe(1);

    await page.goto(`${e2e.service.origin}/organization/invitations`);
    await page.getByTestId("invite-role").waitFor();
    const inviteRoles = await page
      .getByTestId("invite-role")
      .locator("option")
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    expect(inviteRoles).toContain("founder");
    expect(inviteRoles).toContain("billing");
  });

  it("gives a custom role what its statements allow, and no creator's controls", async () => {
    const page = await pageFor(clerk);
    await page.request.post(`${e2e.service.origin}/api/auth/organization/set-active`, {
      data: { organizationId: orgId },
      headers: { origin: e2e.service.origin },
    });
    await page.goto(`${e2e.service.origin}/organization/invitations`);
    await page.getByTestId("invite-role").waitFor();
    const inviteRoles = await page
      .getByTestId("invite-role")
      .locator("option")
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    expect(inviteRoles).not.toContain("founder");
    expect(inviteRoles).toContain("billing");
    await page.goto(`${e2e.service.origin}/organization/members`);
    const founderRow = page.getByTestId("member-row").filter({ hasText: founder.email });
    await founderRow.waitFor();
    expect(await founderRow.getByTestId("member-remove").count()).toBe(0);
  });
});

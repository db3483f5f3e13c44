import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { screenshot, seriousA11yViolations, submitSignUpForm } from "./helpers/browser.js";
import { verifyByMailAndSignIn } from "./helpers/service.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/**
 * The product end to end, two people in two browser contexts, mail read from a real SMTP capture:
 * sign-up -> verify -> sign-in -> create an organization -> invite -> accept in another browser ->
 * teams -> leave.
 */
const e2e = setUpServiceAndBrowser({ options: { emailAndPassword: { requireEmailVerification: true } } });

const PASSWORD = "correct horse battery";
const mailTo = (email: string, subject: RegExp) =>
  e2e.service.mail!.waitFor((m) => m.to === email && subject.test(m.subject), 15_000);

/** Signs up on the form the page shows, verifies through the mail, and signs in (going on to `next`, if given). */
async function signUpAndVerify(page: Page, name: string, email: string, next?: string) {
  await submitSignUpForm(page, { name, email, password: PASSWORD });
  const path = next ? `/sign-in?redirectTo=${encodeURIComponent(next)}` : "/sign-in";
  await verifyByMailAndSignIn(e2e.service, page, { email, password: PASSWORD }, path);
}

describe("organization journey", () => {
  it("sign-up, verify, create, invite, accept in another browser, teams, leave", async () => {
    const owner = await (await e2e.browser.newContext()).newPage();
    await owner.goto(`${e2e.service.origin}/sign-up`);
    await signUpAndVerify(owner, "Olga Owner", `owner-${Date.now()}@example.com`);
    await owner.getByTestId("home-title").waitFor();

    // Create an organization: the slug follows the name and is checked.
    await owner.goto(`${e2e.service.origin}/organizations/new`);
    await owner.getByTestId("org-create-name").fill("Acme Corp");
    expect(await owner.getByTestId("org-create-slug").inputValue()).toBe("acme-corp");
    await owner.getByTestId("org-create-slug").focus();
    await owner.getByTestId("org-create-name").focus();
    await owner.getByText("This slug is free.").waitFor();
    await owner.getByTestId("org-create-submit").click();
    await owner.getByTestId("org-settings-card").waitFor();
    await expect.poll(() => owner.getByTestId("org-switcher-active").textContent()).toBe("Acme Corp");
    expect(await seriousA11yViolations(owner)).toEqual([]);
    await screenshot(owner, "organization-settings");

    // Invite by email.
    const inviteeEmail = `invitee-${Date.now()}@example.com`;
    await owner.goto(`${e2e.service.origin}/organization/invitations`);
    await owner.getByTestId("invite-email").fill(inviteeEmail);
    await owner.getByTestId("invite-role").selectOption("member");
    await owner.getByTestId("invite-submit").click();
    await owner.getByTestId("invite-sent").waitFor();
    await expect.poll(() => owner.getByTestId("invitation-row").count()).toBe(1);
    expect(await seriousA11yViolations(owner)).toEqual([]);
    await screenshot(owner, "organization-invitations");
    const invitationMail = await mailTo(inviteeEmail, /invit/i);
    const inviteLink = invitationMail.links.find((l) => l.includes("/accept-invitation/"))!;

    // The invitee, in a second browser context, has no account yet: signs up, verifies, comes back.
    const invitee = await (await e2e.browser.newContext()).newPage();
    await invitee.goto(inviteLink);
    await invitee.getByTestId("invitation-sign-up").click();
    await signUpAndVerify(invitee, "Ivan Invitee", inviteeEmail, new URL(inviteLink).pathname);
    await invitee.getByTestId("invitation-summary").waitFor();
    expect(await invitee.getByTestId("invitation-summary").textContent()).toContain("Acme Corp");
    expect(await seriousA11yViolations(invitee)).toEqual([]);
    await screenshot(invitee, "accept-invitation");
    await invitee.getByTestId("invitation-accept").click();
    await invitee.getByTestId("org-settings-card").waitFor();
    await invitee.goto(`${e2e.service.origin}/organization/members`);
    await expect.poll(() => invitee.getByTestId("member-row").count()).toBe(2);
    // A member sees no role pickers or remove buttons: the UI hides what the server would refuse.
    expect(await invitee.getByTestId("member-remove").count()).toBe(0);
    expect(await invitee.getByTestId("org-settings-submit").count()).toBe(0);

    // Teams: the owner creates one, renames it, and puts the new member in it.
    await owner.goto(`${e2e.service.origin}/organization/teams`);
    await owner.getByTestId("team-add").click();
    await owner.getByTestId("team-create-name").fill("Design");
    await owner.getByTestId("team-create-submit").click();
    const design = owner.getByTestId("team-row").filter({ hasText: "Design" });
    await design.getByTestId("team-open").click();
    await owner.getByTestId("team-rename-name").fill("Design Team");
    await owner.getByTestId("team-rename-submit").click();
    await expect.poll(() => owner.getByTestId("team-detail-name").textContent()).toBe("Design Team");
    await owner.getByTestId("team-add-member").selectOption({ label: "Ivan Invitee" });
    await owner.getByTestId("team-add-member-submit").click();
    await expect.poll(() => owner.getByTestId("team-members").textContent()).toContain("Ivan Invitee");
    expect(await seriousA11yViolations(owner)).toEqual([]);
    await screenshot(owner, "organization-teams");

    // The member leaves; the owner sees one member again.
    await invitee.getByTestId("org-leave").click();
    await invitee.getByTestId("confirm-accept").click();
    await invitee.getByTestId("home-title").waitFor();
    await owner.goto(`${e2e.service.origin}/organization/members`);
    await expect.poll(() => owner.getByTestId("member-row").count()).toBe(1);
    expect(await seriousA11yViolations(owner)).toEqual([]);
    await screenshot(owner, "organization-members");
  });
});

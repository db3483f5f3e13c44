import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { WebhookReceiver } from "../test/helpers/webhook-receiver.js";
import { seriousA11yViolations, signInThroughApi, signUpThroughApi } from "./helpers/browser.js";
import { setUpServiceAndBrowser } from "./helpers/setup.js";

/**
 * Issue 34 in the browser: an owner reads, filters, pages and downloads their organization's audit
 * trail; a plain member never sees it; the account's security activity shows a refused sign-in.
 */
const e2e = setUpServiceAndBrowser({
  options: {
    audit: { enabled: true },
    securityActivity: { enabled: true },
    // The test's receiver listens on loopback.
    organizationWebhooks: { enabled: true, allowPrivateUrls: true },
  },
});
const PASSWORD = "correct horse battery";
const owner = { name: "Olga Owner", email: "olga.owner@example.com", password: PASSWORD };
const member = { name: "Mia Member", email: "mia.member@example.com", password: PASSWORD };
const JOINERS = 30;
let organizationId: string;

const signUpByApi = (user: { name: string; email: string; password: string }) =>
  signUpThroughApi(e2e.service.origin, user);

/** A signed-in page with the organization active (set through the API from the page, then reloaded). */
async function signedInWithOrganization(user: { email: string; password: string }): Promise<Page> {
  const context = await e2e.newContext({ viewport: { width: 1100, height: 800 } });
  await signInThroughApi(context, e2e.service.origin, user);
  const page = await context.newPage();
  await page.goto(`${e2e.service.origin}/`);
  await page.getByTestId("home-title").waitFor();
  const status = await page.evaluate(async (id) => {
    const res = await fetch("/api/auth/organization/set-active", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ organizationId: id }),
    });
    return res.status;
  }, organizationId);
  expect(status).toBe(200);
  return page;
}

beforeAll(async () => {
  const api = e2e.service.auth.api;
  const ownerId = await signUpByApi(owner);
  const memberId = await signUpByApi(member);
  const organization = await api.createOrganization({
    body: { name: "Acme Audit", slug: "acme-audit", userId: ownerId },
  });
  organizationId = organization.id;
  await api.addMember({ body: { userId: memberId, role: "member", organizationId } });
  // Enough entries of one action for two pages.
  for (let i = 1; i <= JOINERS; i++) {
    const id = await signUpByApi({ name: `Joiner ${i}`, email: `joiner${i}@example.com`, password: PASSWORD });
    await api.addMember({ body: { userId: id, role: "member", organizationId } });
  }
});

const rows = (page: Page) => page.getByTestId("audit-trail-row");

describe("the organization's audit trail", () => {
  it("lets an owner filter it, page with Load more and download it as CSV", async () => {
    const page = await signedInWithOrganization(owner);
    // The owner's own change, for the actor filter.
    const renamed = await page.evaluate(async (id) => {
      const res = await fetch("/api/auth/organization/update", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ organizationId: id, data: { name: "Acme Audited" } }),
      });
      return res.status;
    }, organizationId);
    expect(renamed).toBe(200);

    await page.goto(`${e2e.service.origin}/organization`);
    await page.getByRole("link", { name: "Audit trail", exact: true }).click();
    await page.getByTestId("org-audit-card").waitFor();
    await expect.poll(() => rows(page).count()).toBe(25);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Only the joins: 31 (the member and the joiners), 25 then the rest.
    await page.getByTestId("audit-action").selectOption("organization.member_added");
    await page.getByTestId("audit-filter-submit").click();
    await expect
      .poll(() =>
        page.locator('[data-testid="audit-trail-row"]:not([data-action="organization.member_added"])').count(),
      )
      .toBe(0);
    await expect.poll(() => rows(page).count()).toBe(25);
    await page.getByTestId("audit-load-more").click();
    await expect.poll(() => rows(page).count()).toBe(JOINERS + 1);
    await expect.poll(() => page.getByTestId("audit-load-more").count()).toBe(0);

    // The joins as CSV: the header and one line each.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("audit-export-csv").click()]);
    expect(download.suggestedFilename()).toBe(`audit-trail-${organizationId}.csv`);
    const saved = join(await mkdtemp(join(tmpdir(), "audit-e2e-")), "trail.csv");
    await download.saveAs(saved);
    const csv = await readFile(saved, "utf8");
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      '"seq","id","createdAt","action","outcome","actorType","actorId","subjectId","organizationId","ipAddress","userAgent","requestId","details","hash"',
    );
    expect(lines).toHaveLength(JOINERS + 2);
    expect(lines.slice(1).every((line) => line.includes(',"organization.member_added",'))).toBe(true);

    // By actor: the owner's rename, named by the member list.
    await page.getByTestId("audit-action").selectOption("");
    await page.getByTestId("audit-actor").selectOption({ label: owner.name });
    await page.getByTestId("audit-filter-submit").click();
    await expect.poll(() => page.locator('[data-action="organization.updated"]').count()).toBe(1);
    expect(await rows(page).first().textContent()).toContain(`by ${owner.name}`);

    // A time range in the future matches nothing.
    await page.getByTestId("audit-from").fill("2999-01-01T00:00");
    await page.getByTestId("audit-filter-submit").click();
    await page.getByText("No entries match.").waitFor();
    expect(await rows(page).count()).toBe(0);
  });

  it("is not offered to a plain member, and refuses them at its address", async () => {
    const page = await signedInWithOrganization(member);
    await page.goto(`${e2e.service.origin}/organization`);
    await page.getByRole("link", { name: "Members", exact: true }).waitFor();
    expect(await page.getByRole("link", { name: "Audit trail", exact: true }).count()).toBe(0);
    await page.goto(`${e2e.service.origin}/organization/audit`);
    await page.getByTestId("org-audit-refused").waitFor();
    expect(await rows(page).count()).toBe(0);
  });
});

describe("the organization's webhooks", () => {
  it("lets an owner add one (secret shown once), receive the trail, send a test, disable and delete it", async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const page = await signedInWithOrganization(owner);
      await page.goto(`${e2e.service.origin}/organization`);
      await page.getByRole("link", { name: "Webhooks", exact: true }).click();
      await page.getByTestId("webhooks-none").waitFor();
      await page.getByTestId("webhook-url").fill(receiver.url);
      expect(await page.getByTestId("webhook-event-audit.entry").isChecked()).toBe(true);
      await page.getByTestId("webhook-add").click();
      await page.getByTestId("webhook-secret-card").waitFor();
      receiver.secret = await page.getByTestId("webhook-secret").inputValue();
      expect(receiver.secret).toMatch(/^whsec_/);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.getByTestId("webhook-secret-done").click();
      expect(await page.getByTestId("webhook-secret").count()).toBe(0);
      expect(await page.getByTestId("webhook-row").count()).toBe(1);

      // A change in the organization arrives signed with that secret.
      const renamed = await page.evaluate(async (id) => {
        const res = await fetch("/api/auth/organization/update", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ organizationId: id, data: { name: "Acme Streamed" } }),
        });
        return res.status;
      }, organizationId);
      expect(renamed).toBe(200);
      await expect
        .poll(() => receiver.delivered("audit.entry").filter((d) => d.data.action === "organization.updated").length)
        .toBe(1);

      // "Send test": one signed webhook.test delivery, whatever the webhook subscribes to.
      await page.getByTestId("webhook-test").click();
      await page.getByTestId("webhook-test-sent").waitFor();
      await expect.poll(() => receiver.delivered("webhook.test").length).toBe(1);

      await page.getByTestId("webhook-toggle").click();
      await page.locator('[data-testid="webhook-row"][data-enabled="false"]').waitFor();
      await page.getByTestId("webhook-delete").click();
      await page.getByRole("dialog").getByRole("button", { name: "Delete", exact: true }).click();
      await page.getByTestId("webhooks-none").waitFor();
    } finally {
      await receiver.close();
    }
  });
});

describe("the admin audit page", () => {
  it("shows the whole trail with the same filters and downloads", async () => {
    const admin = { name: "Ada Admin", email: "ada.audit@example.com", password: PASSWORD };
    const adminId = await signUpByApi(admin);
    await e2e.service.auth.database.db.updateTable("user").set({ role: "admin" }).where("id", "=", adminId).execute();
    const context = await e2e.newContext({ viewport: { width: 1100, height: 800 } });
    await signInThroughApi(context, e2e.service.origin, admin);
    const page = await context.newPage();
    await page.goto(`${e2e.service.origin}/`);
    await page.getByTestId("home-title").waitFor();
    await page.goto(`${e2e.service.origin}/admin/audit`);
    await page.getByTestId("admin-trail-card").waitFor();
    await page.getByTestId("audit-actor").fill(adminId);
    await page.getByTestId("audit-action").selectOption("user.sign_in");
    await page.getByTestId("audit-filter-submit").click();
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await page.getByTestId("audit-export-jsonl").getAttribute("href")).toContain(
      `/api/auth/admin/export-audit-trail?actorId=${adminId}&action=user.sign_in&format=jsonl`,
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});

describe("the account's security activity", () => {
  it("shows a refused sign-in with its device and IP", async () => {
    const wrong = await fetch(`${e2e.service.origin}/api/auth/sign-in/email`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: e2e.service.origin,
        "user-agent": "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0",
      },
      body: JSON.stringify({ email: member.email, password: "not the password" }),
    });
    expect(wrong.status).toBe(401);
    const page = await signedInWithOrganization(member);
    await page.goto(`${e2e.service.origin}/account/security`);
    const refused = page.locator('[data-testid="activity-sign-in"][data-outcome="failure"]');
    await refused.first().waitFor();
    expect(await refused.count()).toBe(1);
    const text = await refused.textContent();
    expect(text).toContain("Firefox 121 on Linux");
    expect(text).toContain("IP 127.0.0.1");
    expect(text).toContain("refused");
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestBrowser } from "./helpers/browser.js";
import { skipWithoutDnsServer, startDnsServer, type TestDnsServer } from "./helpers/dns.js";
import { refuseWrites } from "./helpers/faults.js";
import { type MailCapture, startMailCapture } from "./helpers/mail.js";
import { linkIn, nthMail } from "./helpers/mail-flows.js";
import { CLIENT_ID, CLIENT_SECRET, startOidcProvider, type TestOidcProvider } from "./helpers/oidc.js";
import { createOrganization, joinAs } from "./helpers/organization.js";
import { EVERY_FEATURE_ON, signUp, startTestServer, type TestServer } from "./helpers/server.js";
import { SoftAuthenticator } from "./helpers/soft-authenticator.js";

/**
 * Issue 34, item 1: an action's entry is written in the change's own transaction. The proof: make
 * the trail refuse every insert; an action whose entry shares its transaction then changes nothing
 * (the change rolls back with the entry), where one recorded after its change would have committed.
 */
let capture: MailCapture;
let server: TestServer;
let oidc: TestOidcProvider;
let dns: TestDnsServer;

skipWithoutDnsServer();

beforeAll(async () => {
  [capture, oidc, dns] = await Promise.all([startMailCapture(), startOidcProvider(), startDnsServer()]);
  server = await startTestServer({
    options: {
      ...EVERY_FEATURE_ON,
      audit: { enabled: true },
      user: { ...EVERY_FEATURE_ON.user, changeEmail: { enabled: true } },
      sso: { enabled: true, dnsResolvers: [dns.server], allowPrivateIssuers: true },
    },
    extra: { mail: { smtpUrl: capture.url } },
  });
  // The provider answers discovery once it knows its client (no sign-in here uses the redirect URI).
  await oidc.configure([`${server.origin}/api/auth/sso/callback/unused`]);
});
afterAll(async () => {
  await server.close();
  await capture.close();
  await oidc.close();
  await dns.close();
});
afterEach(() => expect(server.loggedErrors).toEqual([]));

const db = () => server.auth.database.db;

/**
 * Runs `act` while the trail refuses inserts: the request must fail and `unchanged` must still hold.
 * Then runs it again with the trail open: it succeeds and leaves exactly one entry of `action`.
 */
async function inOneTransaction(
  action: string,
  act: () => Promise<{ status: number; body?: unknown }>,
  unchanged: () => Promise<void>,
): Promise<void> {
  const undo = await refuseWrites(server, { table: "auditTrail", op: "INSERT" });
  let refused: { status: number };
  try {
    refused = await act();
  } finally {
    await undo();
  }
  expect(refused.status).toBe(500);
  // The 500 and the failure entry that could not be written either were logged; nothing else.
  expect(server.loggedErrors.length).toBeGreaterThan(0);
  server.loggedErrors.length = 0;
  await unchanged();
  await server.sealAudit();
  const before = await db().selectFrom("auditChain").select("headSeq").executeTakeFirstOrThrow();
  const done = await act();
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  await server.sealAudit();
  const entries = await db()
    .selectFrom("auditTrail")
    .select(["action", "outcome"])
    .where("seq", ">", before.headSeq)
    .execute();
  expect(entries).toEqual([{ action, outcome: "success" }]);
}

async function twoFactorRow(userId: string) {
  return db().selectFrom("twoFactor").selectAll().where("userId", "=", userId).executeTakeFirst();
}

describe("account security changes and their entries commit together", () => {
  it("two-factor enable, backup codes, disable", async () => {
    const account = await signUp(server, { verified: true });
    const { password, browser } = account;
    await inOneTransaction(
      "user.two_factor_enabled",
      () => browser.post("/two-factor/enable", { password }),
      async () => expect(await twoFactorRow(account.user.id)).toBeUndefined(),
    );
    // Turn it on for real, then the rest.
    await db().updateTable("twoFactor").set({ verified: true }).where("userId", "=", account.user.id).execute();
    await db().updateTable("user").set({ twoFactorEnabled: true }).where("id", "=", account.user.id).execute();
    const codesBefore = (await twoFactorRow(account.user.id))?.backupCodes;
    await inOneTransaction(
      "user.backup_codes_generated",
      () => browser.post("/two-factor/generate-backup-codes", { password }),
      async () => expect((await twoFactorRow(account.user.id))?.backupCodes).toEqual(codesBefore),
    );
    await inOneTransaction(
      "user.two_factor_disabled",
      () => browser.post("/two-factor/disable", { password }),
      async () => expect(await twoFactorRow(account.user.id)).toBeDefined(),
    );
  });

  it("passkey added, renamed and removed", async () => {
    const account = await signUp(server, { verified: true });
    const device = new SoftAuthenticator(new URL(server.origin).hostname, server.origin);
    const passkeys = () => db().selectFrom("passkey").select("id").where("userId", "=", account.user.id).execute();
    const register = async (browser: TestBrowser) => {
      const options = await browser.get("/passkey/generate-register-options");
      return browser.post("/passkey/verify-registration", { response: device.register(options.body), name: "Key" });
    };
    await inOneTransaction(
      "user.passkey_added",
      () => register(account.browser),
      async () => expect(await passkeys()).toEqual([]),
    );
    const [key] = await passkeys();
    const names = () => db().selectFrom("passkey").select("name").where("userId", "=", account.user.id).execute();
    await inOneTransaction(
      "user.passkey_renamed",
      () => account.browser.post("/passkey/update-passkey", { id: key?.id, name: "Phone" }),
      async () => expect(await names()).toEqual([{ name: "Key" }]),
    );
    await inOneTransaction(
      "user.passkey_removed",
      () => account.browser.post("/passkey/delete-passkey", { id: key?.id }),
      async () => expect(await passkeys()).toHaveLength(1),
    );
  });

  it("password change and email change request", async () => {
    const account = await signUp(server, { verified: true });
    const hash = () =>
      db()
        .selectFrom("account")
        .select("password")
        .where("userId", "=", account.user.id)
        .where("providerId", "=", "credential")
        .executeTakeFirstOrThrow();
    const hashBefore = await hash();
    await inOneTransaction(
      "user.password_changed",
      () =>
        account.browser.post("/change-password", {
          currentPassword: account.password,
          newPassword: "another horse battery",
        }),
      async () => expect(await hash()).toEqual(hashBefore),
    );
    // The request's change is the mail it queues (to the current address, to approve): none queued.
    // (Only that kind is counted: the worker may clear other rows, such as the password notice, meanwhile.)
    const approvals = () =>
      db()
        .selectFrom("outbox")
        .select("id")
        .where("to", "=", account.email)
        .where("kind", "like", "change-email%")
        .execute();
    await inOneTransaction(
      "user.email_change_requested",
      () => account.browser.post("/change-email", { newEmail: `moved-${account.email}` }),
      async () => expect(await approvals()).toEqual([]),
    );
    expect(await approvals()).toHaveLength(1);
  });
});

describe("password reset and its entries commit together", () => {
  it("request and reset", async () => {
    const account = await signUp(server, { verified: true });
    const resets = () =>
      db()
        .selectFrom("verification")
        .select("id")
        .where("value", "=", account.user.id)
        .where("identifier", "like", "reset-password:%")
        .execute();
    await inOneTransaction(
      "user.password_reset_requested",
      () => server.browser().post("/request-password-reset", { email: account.email }),
      async () => expect(await resets()).toEqual([]),
    );
    const mail = await nthMail(capture, account.email, "Reset your password");
    const token = linkIn(mail, "/reset-password/").split("/reset-password/")[1]?.split("?")[0] as string;
    const hash = () =>
      db()
        .selectFrom("account")
        .select("password")
        .where("userId", "=", account.user.id)
        .where("providerId", "=", "credential")
        .executeTakeFirstOrThrow();
    const hashBefore = await hash();
    await inOneTransaction(
      "user.password_reset",
      () => server.browser().post("/reset-password", { token, newPassword: "a reset horse battery" }),
      async () => {
        expect(await hash()).toEqual(hashBefore);
        expect(await resets()).toHaveLength(1);
      },
    );
  });
});

describe("team changes and their entries commit together", () => {
  it("create, update, add and remove a member, remove", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const member = await joinAs(server, organizationId, "member");
    const teams = () =>
      db()
        .selectFrom("team")
        .select(["id", "name"])
        .where("organizationId", "=", organizationId)
        .orderBy("id")
        .execute();
    const teamsBefore = await teams();
    await inOneTransaction(
      "organization.team_created",
      () => owner.browser.post("/organization/create-team", { name: "Blue" }),
      async () => expect(await teams()).toEqual(teamsBefore),
    );
    const blue = (await teams()).find((team) => team.name === "Blue");
    const teamId = blue?.id as string;
    await inOneTransaction(
      "organization.team_updated",
      () => owner.browser.post("/organization/update-team", { teamId, data: { name: "Green" } }),
      async () => expect((await teams()).find((team) => team.id === teamId)?.name).toBe("Blue"),
    );
    const teamMembers = () =>
      db().selectFrom("teamMember").select("userId").where("teamId", "=", teamId).orderBy("userId").execute();
    const membersBefore = await teamMembers();
    await inOneTransaction(
      "organization.team_member_added",
      () => owner.browser.post("/organization/add-team-member", { teamId, userId: member.user.id }),
      async () => expect(await teamMembers()).toEqual(membersBefore),
    );
    // A team role is the team's to grant: setting one (here clearing it) is its own entry.
    await inOneTransaction(
      "organization.team_member_role_updated",
      () => owner.browser.post("/organization/update-team-member-role", { teamId, userId: member.user.id, role: null }),
      async () => expect(await teamMembers()).toContainEqual({ userId: member.user.id }),
    );
    await inOneTransaction(
      "organization.team_member_removed",
      () => owner.browser.post("/organization/remove-team-member", { teamId, userId: member.user.id }),
      async () => expect(await teamMembers()).toContainEqual({ userId: member.user.id }),
    );
    await inOneTransaction(
      "organization.team_removed",
      () => owner.browser.post("/organization/remove-team", { teamId }),
      async () => expect((await teams()).map((team) => team.id)).toContain(teamId),
    );
  });
});

describe("SSO and SCIM connection changes and their entries commit together", () => {
  it("SSO: register, update, verify a domain, delete", async () => {
    const { owner } = await createOrganization(server);
    const providerId = "tx-sso";
    const connections = () => db().selectFrom("ssoProvider").selectAll().where("providerId", "=", providerId).execute();
    await inOneTransaction(
      "organization.sso_connection_created",
      () =>
        owner.browser.post("/sso/register", {
          providerId,
          issuer: oidc.issuer,
          domain: "tx-sso.test",
          oidcConfig: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
        }),
      async () => expect(await connections()).toEqual([]),
    );
    const registered = await connections();
    await inOneTransaction(
      "organization.sso_connection_updated",
      () => owner.browser.post("/sso/update-provider", { providerId, defaultRole: "admin", domain: "tx-sso2.test" }),
      async () => expect(await connections()).toEqual(registered),
    );
    const requested = await owner.browser.post("/sso/request-domain-verification", { providerId });
    await dns.setTxtRecords(
      Object.fromEntries(
        requested.body.records.map((record: { name: string; value: string }) => [record.name, [record.value]]),
      ),
    );
    const domains = () =>
      db().selectFrom("ssoDomain").select(["domain", "verified"]).where("providerId", "=", registered[0]!.id).execute();
    const unverified = await domains();
    await inOneTransaction(
      "organization.sso_domain_verified",
      () => owner.browser.post("/sso/verify-domain", { providerId }),
      async () => expect(await domains()).toEqual(unverified),
    );
    await inOneTransaction(
      "organization.sso_connection_deleted",
      () => owner.browser.post("/sso/delete-provider", { providerId }),
      async () => expect(await connections()).toHaveLength(1),
    );
  });

  it("SCIM: a token generated and rotated, the connection updated and deleted", async () => {
    const { owner } = await createOrganization(server);
    const providerId = "tx-scim";
    const connections = () =>
      db().selectFrom("scimProvider").selectAll().where("providerId", "=", providerId).execute();
    const generate = async () => {
      const answer = await owner.browser.post("/scim/generate-token", { providerId });
      // 201 is the route's success; the helper expects 200.
      return { ...answer, status: answer.status === 201 ? 200 : answer.status };
    };
    await inOneTransaction("organization.scim_token_generated", generate, async () =>
      expect(await connections()).toEqual([]),
    );
    const first = await connections();
    await inOneTransaction("organization.scim_token_generated", generate, async () =>
      expect(await connections()).toEqual(first),
    );
    const rotated = await connections();
    await inOneTransaction(
      "organization.scim_connection_updated",
      () => owner.browser.post("/scim/update-provider-connection", { providerId, linkExistingMembers: true }),
      async () => expect(await connections()).toEqual(rotated),
    );
    await inOneTransaction(
      "organization.scim_connection_deleted",
      () => owner.browser.post("/scim/delete-provider-connection", { providerId }),
      async () => expect(await connections()).toHaveLength(1),
    );
  });
});

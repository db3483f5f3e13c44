import { Readable } from "node:stream";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runCommand } from "../src/cli/run.js";
import { writeAuditEntry } from "../src/server/audit/entry.store.js";
import { verifyAuditChain } from "../src/server/audit/trail.store.js";
import { sweepExpired } from "../src/server/services/housekeeping.js";
import { dialectUnderTest } from "./helpers/database.js";
import { skipWithoutDnsServer, startDnsServer, type TestDnsServer } from "./helpers/dns.js";
import { CLIENT_ID, CLIENT_SECRET, startOidcProvider, type TestOidcProvider } from "./helpers/oidc.js";
import { createOrganization, joinAs } from "./helpers/organization.js";
import { EVERY_FEATURE_ON, signUp, startTestServer, type TestServer } from "./helpers/server.js";

/** Issue 34, items 1 and 2: the hash-chained security audit trail and its readers. */
let server: TestServer;
/** An identity provider and a DNS server for the SSO connections' changes. */
let oidc: TestOidcProvider;
let dns: TestDnsServer;

skipWithoutDnsServer();

beforeAll(async () => {
  [oidc, dns] = await Promise.all([startOidcProvider(), startDnsServer()]);
  // A file on SQLite, so the CLI can open the same database.
  server = await startTestServer({
    options: {
      ...EVERY_FEATURE_ON,
      audit: { enabled: true },
      sso: { enabled: true, dnsResolvers: [dns.server], allowPrivateIssuers: true },
    },
    shareable: true,
  });
  // The provider answers discovery once it knows its client (no sign-in here uses the redirect URI).
  await oidc.configure([`${server.origin}/api/auth/sso/callback/unused`]);
});
afterAll(async () => {
  await server?.close();
  await oidc?.close();
  await dns?.close();
});
afterEach(() => expect(server.loggedErrors).toEqual([]));

const db = () => server.auth.database.db;

/** Every entry since `seq`, once what was committed is sealed. */
async function entriesAfter(seq: number) {
  await server.sealAudit();
  const rows = await db().selectFrom("auditTrail").selectAll().where("seq", ">", seq).orderBy("seq").execute();
  return rows.map((row) => ({ ...row, seq: Number(row.seq), details: row.details ? JSON.parse(row.details) : null }));
}

async function headSeq(): Promise<number> {
  await server.sealAudit();
  const head = await db().selectFrom("auditChain").select("headSeq").executeTakeFirstOrThrow();
  return Number(head.headSeq);
}

/** What `act` added to the trail. */
async function added(act: () => Promise<unknown>) {
  const before = await headSeq();
  await act();
  return entriesAfter(before);
}

describe("account events appear once, with who, what, whence and how it ended", () => {
  it("sign-up, sign-in, a refused sign-in and sign-out", async () => {
    const email = `audit-${Math.random().toString(36).slice(2)}@example.com`;
    let account!: Awaited<ReturnType<typeof signUp>>;
    const signUpEntries = await added(async () => {
      account = await signUp(server, { email });
    });
    expect(signUpEntries).toHaveLength(1);
    expect(signUpEntries[0]).toMatchObject({
      action: "user.sign_up",
      outcome: "success",
      actorType: "user",
      actorId: account.user.id,
      subjectId: account.user.id,
      ipAddress: "127.0.0.1",
      details: { method: "email" },
    });
    expect(signUpEntries[0]?.requestId).toMatch(/^[0-9a-f]{12}$/);

    const browser = server.browser();
    const signIn = await added(() => browser.post("/sign-in/email", { email, password: account.password }));
    expect(signIn).toMatchObject([
      { action: "user.sign_in", outcome: "success", actorId: account.user.id, subjectId: account.user.id },
    ]);

    const sessionsBefore = await db().selectFrom("session").select("id").execute();
    const refused = await added(async () => {
      const answer = await server.browser().post("/sign-in/email", { email, password: "wrong password here" });
      expect(answer.status).toBe(401);
    });
    expect(refused).toMatchObject([
      {
        action: "user.sign_in",
        outcome: "failure",
        actorId: null,
        subjectId: account.user.id,
        details: { method: "email", code: "INVALID_EMAIL_OR_PASSWORD" },
      },
    ]);
    // The refusal changed nothing else.
    expect(await db().selectFrom("session").select("id").execute()).toEqual(sessionsBefore);

    const signOut = await added(() => browser.post("/sign-out", {}));
    expect(signOut).toMatchObject([{ action: "user.sign_out", outcome: "success", actorId: account.user.id }]);
  });
});

describe("organization events carry the organization", () => {
  it("create, invite, re-role, remove", async () => {
    let created!: Awaited<ReturnType<typeof createOrganization>>;
    const createEntries = await added(async () => {
      created = await createOrganization(server);
    });
    expect(createEntries.filter((e) => e.action === "organization.created")).toMatchObject([
      { outcome: "success", actorId: created.owner.user.id, organizationId: created.organizationId },
    ]);
    let member!: Awaited<ReturnType<typeof joinAs>>;
    const join = await added(async () => {
      member = await joinAs(server, created.organizationId, "member");
    });
    expect(join.filter((e) => e.action === "organization.member_added")).toMatchObject([
      {
        outcome: "success",
        actorType: "system",
        actorId: null,
        subjectId: member.user.id,
        organizationId: created.organizationId,
      },
    ]);
    const reRole = await added(() =>
      created.owner.browser.post("/organization/update-member-role", {
        memberId: member.memberId,
        role: "admin",
        organizationId: created.organizationId,
      }),
    );
    expect(reRole).toMatchObject([
      {
        action: "organization.member_role_updated",
        outcome: "success",
        actorId: created.owner.user.id,
        subjectId: member.user.id,
        organizationId: created.organizationId,
      },
    ]);
  });
});

describe("the chain", () => {
  it("verifies, and names the first edited or deleted entry", async () => {
    await signUp(server);
    await signUp(server);
    await server.sealAudit();
    const clean = await verifyAuditChain(db());
    expect(clean).toMatchObject({ ok: true, firstBad: null });
    expect(clean.checked).toBeGreaterThan(2);

    const rows = await entriesAfter(0);
    const victim = rows[1]!;
    await db().updateTable("auditTrail").set({ outcome: "failure" }).where("seq", "=", victim.seq).execute();
    expect((await verifyAuditChain(db())).firstBad).toEqual({ seq: victim.seq, id: victim.id, reason: "edited" });
    await db().updateTable("auditTrail").set({ outcome: victim.outcome }).where("seq", "=", victim.seq).execute();
    expect((await verifyAuditChain(db())).ok).toBe(true);

    const original = await db()
      .selectFrom("auditTrail")
      .selectAll()
      .where("seq", "=", victim.seq)
      .executeTakeFirstOrThrow();
    await db().deleteFrom("auditTrail").where("seq", "=", victim.seq).execute();
    expect((await verifyAuditChain(db())).firstBad).toEqual({ seq: victim.seq, id: null, reason: "missing" });
    await db()
      .insertInto("auditTrail")
      .values({ ...original, seq: Number(original.seq), createdAt: new Date(original.createdAt) })
      .execute();
    expect((await verifyAuditChain(db())).ok).toBe(true);
  });
});

/** `gatehouse audit verify` against the server's database, in process. */
async function verifyCommand(): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCommand(["audit", "verify"], {
    env: { DATABASE_URL: server.databaseUrl },
    stdin: Object.assign(Readable.from([]), { isTTY: false }),
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

async function makeAdmin() {
  const account = await signUp(server);
  await db().updateTable("user").set({ role: "admin" }).where("id", "=", account.user.id).execute();
  return account;
}

describe("more events, each once", () => {
  it("password change, session revocation, profile update", async () => {
    const account = await signUp(server);
    const cases: [string, () => Promise<unknown>][] = [
      ["user.updated", () => account.browser.post("/update-user", { name: "Renamed" })],
      [
        "user.password_changed",
        () =>
          account.browser.post("/change-password", {
            currentPassword: account.password,
            newPassword: "another sturdy passphrase",
          }),
      ],
      ["session.revoked_others", () => account.browser.post("/revoke-other-sessions", {})],
    ];
    for (const [action, act] of cases) {
      const entries = await added(act);
      expect(entries, action).toMatchObject([
        { action, outcome: "success", actorType: "user", actorId: account.user.id, subjectId: account.user.id },
      ]);
    }
  });

  it("admin actions and impersonation name the admin as actor and the user as subject", async () => {
    const admin = await makeAdmin();
    const target = await signUp(server);
    const cases: [string, string, object][] = [
      ["admin.role_set", "/admin/set-role", { userId: target.user.id, role: "user" }],
      ["admin.user_banned", "/admin/ban-user", { userId: target.user.id }],
      ["admin.user_unbanned", "/admin/unban-user", { userId: target.user.id }],
      ["admin.impersonation_started", "/admin/impersonate-user", { userId: target.user.id }],
      ["admin.impersonation_stopped", "/admin/stop-impersonating", {}],
    ];
    for (const [action, path, body] of cases) {
      const entries = await added(async () => expect((await admin.browser.post(path, body)).status).toBe(200));
      expect(entries, action).toMatchObject([
        { action, outcome: "success", actorType: "admin", actorId: admin.user.id, subjectId: target.user.id },
      ]);
    }
  });

  it("a refused organization change audits a failure and changes nothing", async () => {
    const { organizationId } = await createOrganization(server);
    const member = await joinAs(server, organizationId, "member");
    const other = await joinAs(server, organizationId, "member", "other");
    const entries = await added(async () => {
      const answer = await member.browser.post("/organization/remove-member", {
        memberIdOrEmail: other.memberId,
        organizationId,
      });
      expect(answer.status).toBe(403);
    });
    expect(entries).toMatchObject([
      {
        action: "organization.member_removed",
        outcome: "failure",
        actorId: member.user.id,
        organizationId,
        details: { code: expect.stringMatching(/^YOU_ARE_NOT_ALLOWED_TO_/) },
      },
    ]);
    expect(await db().selectFrom("member").select("id").where("id", "=", other.memberId).execute()).toHaveLength(1);
  });
});

describe("failures a stranger causes in another organization's trail", () => {
  it("are bounded per caller and organization a window, and carry no text the stranger chose", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const member = await joinAs(server, organizationId, "member");
    const [stranger, second] = [await signUp(server), await signUp(server)];
    const hostile = { headers: { "user-agent": '=HYPERLINK("http://evil.example") <img src=x onerror=alert(1)>' } };
    const probes: [string, Record<string, unknown>][] = [
      ["/organization/update", { organizationId, data: { name: "<b>Pwned</b>" } }],
      ["/organization/remove-member", { organizationId, memberIdOrEmail: "<script>alert(1)</script>" }],
      ["/organization/update-member-role", { organizationId, memberId: "=cmd|' /C calc'!A0", role: "admin" }],
      ["/organization/update", { organizationId, data: { name: "again" } }],
    ];
    const trailOf = async (actorId: string) =>
      (await entriesAfter(0)).filter((entry) => entry.organizationId === organizationId && entry.actorId === actorId);
    for (const [path, body] of probes) {
      const answer = await stranger.browser.post(path, body, hostile);
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.status, path).toBeLessThan(500);
    }
    const strangers = await trailOf(stranger.user.id);
    expect(strangers).toHaveLength(1);
    expect(strangers[0]).toMatchObject({ outcome: "failure", userAgent: null, details: { code: expect.any(String) } });
    expect(Object.keys(strangers[0]?.details ?? {})).toEqual(["code"]);
    // The owners still see the attempt in their own trail.
    const read = await owner.browser.get(`/organization/list-audit-trail?organizationId=${organizationId}`);
    expect(read.body.entries.filter((entry: { actorId: string }) => entry.actorId === stranger.user.id)).toHaveLength(
      1,
    );

    // Another caller has a bound of its own; after the window, the first may leave one more.
    await second.browser.post("/organization/update", { organizationId, data: { name: "x" } }, hostile);
    expect(await trailOf(second.user.id)).toHaveLength(1);
    server.clock.advance(61);
    await stranger.browser.post("/organization/update", { organizationId, data: { name: "x" } }, hostile);
    expect(await trailOf(stranger.user.id)).toHaveLength(2);

    // A member's refusals are theirs to answer for: each one, as it came.
    for (let i = 0; i < 2; i++) {
      const refused = await member.browser.post("/organization/delete", { organizationId }, hostile);
      expect(refused.status).toBe(403);
    }
    const members = await trailOf(member.user.id);
    expect(members.filter((entry) => entry.outcome === "failure")).toHaveLength(2);
    expect(members.at(-1)?.userAgent).toBe(hostile.headers["user-agent"]);
  });
});

describe("connection changes: SSO and SCIM, each once, in the right organization, never a secret", () => {
  const connection = (providerId: string, domain: string, extra: Record<string, unknown> = {}) => ({
    providerId,
    issuer: oidc.issuer,
    domain,
    oidcConfig: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
    ...extra,
  });

  it("SSO: register, update, verify a domain, delete", async () => {
    const { owner, organizationId } = await createOrganization(server);
    // A second organization of the same owner, now the active one: the entries still name the first.
    await createOrganization(server, { owner });
    const as = { outcome: "success", actorType: "user", actorId: owner.user.id, organizationId };
    const roleMapping = { claim: "groups", values: { "idp-admins": "admin" } };

    const registered = await added(async () => {
      const answer = await owner.browser.post(
        "/sso/register",
        connection("audited-sso", "audited-sso.test", { organizationId, roleMapping }),
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    });
    expect(registered).toMatchObject([
      {
        action: "organization.sso_connection_created",
        ...as,
        details: {
          providerId: "audited-sso",
          type: "oidc",
          issuer: oidc.issuer,
          domains: ["audited-sso.test"],
          defaultRole: "member",
          roleMapping,
        },
      },
    ]);

    const newSecret = "a-rotated-client-secret-0123456789";
    const updated = await added(async () => {
      const answer = await owner.browser.post("/sso/update-provider", {
        providerId: "audited-sso",
        defaultRole: "admin",
        oidcConfig: { clientSecret: newSecret },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    });
    expect(updated).toMatchObject([
      {
        action: "organization.sso_connection_updated",
        ...as,
        details: {
          providerId: "audited-sso",
          changed: ["defaultRole", "oidcConfig.clientSecret"],
          defaultRole: "admin",
        },
      },
    ]);

    // Asking for the TXT record is not a change anyone signs in by: no entry.
    let requested!: { records: { name: string; value: string }[] };
    expect(
      await added(async () => {
        requested = (await owner.browser.post("/sso/request-domain-verification", { providerId: "audited-sso" })).body;
      }),
    ).toEqual([]);
    await dns.setTxtRecords(Object.fromEntries(requested.records.map((record) => [record.name, [record.value]])));
    const verified = await added(async () => {
      const answer = await owner.browser.post("/sso/verify-domain", { providerId: "audited-sso" });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    });
    expect(verified).toMatchObject([
      {
        action: "organization.sso_domain_verified",
        ...as,
        details: { providerId: "audited-sso", domains: ["audited-sso.test"] },
      },
    ]);

    const deleted = await added(async () => {
      expect((await owner.browser.post("/sso/delete-provider", { providerId: "audited-sso" })).status).toBe(200);
    });
    expect(deleted).toMatchObject([
      {
        action: "organization.sso_connection_deleted",
        ...as,
        details: { providerId: "audited-sso", type: "oidc", issuer: oidc.issuer },
      },
    ]);

    const written = JSON.stringify([...registered, ...updated, ...verified, ...deleted]);
    expect(written).not.toContain(CLIENT_SECRET);
    expect(written).not.toContain(newSecret);
  });

  it("SSO: a refused change audits a failure in the connection's organization and changes nothing", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const registered = await owner.browser.post("/sso/register", connection("refused-sso", "refused-sso.test"));
    expect(registered.status).toBe(200);
    const member = await joinAs(server, organizationId, "member");
    const row = () => db().selectFrom("ssoProvider").selectAll().where("providerId", "=", "refused-sso").execute();
    const before = await row();
    for (const [action, path, body] of [
      [
        "organization.sso_connection_updated",
        "/sso/update-provider",
        { providerId: "refused-sso", defaultRole: "admin" },
      ],
      ["organization.sso_connection_deleted", "/sso/delete-provider", { providerId: "refused-sso" }],
    ] as const) {
      const entries = await added(async () => {
        const answer = await member.browser.post(path, body);
        expect([answer.status, answer.body.code]).toEqual([403, "SSO_INSUFFICIENT_ACCESS"]);
      });
      expect(entries, action).toMatchObject([
        {
          action,
          outcome: "failure",
          actorId: member.user.id,
          organizationId,
          details: { code: "SSO_INSUFFICIENT_ACCESS" },
        },
      ]);
    }
    expect(await row()).toEqual(before);

    // The owner's own attempt to make IdP groups owners: refused, audited, nothing saved.
    const ownerRole = await added(async () => {
      const answer = await owner.browser.post("/sso/update-provider", {
        providerId: "refused-sso",
        defaultRole: "owner",
      });
      expect([answer.status, answer.body.code]).toEqual([400, "SSO_ROLE_NOT_ALLOWED"]);
    });
    expect(ownerRole).toMatchObject([
      {
        action: "organization.sso_connection_updated",
        outcome: "failure",
        actorId: owner.user.id,
        organizationId,
        details: { code: "SSO_ROLE_NOT_ALLOWED" },
      },
    ]);
    expect(await row()).toEqual(before);
  });

  it("SCIM: a token generated and rotated, the connection updated, a group mapped, the connection deleted", async () => {
    const { owner, organizationId } = await createOrganization(server);
    await createOrganization(server, { owner });
    const as = { outcome: "success", actorType: "user", actorId: owner.user.id, organizationId };
    const tokens: string[] = [];
    const generate = async () => {
      const answer = await owner.browser.post("/scim/generate-token", { providerId: "audited-scim", organizationId });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      tokens.push(answer.body.scimToken);
    };
    const created = await added(generate);
    expect(created).toMatchObject([
      {
        action: "organization.scim_token_generated",
        ...as,
        details: { providerId: "audited-scim", rotated: false, linkExistingMembers: false },
      },
    ]);
    const rotated = await added(generate);
    expect(rotated).toMatchObject([
      { action: "organization.scim_token_generated", ...as, details: { providerId: "audited-scim", rotated: true } },
    ]);

    const updated = await added(async () => {
      const answer = await owner.browser.post("/scim/update-provider-connection", {
        providerId: "audited-scim",
        linkExistingMembers: true,
      });
      expect(answer.status).toBe(200);
    });
    expect(updated).toMatchObject([
      {
        action: "organization.scim_connection_updated",
        ...as,
        details: { providerId: "audited-scim", linkExistingMembers: true },
      },
    ]);

    const group = await fetch(`${server.origin}/api/auth/scim/v2/Groups`, {
      method: "POST",
      headers: { authorization: `Bearer ${tokens[1]}`, "content-type": "application/scim+json" },
      body: JSON.stringify({ schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"], displayName: "Admins" }),
    });
    expect(group.status).toBe(201);
    const groupId = ((await group.json()) as { id: string }).id;
    const mapped = await added(async () => {
      const answer = await owner.browser.post("/scim/update-group-mapping", {
        providerId: "audited-scim",
        groupId,
        role: "admin",
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    });
    expect(mapped).toMatchObject([
      {
        action: "organization.scim_group_mapping_updated",
        ...as,
        details: { providerId: "audited-scim", groupId, role: "admin", teamId: null },
      },
    ]);

    const deleted = await added(async () => {
      const answer = await owner.browser.post("/scim/delete-provider-connection", { providerId: "audited-scim" });
      expect(answer.status).toBe(200);
    });
    expect(deleted).toMatchObject([
      { action: "organization.scim_connection_deleted", ...as, details: { providerId: "audited-scim" } },
    ]);

    const written = JSON.stringify([...created, ...rotated, ...updated, ...mapped, ...deleted]);
    for (const token of tokens) expect(written).not.toContain(token);
  });

  it("SCIM: a refused change audits a failure in the connection's organization and changes nothing", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const generated = await owner.browser.post("/scim/generate-token", { providerId: "refused-scim" });
    expect(generated.status).toBe(201);
    const admin = await joinAs(server, organizationId, "admin");
    const row = () => db().selectFrom("scimProvider").selectAll().where("providerId", "=", "refused-scim").execute();
    const before = await row();
    for (const [action, path, body] of [
      ["organization.scim_token_generated", "/scim/generate-token", { providerId: "refused-scim" }],
      [
        "organization.scim_connection_updated",
        "/scim/update-provider-connection",
        { providerId: "refused-scim", linkExistingMembers: true },
      ],
      ["organization.scim_connection_deleted", "/scim/delete-provider-connection", { providerId: "refused-scim" }],
    ] as const) {
      const entries = await added(async () => {
        const answer = await admin.browser.post(path, body);
        expect([answer.status, answer.body.code], path).toEqual([403, "YOU_ARE_NOT_ALLOWED_TO_MANAGE_SCIM"]);
      });
      expect(entries, action).toMatchObject([
        {
          action,
          outcome: "failure",
          actorId: admin.user.id,
          organizationId,
          details: { code: "YOU_ARE_NOT_ALLOWED_TO_MANAGE_SCIM" },
        },
      ]);
    }
    expect(await row()).toEqual(before);
  });
});

describe("reading the trail", () => {
  it("an owner reads their organization's trail, filtered and paged; never another's", async () => {
    const mine = await createOrganization(server);
    const theirs = await createOrganization(server);
    for (const role of ["member", "admin", "member"]) await joinAs(server, mine.organizationId, role);
    await joinAs(server, theirs.organizationId, "member");
    // An entry is listed once sealed.
    await server.sealAudit();

    const page = await mine.owner.browser.get(
      `/organization/list-audit-trail?organizationId=${mine.organizationId}&limit=2`,
    );
    expect(page.status).toBe(200);
    expect(page.body.entries).toHaveLength(2);
    expect(page.body.nextCursor).toMatch(/^[0-9]+$/);
    const all = [...page.body.entries];
    let cursor = page.body.nextCursor;
    while (cursor) {
      const next = await mine.owner.browser.get(
        `/organization/list-audit-trail?organizationId=${mine.organizationId}&limit=2&cursor=${cursor}`,
      );
      all.push(...next.body.entries);
      cursor = next.body.nextCursor;
    }
    expect(all.every((entry) => entry.organizationId === mine.organizationId)).toBe(true);
    expect(all.map((entry) => entry.seq)).toEqual([...all.map((entry) => entry.seq)].sort((a, b) => b - a));
    expect(all.some((entry) => entry.action === "organization.created")).toBe(true);

    const byAction = await mine.owner.browser.get(
      `/organization/list-audit-trail?organizationId=${mine.organizationId}&action=organization.created`,
    );
    expect(byAction.body.entries).toMatchObject([{ action: "organization.created", actorId: mine.owner.user.id }]);
    const future = new Date(Date.now() + 86400_000).toISOString();
    const none = await mine.owner.browser.get(
      `/organization/list-audit-trail?organizationId=${mine.organizationId}&from=${encodeURIComponent(future)}`,
    );
    expect(none.body).toEqual({ entries: [], nextCursor: null });

    const other = await mine.owner.browser.get(
      `/organization/list-audit-trail?organizationId=${theirs.organizationId}`,
    );
    expect([other.status, other.body.code]).toEqual([403, "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION"]);
    const otherExport = await mine.owner.browser.get(
      `/organization/export-audit-trail?organizationId=${theirs.organizationId}`,
    );
    expect(otherExport.status).toBe(403);
    const member = await joinAs(server, mine.organizationId, "member", "reader");
    const notOwner = await member.browser.get(`/organization/list-audit-trail?organizationId=${mine.organizationId}`);
    expect([notOwner.status, notOwner.body.code]).toEqual([403, "YOU_ARE_NOT_ALLOWED_TO_READ_THE_AUDIT_TRAIL"]);

    const jsonl = await mine.owner.browser.get(
      `/organization/export-audit-trail?organizationId=${mine.organizationId}`,
    );
    expect(jsonl.headers.get("content-type")).toContain("application/x-ndjson");
    const lines = String(jsonl.body)
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.length).toBeGreaterThanOrEqual(all.length);
    expect(lines.every((entry) => entry.organizationId === mine.organizationId)).toBe(true);
    const csv = await mine.owner.browser.get(
      `/organization/export-audit-trail?organizationId=${mine.organizationId}&format=csv`,
    );
    const rows = String(csv.body).trim().split("\r\n");
    expect(rows[0]).toBe(
      '"seq","id","createdAt","action","outcome","actorType","actorId","subjectId","organizationId","ipAddress","userAgent","requestId","details","hash"',
    );
    expect(rows).toHaveLength(lines.length + 1);
  });

  it("CSV export quotes every cell and neutralises a formula however a spreadsheet splits the line", async () => {
    const { owner, organizationId } = await createOrganization(server);
    // A member's own text (their user agent) lands in the trail: these would run as formulas.
    const agents = ["=1+2", "+SUM(1)", "-2+3", "@SUM(1)", 'ua;=HYPERLINK("http://evil.example")', "ua,=1+2", "a\tb"];
    for (const agent of agents) {
      const res = await owner.browser.post(
        "/organization/update",
        { organizationId, data: { name: `Renamed ${agent.length}` } },
        { headers: { "user-agent": agent } },
      );
      expect(res.status).toBe(200);
    }
    await server.sealAudit();
    const csv = await owner.browser.get(`/organization/export-audit-trail?organizationId=${organizationId}&format=csv`);
    expect(csv.status).toBe(200);
    const rows = String(csv.body).trim().split("\r\n");
    const quotedCell = '"(?:[^"]|"")*"';
    for (const row of rows) {
      expect(row).toMatch(new RegExp(`^${quotedCell}(?:,${quotedCell})*$`));
      // A `,` spreadsheet, or a `;` one (German Excel) that may misread the quoting: no piece starts a formula.
      for (const separator of [",", ";"]) {
        for (const piece of row.split(separator)) expect(piece.replace(/^"/, ""), row).not.toMatch(/^[=+\-@\t\r]/);
      }
    }
    const agentsSeen = rows.slice(1).map((row) => row.match(new RegExp(quotedCell, "g"))?.[10]);
    expect(agentsSeen).toEqual(
      expect.arrayContaining(['"\'=1+2"', '"\'@SUM(1)"', '"ua;\'=HYPERLINK(""http://evil.example"")"', '"ua,\'=1+2"']),
    );
  });

  it("an admin reads the whole trail by actor; a plain user is refused", async () => {
    const admin = await makeAdmin();
    const someone = await signUp(server);
    const unsealed = await admin.browser.get(`/admin/list-audit-trail?actorId=${someone.user.id}`);
    // Listed once sealed: numbered and hash-chained.
    expect(unsealed.body.entries).toEqual([]);
    await server.sealAudit();
    const page = await admin.browser.get(`/admin/list-audit-trail?actorId=${someone.user.id}`);
    expect(page.status).toBe(200);
    expect(page.body.entries).toMatchObject([{ action: "user.sign_up", actorId: someone.user.id }]);
    const refused = await someone.browser.get("/admin/list-audit-trail");
    expect(refused.status).toBe(403);
    const bad = await admin.browser.get("/admin/list-audit-trail?action=no.such_action");
    expect(bad.status).toBe(400);
  });
});

describe("gatehouse audit verify", () => {
  it("exits 0 on an intact chain and 1 naming the first edited entry", async () => {
    await signUp(server);
    await server.sealAudit();
    expect(await verifyCommand()).toMatchObject({ code: 0, out: expect.stringContaining("audit chain intact") });
    const last = await db()
      .selectFrom("auditTrail")
      .select(["seq", "id", "ipAddress"])
      .orderBy("seq", "desc")
      .executeTakeFirstOrThrow();
    await db().updateTable("auditTrail").set({ ipAddress: "10.9.9.9" }).where("seq", "=", last.seq).execute();
    const broken = await verifyCommand();
    expect(broken.code).toBe(1);
    expect(broken.err).toContain(`entry ${Number(last.seq)} (id ${last.id})`);
    await db().updateTable("auditTrail").set({ ipAddress: last.ipAddress }).where("seq", "=", last.seq).execute();
    // The newest entry removed: the recorded head is no longer met.
    await db().deleteFrom("auditTrail").where("seq", "=", last.seq).execute();
    expect((await verifyAuditChain(db())).firstBad).toMatchObject({ seq: Number(last.seq), reason: "missing" });
  });
});

describe.skipIf(dialectUnderTest() !== "postgres")("concurrent writers on PostgreSQL", () => {
  it("150 parallel sign-ins leave one unbroken chain", async () => {
    // A fresh chain: the previous case broke this one on purpose.
    await db().deleteFrom("auditTrail").execute();
    await db()
      .updateTable("auditChain")
      .set({ headSeq: 0, headHash: "0".repeat(64), anchorSeq: 0, anchorHash: "0".repeat(64) })
      .execute();
    // Three sign-ins per account: the sign-in brake turns away a fifth attempt in flight for one account.
    const accounts = await Promise.all(Array.from({ length: 50 }, () => signUp(server)));
    const before = await headSeq();
    const answers = await Promise.all(
      Array.from({ length: 150 }, (_, i) => {
        const account = accounts[i % accounts.length]!;
        return server.browser().post("/sign-in/email", { email: account.email, password: account.password });
      }),
    );
    expect(
      answers.filter((answer) => answer.status !== 200).map((answer) => [answer.status, answer.body?.code]),
    ).toEqual([]);
    const entries = await entriesAfter(before);
    expect(entries.filter((entry) => entry.action === "user.sign_in" && entry.outcome === "success")).toHaveLength(150);
    expect(await verifyAuditChain(db())).toMatchObject({ ok: true, headSeq: before + 150 });

    // Writes whose entry rides in the change's own statement: 150 at once, three per account, each
    // sealed once and the chain unbroken.
    const beforeWrites = await headSeq();
    const updates = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        accounts[i % accounts.length]!.browser.post("/update-user", { name: `Parallel ${i}` }),
      ),
    );
    expect(updates.filter((answer) => answer.status !== 200).map((answer) => answer.status)).toEqual([]);
    const written = (await entriesAfter(beforeWrites)).filter((entry) => entry.action === "user.updated");
    expect(written).toHaveLength(150);
    expect(new Set(written.map((entry) => entry.seq)).size).toBe(150);
    expect(await verifyAuditChain(db())).toMatchObject({ ok: true, headSeq: beforeWrites + 150 });
  }, 120_000);
});

describe("the chain's hash as each database finishes it", () => {
  it("verifies entries whose text needs escaping: quotes, backslashes, control and non-ASCII characters", async () => {
    // A fresh chain: an earlier case broke this one on purpose.
    await db().deleteFrom("auditTrail").execute();
    await db()
      .updateTable("auditChain")
      .set({ headSeq: 0, headHash: "0".repeat(64), anchorSeq: 0, anchorHash: "0".repeat(64) })
      .execute();
    const before = await headSeq();
    const texts = ['say "hi" \\ back', "tab\t line\n nul-free \u0001 \u001f \u007f", "Zürich 🚀 \u2028 </script>", "ß"];
    await db()
      .transaction()
      .execute(async (trx) => {
        for (const [i, text] of texts.entries()) {
          await writeAuditEntry(
            {
              id: `escape-${before}-${i}`,
              createdAt: new Date(Date.UTC(2026, 10, 27, 5, 30, 0, 7 * i)),
              action: "user.updated",
              outcome: "success",
              actorType: "system",
              actorId: null,
              subjectId: text,
              organizationId: null,
              ipAddress: "::1",
              userAgent: text,
              requestId: null,
              details: JSON.stringify({ text }),
            },
            { transaction: trx, dialect: server.auth.database.dialect },
          );
        }
      });
    await server.sealAudit();
    const check = await verifyAuditChain(db());
    expect(check).toMatchObject({ ok: true, headSeq: before + texts.length });
  });
});

describe("retention", () => {
  it("prunes from the chain's start, records it, and the chain still verifies", async () => {
    const pruner = await startTestServer({
      shareDatabaseWith: server,
      options: { ...EVERY_FEATURE_ON, audit: { enabled: true, retentionDays: 1 } },
    });
    try {
      // Whatever an earlier case left broken goes first, so the check below is about pruning alone.
      await db().deleteFrom("auditTrail").execute();
      await db()
        .updateTable("auditChain")
        .set({ headSeq: 0, headHash: "0".repeat(64), anchorSeq: 0, anchorHash: "0".repeat(64) })
        .execute();
      await signUp(server);
      await signUp(server);
      server.clock.advance(2 * 86400);
      const kept = await signUp(server);
      await server.sealAudit();
      const swept = await sweepExpired(pruner.auth.context);
      expect(swept?.audit).toBe(2);
      const rows = await entriesAfter(0);
      expect(rows.map((row) => [row.action, row.actorId])).toEqual([
        ["user.sign_up", kept.user.id],
        ["audit.pruned", null],
      ]);
      // The checkpoint carries the pruned prefix's last number and hash: the anchor the chain goes on from.
      const anchor = await db().selectFrom("auditChain").select("anchorHash").executeTakeFirstOrThrow();
      expect(rows[1]).toMatchObject({
        actorType: "system",
        details: { entries: 2, throughSeq: 2, throughHash: anchor.anchorHash },
      });
      expect(anchor.anchorHash).toMatch(/^[0-9a-f]{64}$/);
      expect(await verifyAuditChain(db())).toMatchObject({ ok: true, anchorSeq: 2, checked: 2 });
      // Deleting the first kept entry is still caught.
      await db().deleteFrom("auditTrail").where("seq", "=", rows[0]!.seq).execute();
      expect((await verifyAuditChain(db())).firstBad).toMatchObject({ seq: 3, reason: "missing" });
    } finally {
      await pruner.close();
    }
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestBrowser } from "./helpers/browser.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

let server: TestServer;
let admin: { browser: TestBrowser; user: any; email: string; password: string };

async function makeAdmin(email?: string) {
  const account = await signUp(server, { email });
  await server.auth.database.db.updateTable("user").set({ role: "admin" }).where("id", "=", account.user.id).execute();
  return account;
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await makeAdmin();
});
afterAll(() => server.close());
afterEach(() => expect(server.loggedErrors).toEqual([]));

describe("every admin route: admin, plain user, signed out", () => {
  const routes: [string, string, (target: string) => unknown][] = [
    [
      "POST",
      "/admin/create-user",
      () => ({ email: `new-${Math.random()}@example.com`, name: "N", password: "sturdy-pass-123" }),
    ],
    ["GET", "/admin/list-users", () => undefined],
    ["GET", "/admin/get-user?id=TARGET", () => undefined],
    ["GET", "/admin/list-user-memberships?userId=TARGET", () => undefined],
    ["GET", "/admin/list-user-accounts?userId=TARGET", () => undefined],
    ["POST", "/admin/update-user", (t) => ({ userId: t, data: { name: "Renamed" } })],
    ["POST", "/admin/set-role", (t) => ({ userId: t, role: "user" })],
    ["POST", "/admin/ban-user", (t) => ({ userId: t })],
    ["POST", "/admin/unban-user", (t) => ({ userId: t })],
    ["POST", "/admin/set-user-password", (t) => ({ userId: t, newPassword: "another password" })],
    ["POST", "/admin/list-user-sessions", (t) => ({ userId: t })],
    ["POST", "/admin/revoke-user-session", () => ({ sessionToken: "unknown" })],
    ["POST", "/admin/revoke-user-sessions", (t) => ({ userId: t })],
    ["POST", "/admin/impersonate-user", (t) => ({ userId: t })],
    ["POST", "/admin/remove-user", (t) => ({ userId: t })],
    ["GET", "/admin/list-audit-log", () => undefined],
  ];

  it.each(routes)("%s %s", async (method, path, body) => {
    const target = await signUp(server);
    const plain = await signUp(server);
    const url = path.replace("TARGET", target.user.id);

    const signedOut = await server.browser().request(url, { method, body: body(target.user.id) });
    expect([signedOut.status, signedOut.body?.code]).toEqual([401, "UNAUTHORIZED"]);

    const refused = await plain.browser.request(url, { method, body: body(target.user.id) });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toMatch(/^YOU_ARE_NOT_ALLOWED_TO_/);

    const allowed = await admin.browser.request(url, { method, body: body(target.user.id) });
    expect(allowed.status).toBe(200);
    if (path === "/admin/impersonate-user") {
      expect((await admin.browser.post("/admin/stop-impersonating", {})).status).toBe(200);
    }
  });

  it("stop-impersonating without an impersonation is a 400, signed out a 401", async () => {
    expect((await server.browser().post("/admin/stop-impersonating", {})).status).toBe(401);
    const res = await admin.browser.post("/admin/stop-impersonating", {});
    expect([res.status, res.body.code]).toEqual([400, "NOT_IMPERSONATING"]);
  });

  it("has-permission answers for the caller, a role, or (for admins) another user", async () => {
    const plain = await signUp(server);
    const ask = (browser: TestBrowser, body: object) => browser.post("/admin/has-permission", body);
    expect((await ask(admin.browser, { permissions: { user: ["ban"], session: ["revoke"] } })).body).toEqual({
      error: null,
      success: true,
    });
    expect((await ask(plain.browser, { permissions: { user: ["list"] } })).body.success).toBe(false);
    expect((await ask(plain.browser, { role: "admin", permissions: { user: ["impersonate"] } })).body.success).toBe(
      true,
    );
    expect((await ask(admin.browser, { role: "user", permissions: { user: ["list"] } })).body.success).toBe(false);
    expect((await ask(admin.browser, { permissions: { user: ["fly"] } })).body.success).toBe(false);
    expect((await ask(admin.browser, { permissions: {} })).body.success).toBe(false);
    expect((await ask(admin.browser, { userId: plain.user.id, permissions: { user: ["list"] } })).body.success).toBe(
      false,
    );
    expect((await ask(plain.browser, { userId: admin.user.id, permissions: { user: ["list"] } })).status).toBe(403);
  });
});

describe("users", () => {
  it("creates a user who can then sign in, and refuses a taken email", async () => {
    const email = `created-${Date.now()}@example.com`;
    const res = await admin.browser.post("/admin/create-user", {
      email,
      name: "Made",
      password: "sturdy-pass-123",
      role: "admin",
    });
    expect(res.body.user).toMatchObject({ email, name: "Made", role: "admin", banned: false });
    expect((await server.browser().post("/sign-in/email", { email, password: "sturdy-pass-123" })).status).toBe(200);
    const again = await admin.browser.post("/admin/create-user", { email, name: "Again", password: "sturdy-pass-123" });
    expect([again.status, again.body.code]).toEqual([400, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL"]);
    const badRole = await admin.browser.post("/admin/create-user", {
      email: "x@example.com",
      name: "X",
      role: "wizard",
    });
    expect([badRole.status, badRole.body.code]).toEqual([400, "YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE"]);
  });

  it("lists users with search, filter, sort, paging and the total", async () => {
    const tag = `lst${Date.now()}`;
    for (const name of ["Carol", "alice", "Bob"]) {
      await signUp(server, { name: `${name} ${tag}`, email: `${name.toLowerCase()}.${tag}@example.com` });
    }
    const page1 = await admin.browser.get(
      `/admin/list-users?searchValue=${tag}&searchField=name&sortBy=name&sortDirection=asc&limit=2`,
    );
    expect(page1.body.total).toBe(3);
    expect(page1.body.users.map((u: any) => u.name.split(" ")[0])).toEqual(["Bob", "Carol"]);
    const page2 = await admin.browser.get(
      `/admin/list-users?searchValue=${tag}&searchField=name&sortBy=name&limit=2&offset=2`,
    );
    expect(page2.body.users.map((u: any) => u.name.split(" ")[0])).toEqual(["alice"]);
    const past = await admin.browser.get(`/admin/list-users?searchValue=${tag}&searchField=name&limit=2&offset=10`);
    expect(past.body).toMatchObject({ users: [], total: 3 });
    const byEmail = await admin.browser.get(`/admin/list-users?searchValue=BOB.${tag}`);
    expect(byEmail.body.users).toHaveLength(1);
    const admins = await admin.browser.get("/admin/list-users?filterField=role&filterValue=admin&limit=1000");
    expect(admins.body.users.every((u: any) => u.role === "admin")).toBe(true);
    expect(admins.body.users.some((u: any) => u.id === admin.user.id)).toBe(true);
    const wildcard = await admin.browser.get(`/admin/list-users?searchValue=${encodeURIComponent("%")}`);
    expect(wildcard.body.total).toBe(0);
    const bad = await admin.browser.get("/admin/list-users?sortBy=password");
    expect([bad.status, bad.body.code]).toEqual([400, "VALIDATION_ERROR"]);
  });

  it("gets and updates a user; refuses passwords and empty updates", async () => {
    const target = await signUp(server);
    expect((await admin.browser.get(`/admin/get-user?id=${target.user.id}`)).body.email).toBe(target.email);
    expect((await admin.browser.get("/admin/get-user?id=nobody")).status).toBe(404);
    const updated = await admin.browser.post("/admin/update-user", {
      userId: target.user.id,
      data: { name: "Fixed", emailVerified: true },
    });
    expect(updated.body).toMatchObject({ name: "Fixed", emailVerified: true });
    const pw = await admin.browser.post("/admin/update-user", { userId: target.user.id, data: { password: "x" } });
    expect(pw.body.code).toBe("PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER");
    const empty = await admin.browser.post("/admin/update-user", { userId: target.user.id, data: { unknown: 1 } });
    expect(empty.body.code).toBe("NO_DATA_TO_UPDATE");
  });

  it("sets roles, including several; refuses unknown roles", async () => {
    const target = await signUp(server);
    const res = await admin.browser.post("/admin/set-role", { userId: target.user.id, role: ["admin", "user"] });
    expect(res.body.user.role).toBe("admin,user");
    const bad = await admin.browser.post("/admin/set-role", { userId: target.user.id, role: "root" });
    expect(bad.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE");
  });

  it("sets a user's password, and removes users but not oneself", async () => {
    const target = await signUp(server);
    await admin.browser.post("/admin/set-user-password", { userId: target.user.id, newPassword: "brand new password" });
    expect(
      (await server.browser().post("/sign-in/email", { email: target.email, password: "brand new password" })).status,
    ).toBe(200);
    const short = await admin.browser.post("/admin/set-user-password", {
      userId: target.user.id,
      newPassword: "short",
    });
    expect(short.body.code).toBe("PASSWORD_TOO_SHORT");

    expect((await admin.browser.post("/admin/remove-user", { userId: admin.user.id })).body.code).toBe(
      "YOU_CANNOT_REMOVE_YOURSELF",
    );
    expect((await admin.browser.post("/admin/remove-user", { userId: target.user.id })).body).toEqual({
      success: true,
    });
    expect((await target.browser.get("/get-session")).body).toBeNull();
    expect((await admin.browser.get(`/admin/get-user?id=${target.user.id}`)).status).toBe(404);
  });
});

describe("a user's memberships and linked accounts", () => {
  it("lists the organizations with the user's role, and sign-in methods without any secret", async () => {
    const target = await signUp(server);
    const slug = `acme-${Date.now()}`;
    expect((await target.browser.post("/organization/create", { name: "Acme", slug })).status).toBe(200);

    const memberships = await admin.browser.get(`/admin/list-user-memberships?userId=${target.user.id}`);
    expect(memberships.body.memberships).toHaveLength(1);
    expect(memberships.body.memberships[0]).toMatchObject({
      organizationName: "Acme",
      organizationSlug: slug,
      role: "owner",
    });
    expect(Object.keys(memberships.body.memberships[0]).sort()).toEqual([
      "createdAt",
      "organizationId",
      "organizationName",
      "organizationSlug",
      "role",
    ]);

    const accounts = await admin.browser.get(`/admin/list-user-accounts?userId=${target.user.id}`);
    expect(accounts.body.accounts).toHaveLength(1);
    expect(accounts.body.accounts[0]).toMatchObject({ providerId: "credential", accountId: target.user.id });
    expect(Object.keys(accounts.body.accounts[0]).sort()).toEqual(["accountId", "createdAt", "id", "providerId"]);

    const unknown = await admin.browser.get("/admin/list-user-memberships?userId=nobody");
    expect(unknown.body).toEqual({ memberships: [] });
    const missing = await admin.browser.get("/admin/list-user-accounts");
    expect([missing.status, missing.body.code]).toEqual([400, "VALIDATION_ERROR"]);
  });
});

describe("bans", () => {
  it("ends the user's live sessions at once and refuses sign-in with the reason and expiry", async () => {
    const target = await signUp(server);
    const res = await admin.browser.post("/admin/ban-user", {
      userId: target.user.id,
      banReason: "spam",
      banExpiresIn: 3600,
    });
    expect(res.body.user).toMatchObject({ banned: true, banReason: "spam" });
    expect((await target.browser.get("/get-session")).body).toBeNull();

    const signIn = await server.browser().post("/sign-in/email", { email: target.email, password: target.password });
    expect(signIn.status).toBe(403);
    expect(signIn.body.code).toBe("BANNED_USER");
    expect(signIn.body.message).toContain("spam");
    expect(signIn.body).toMatchObject({ banReason: "spam" });
    expect(Date.parse(signIn.body.banExpires)).toBeGreaterThan(Date.now());

    server.clock.advance(3601);
    const later = await server.browser().post("/sign-in/email", { email: target.email, password: target.password });
    expect(later.status).toBe(200);
    expect(later.body.user.banned).toBe(false);
  });

  it("bans without an expiry until unbanned; an admin cannot ban themself", async () => {
    const target = await signUp(server);
    await admin.browser.post("/admin/ban-user", { userId: target.user.id });
    expect(
      (await server.browser().post("/sign-in/email", { email: target.email, password: target.password })).status,
    ).toBe(403);
    await admin.browser.post("/admin/unban-user", { userId: target.user.id });
    expect(
      (await server.browser().post("/sign-in/email", { email: target.email, password: target.password })).status,
    ).toBe(200);
    const self = await admin.browser.post("/admin/ban-user", { userId: admin.user.id });
    expect(self.body.code).toBe("YOU_CANNOT_BAN_YOURSELF");
  });
});

describe("sessions and impersonation", () => {
  it("lists and revokes a user's sessions by handle", async () => {
    const target = await signUp(server);
    const listed = await admin.browser.post("/admin/list-user-sessions", { userId: target.user.id });
    expect(listed.body.sessions).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain(target.token);
    await admin.browser.post("/admin/revoke-user-session", { sessionToken: listed.body.sessions[0].token });
    expect((await target.browser.get("/get-session")).body).toBeNull();
  });

  it("impersonates for a short marked session, hidden from the user, and returns to the admin's own", async () => {
    const target = await signUp(server);
    const adminSession = (await admin.browser.get("/get-session")).body;
    const started = await admin.browser.post("/admin/impersonate-user", { userId: target.user.id });
    expect(started.status).toBe(200);
    expect(started.body.session.impersonatedBy).toBe(admin.user.id);
    const seen = (await admin.browser.get("/get-session")).body;
    expect(seen.user.id).toBe(target.user.id);
    expect(Date.parse(seen.session.expiresAt) - Date.parse(seen.session.createdAt)).toBe(3600 * 1000);

    const targetSessions = (await target.browser.get("/list-sessions")).body;
    expect(targetSessions.some((s: any) => s.impersonatedBy)).toBe(false);

    const stopped = await admin.browser.post("/admin/stop-impersonating", {});
    expect(stopped.body.user.id).toBe(admin.user.id);
    const back = (await admin.browser.get("/get-session")).body;
    expect(back.session.id).toBe(adminSession.session.id);
    const rows = await server.auth.database.db
      .selectFrom("session")
      .select("id")
      .where("impersonatedBy", "=", admin.user.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it("ends impersonation after its hour and refuses to impersonate another admin", async () => {
    const target = await signUp(server);
    const otherAdmin = await makeAdmin();
    const refused = await admin.browser.post("/admin/impersonate-user", { userId: otherAdmin.user.id });
    expect([refused.status, refused.body.code]).toEqual([403, "YOU_CANNOT_IMPERSONATE_ADMINS"]);

    const browser = server.browser();
    await browser.post("/sign-in/email", { email: admin.email, password: admin.password });
    await browser.post("/admin/impersonate-user", { userId: target.user.id });
    server.clock.advance(3601);
    expect((await browser.get("/get-session")).body).toBeNull();
  });

  it("records every admin action and impersonation in the audit log", async () => {
    const target = await signUp(server);
    await admin.browser.post(
      "/admin/ban-user",
      { userId: target.user.id, banReason: "audit me" },
      { headers: { "user-agent": "AdminConsole/2" } },
    );
    await admin.browser.post("/admin/unban-user", { userId: target.user.id });
    await admin.browser.post("/admin/impersonate-user", { userId: target.user.id });
    await admin.browser.post("/admin/stop-impersonating", {});
    const log = await admin.browser.get(`/admin/list-audit-log?targetUserId=${target.user.id}`);
    expect(log.body.total).toBe(4);
    expect(log.body.entries.map((e: any) => e.action)).toEqual([
      "user.stop-impersonating",
      "user.impersonate",
      "user.unban",
      "user.ban",
    ]);
    const ban = log.body.entries[3];
    expect(ban).toMatchObject({
      actorUserId: admin.user.id,
      targetUserId: target.user.id,
      ipAddress: "127.0.0.1",
      userAgent: "AdminConsole/2",
    });
    expect(ban.details).toMatchObject({ banReason: "audit me" });
    expect(ban.actor).toEqual({ id: admin.user.id, name: admin.user.name, email: admin.user.email });
    expect(ban.target).toEqual({ id: target.user.id, name: target.user.name, email: target.user.email });
  });

  it("names actor and target in one query, and a removed target comes back null with its id kept", async () => {
    const target = await signUp(server);
    await admin.browser.post("/admin/update-user", { userId: target.user.id, data: { name: "Renamed Target" } });
    const before = server.queryCount();
    const named = await admin.browser.get(`/admin/list-audit-log?targetUserId=${target.user.id}`);
    const reads = server.queryCount() - before;
    expect(named.body.entries[0]).toMatchObject({
      action: "user.update",
      actor: { id: admin.user.id, name: admin.user.name, email: admin.user.email },
      target: { id: target.user.id, name: "Renamed Target", email: target.user.email },
    });

    await admin.browser.post("/admin/remove-user", { userId: target.user.id });
    const log = await admin.browser.get(`/admin/list-audit-log?targetUserId=${target.user.id}`);
    expect(log.body.entries.map((e: any) => e.action)).toEqual(["user.remove", "user.update"]);
    for (const entry of log.body.entries) {
      expect(entry).toMatchObject({ targetUserId: target.user.id, target: null, actor: { id: admin.user.id } });
    }
    // The session lookup plus one read of the log: the names come from joins, not a query per entry.
    const again = server.queryCount();
    await admin.browser.get(`/admin/list-audit-log?targetUserId=${target.user.id}`);
    expect(server.queryCount() - again).toBe(reads);
  });
});

describe("permission checks never trip over prototype keys", () => {
  it("answers false, not 500, for resources like constructor", async () => {
    const res = await admin.browser.post("/admin/has-permission", {
      permissions: { constructor: ["x"], toString: ["y"] },
    });
    expect(res.body).toEqual({ error: null, success: false });
  });
});

describe("role filter on list-users", () => {
  it("matches one role inside a comma-separated list, and ne excludes it", async () => {
    const several = await signUp(server);
    await admin.browser.post("/admin/set-role", { userId: several.user.id, role: ["user", "admin"] });
    const plain = await signUp(server);
    const admins = (await admin.browser.get("/admin/list-users?filterField=role&filterValue=admin&limit=1000")).body;
    const ids = admins.users.map((u: any) => u.id);
    expect(ids).toContain(several.user.id);
    expect(ids).not.toContain(plain.user.id);
    const others = (
      await admin.browser.get("/admin/list-users?filterField=role&filterValue=admin&filterOperator=ne&limit=1000")
    ).body;
    const otherIds = others.users.map((u: any) => u.id);
    expect(otherIds).toContain(plain.user.id);
    expect(otherIds).not.toContain(several.user.id);
  });
});

describe("admin on admin", () => {
  const actions: [string, (targetId: string) => unknown][] = [
    ["/admin/set-user-password", (t) => ({ userId: t, newPassword: "taken over password" })],
    ["/admin/update-user", (t) => ({ userId: t, data: { email: `taken-${Math.random()}@example.com` } })],
    ["/admin/ban-user", (t) => ({ userId: t })],
    ["/admin/set-role", (t) => ({ userId: t, role: "user" })],
    ["/admin/remove-user", (t) => ({ userId: t })],
  ];

  it.each(actions)("%s on another admin is 403 YOU_CANNOT_MANAGE_ADMINS and changes nothing", async (path, body) => {
    const other = await makeAdmin();
    const before = await server.auth.database.db
      .selectFrom("user")
      .selectAll()
      .where("id", "=", other.user.id)
      .executeTakeFirstOrThrow();
    const res = await admin.browser.post(path, body(other.user.id));
    expect([res.status, res.body.code]).toEqual([403, "YOU_CANNOT_MANAGE_ADMINS"]);
    const after = await server.auth.database.db
      .selectFrom("user")
      .selectAll()
      .where("id", "=", other.user.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    expect((await other.browser.get("/get-session")).body.user.id).toBe(other.user.id);
  });

  it("allowManagingAdmins lets an admin act on another admin", async () => {
    const permissive = await startTestServer({ options: { admin: { allowManagingAdmins: true } } });
    try {
      const first = await signUp(permissive);
      const second = await signUp(permissive);
      const db = permissive.auth.database.db;
      await db.updateTable("user").set({ role: "admin" }).where("id", "in", [first.user.id, second.user.id]).execute();
      const res = await first.browser.post("/admin/set-user-password", {
        userId: second.user.id,
        newPassword: "reset by a peer",
      });
      expect(res.status).toBe(200);
      // Setting someone's password signs them out everywhere.
      expect((await second.browser.get("/get-session")).body).toBeNull();
    } finally {
      await permissive.close();
    }
  });
});

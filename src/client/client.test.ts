import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { cookieFetch } from "../../test/helpers/cookie-fetch.js";
import { startTestServer, type TestServer } from "../../test/helpers/server.js";
import { type AuthClient, createAuthClient, type QueryStore } from "./index.js";
import { isSafeRedirect, makesStale, pathFor } from "./paths.js";

/** A real HTTP server that records each request and answers what the test queued for its path. */
interface Recorded {
  method: string;
  path: string;
  query: string;
  body: unknown;
  headers: IncomingMessage["headers"];
}
let echo: Server;
let echoOrigin: string;
const recorded: Recorded[] = [];
const replies = new Map<string, { status: number; body: string }>();

beforeAll(async () => {
  echo = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => {
      text += chunk;
    });
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      recorded.push({
        method: req.method ?? "",
        path: url.pathname,
        query: url.search,
        body: text ? JSON.parse(text) : undefined,
        headers: req.headers,
      });
      const reply = replies.get(url.pathname) ?? { status: 200, body: '{"ok":true}' };
      res.writeHead(reply.status, { "content-type": "application/json" });
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
  echoOrigin = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => echo.close(() => resolve())));

const last = () => recorded[recorded.length - 1]!;
const echoClient = (extra: Parameters<typeof createAuthClient>[0] = {}) =>
  createAuthClient({ baseURL: echoOrigin, focusTarget: null, ...extra });

describe("path mapping and method choice", () => {
  it("turns the camelCase call chain into a kebab-case path under the base path", () => {
    expect(pathFor(["signIn", "email"])).toBe("/sign-in/email");
    expect(pathFor(["organization", "getFullOrganization"])).toBe("/organization/get-full-organization");
    expect(pathFor(["listAccounts"])).toBe("/list-accounts");
  });

  it("POSTs a JSON body when the call has one, and sends credentials-bearing JSON requests", async () => {
    const client = echoClient();
    await client.signIn.email({ email: "a@example.com", password: "pw123456", rememberMe: false });
    expect(last()).toMatchObject({
      method: "POST",
      path: "/api/auth/sign-in/email",
      body: { email: "a@example.com", password: "pw123456", rememberMe: false },
    });
    expect(last().headers["content-type"]).toBe("application/json");
  });

  it("GETs when there is no body, and turns `query` into the query string", async () => {
    const client = echoClient();
    await client.listAccounts();
    expect(last()).toMatchObject({ method: "GET", path: "/api/auth/list-accounts", body: undefined });
    await client.organization.listTeams({ query: { organizationId: "org 1" } });
    expect(last()).toMatchObject({
      method: "GET",
      path: "/api/auth/organization/list-teams",
      query: "?organizationId=org+1",
    });
  });

  it("reads the session again after update-session, like update-user", () => {
    expect(makesStale("/update-session", "session")).toBe(true);
    expect(makesStale("/update-user", "session")).toBe(true);
  });

  it("follows the fixed method table: bodiless POSTs send {} and some reads stay GET", async () => {
    const client = echoClient();
    for (const call of [
      () => client.signOut(),
      () => client.revokeSessions(),
      () => client.revokeOtherSessions(),
      () => client.deleteUser(),
      () => client.signIn.anonymous(),
      () => client.deleteAnonymousUser(),
    ]) {
      await call();
      expect(last().method).toBe("POST");
      expect(last().body).toEqual({});
    }
    await client.organization.getFullOrganization({ query: { organizationSlug: "acme" } });
    expect(last()).toMatchObject({ method: "GET", path: "/api/auth/organization/get-full-organization" });
    await client.organization.listUserTeams();
    expect(last()).toMatchObject({ method: "GET", path: "/api/auth/organization/list-user-teams" });
  });

  it("takes a custom base path, or a full API URL, and sends configured headers", async () => {
    await echoClient({ basePath: "/auth", headers: { origin: "http://app.test" } }).organization.list();
    expect(last()).toMatchObject({ path: "/auth/organization/list" });
    expect(last().headers.origin).toBe("http://app.test");
    await createAuthClient({ baseURL: `${echoOrigin}/custom/api`, focusTarget: null }).getSession();
    expect(last().path).toBe("/custom/api/get-session");
  });
});

describe("admin calls", () => {
  it("map to /admin/ paths: reads with a query GET, changes POST, stop-impersonating POSTs without a body", async () => {
    const client = echoClient();
    await client.admin.listUsers({ query: { searchValue: "ann", searchField: "name", limit: 20, offset: 40 } });
    expect(last()).toMatchObject({
      method: "GET",
      path: "/api/auth/admin/list-users",
      query: "?searchValue=ann&searchField=name&limit=20&offset=40",
    });
    await client.admin.getUser({ query: { id: "u1" } });
    expect(last()).toMatchObject({ method: "GET", path: "/api/auth/admin/get-user", query: "?id=u1" });
    await client.admin.listUserMemberships({ query: { userId: "u1" } });
    expect(last()).toMatchObject({ method: "GET", path: "/api/auth/admin/list-user-memberships", query: "?userId=u1" });
    await client.admin.listUserAccounts({ query: { userId: "u1" } });
    expect(last()).toMatchObject({ method: "GET", path: "/api/auth/admin/list-user-accounts" });
    await client.admin.listAuditLog({ query: { limit: 10 } });
    expect(last()).toMatchObject({ method: "GET", path: "/api/auth/admin/list-audit-log", query: "?limit=10" });
    await client.admin.banUser({ userId: "u1", banReason: "spam", banExpiresIn: 3600 });
    expect(last()).toMatchObject({
      method: "POST",
      path: "/api/auth/admin/ban-user",
      body: { userId: "u1", banReason: "spam", banExpiresIn: 3600 },
    });
    await client.admin.listUserSessions({ userId: "u1" });
    expect(last()).toMatchObject({ method: "POST", path: "/api/auth/admin/list-user-sessions" });
    await client.admin.stopImpersonating();
    expect(last()).toMatchObject({ method: "POST", path: "/api/auth/admin/stop-impersonating", body: {} });
  });
});

describe("replies", () => {
  it("revives ISO dates into Date objects and leaves other strings alone", async () => {
    replies.set("/api/auth/organization/list", {
      status: 200,
      body: JSON.stringify([{ id: "o1", name: "2026-01-01", createdAt: "2026-11-21T23:44:03.534Z" }]),
    });
    const { data, error } = await echoClient().organization.list();
    expect(error).toBeNull();
    expect(data![0]!.createdAt).toBeInstanceOf(Date);
    expect(data![0]!.createdAt.toISOString()).toBe("2026-11-21T23:44:03.534Z");
    expect(data![0]!.name).toBe("2026-01-01");
  });

  it("gives {code, message, status, statusText} even for an empty error body", async () => {
    replies.set("/api/auth/organization/create", { status: 401, body: "" });
    const { data, error } = await echoClient().organization.create({ name: "A", slug: "a" });
    expect(data).toBeNull();
    expect(error).toEqual({ code: "UNAUTHORIZED", message: "Unauthorized", status: 401, statusText: "Unauthorized" });
  });

  it("reports an unreachable server as status 0 NETWORK_ERROR instead of throwing", async () => {
    const client = createAuthClient({ baseURL: "http://127.0.0.1:1", focusTarget: null });
    const { error } = await client.getSession();
    expect(error).toMatchObject({ code: "NETWORK_ERROR", status: 0 });
  });

  it("follows {redirect: true, url} replies to safe URLs only", async () => {
    const visited: string[] = [];
    const client = echoClient({ navigate: (url) => visited.push(url) });
    replies.set("/api/auth/sign-in/social", {
      status: 200,
      body: JSON.stringify({ url: "https://idp.example/authorize?x=1", redirect: true }),
    });
    await client.signIn.social({ provider: "idp" });
    replies.set("/api/auth/link-social", {
      status: 200,
      body: JSON.stringify({ url: "javascript:alert(1)", redirect: true }),
    });
    await client.linkSocial({ provider: "idp" });
    replies.set("/api/auth/sign-in/email", { status: 200, body: JSON.stringify({ url: "/home", redirect: false }) });
    await client.signIn.email({ email: "a@b.c", password: "x" });
    expect(visited).toEqual(["https://idp.example/authorize?x=1"]);
    expect(isSafeRedirect("//evil.example")).toBe(false);
    // The browser strips the tab: this would be "//evil.example".
    expect(isSafeRedirect("/\t/evil.example")).toBe(false);
    expect(isSafeRedirect("/\\evil.example")).toBe(false);
    expect(isSafeRedirect("/dashboard")).toBe(true);
    replies.clear();
  });

  it("throws an AuthClientRequestError with `throw: true`", async () => {
    replies.set("/api/auth/update-user", {
      status: 400,
      body: '{"code":"NO_FIELDS_TO_UPDATE","message":"No fields to update"}',
    });
    await expect(echoClient().updateUser({}, { throw: true })).rejects.toMatchObject({
      error: { code: "NO_FIELDS_TO_UPDATE", status: 400 },
    });
    replies.clear();
  });
});

describe("organization stores", () => {
  const hits = (path: string) => recorded.filter((r) => r.path === `/api/auth${path}`).length;
  const settle = () => new Promise((resolve) => setTimeout(resolve, 100));
  const signedInWith = (activeOrganizationId: string | null) =>
    replies.set("/api/auth/get-session", {
      status: 200,
      body: JSON.stringify({ session: { id: "s1", activeOrganizationId }, user: { id: "u1" } }),
    });
  /** Subscribes to the three organization stores, as a page showing them does. */
  const watchOrganizationStores = (client: ReturnType<typeof echoClient>) => {
    for (const store of [
      client.$store.activeOrganization,
      client.$store.listOrganizations,
      client.$store.activeMember,
    ]) {
      store.subscribe(() => {});
    }
  };
  beforeEach(() => signedInWith("o1"));
  afterEach(() => replies.delete("/api/auth/get-session"));

  it("ask nothing when signed out, and nothing about an active organization when there is none", async () => {
    const paths = ["/organization/get-full-organization", "/organization/list", "/organization/get-active-member"];
    const count = () => paths.map(hits);
    replies.set("/api/auth/get-session", { status: 200, body: "null" });
    const signedOut = echoClient({ refetchDelayMs: 0 });
    const before = count();
    watchOrganizationStores(signedOut);
    await settle();
    expect(count()).toEqual(before);
    expect(signedOut.$store.listOrganizations.getSnapshot().data).toEqual([]);

    signedInWith(null);
    replies.set("/api/auth/organization/list", { status: 200, body: "[]" });
    const noActive = echoClient({ refetchDelayMs: 0 });
    watchOrganizationStores(noActive);
    await settle();
    expect(count()).toEqual([before[0], before[1]! + 1, before[2]]);
  });

  it("read once when first watched, never re-triggered by their own reads", async () => {
    replies.set("/api/auth/organization/get-full-organization", { status: 200, body: "null" });
    const client = echoClient({ refetchDelayMs: 0 });
    const before = hits("/organization/get-full-organization");
    const unsubscribe = client.$store.activeOrganization.subscribe(() => {});
    await settle();
    expect(hits("/organization/get-full-organization") - before).toBe(1);
    unsubscribe();
  });

  it("read again after organization changes: the active one after any, the list after create/update/delete", async () => {
    replies.set("/api/auth/organization/list", { status: 200, body: "[]" });
    const client = echoClient({ refetchDelayMs: 0 });
    watchOrganizationStores(client);
    await settle();
    const active = hits("/organization/get-full-organization");
    const list = hits("/organization/list");
    const member = hits("/organization/get-active-member");

    // Each change's refetches are awaited until seen (a loaded machine may take longer than a fixed
    // pause); what must not be read again is checked once the expected reads have happened.
    const seen = (path: string, count: number) => vi.waitFor(() => expect(hits(path)).toBe(count));
    await client.organization.inviteMember({ email: "x@example.com", role: "member" });
    await seen("/organization/get-full-organization", active + 1);
    expect(hits("/organization/list")).toBe(list);

    await client.organization.update({ data: { name: "New name" } });
    await seen("/organization/get-full-organization", active + 2);
    await seen("/organization/list", list + 1);

    await client.organization.updateMemberRole({ memberId: "m1", role: "admin" });
    await seen("/organization/get-active-member", member + 1);

    // A transfer changes the caller's own role: their member row and the organization are stale.
    await client.organization.transferOwnership({ memberId: "m2" });
    await seen("/organization/get-active-member", member + 2);
    await seen("/organization/get-full-organization", active + 4);

    // Reads refresh nothing.
    await client.organization.listTeams();
    await settle();
    expect(hits("/organization/get-full-organization")).toBe(active + 4);
    replies.clear();
  });
});

describe("session store against the real service", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const clientFor = (extra: Parameters<typeof createAuthClient>[0] = {}): AuthClient =>
    createAuthClient({
      baseURL: server.origin,
      headers: { origin: server.origin },
      fetch: cookieFetch(),
      focusTarget: null,
      ...extra,
    });

  function until<T>(store: QueryStore<T>, test: (data: T | null) => boolean): Promise<T | null> {
    return new Promise((resolve) => {
      const check = () => {
        const state = store.getSnapshot();
        if (!state.isPending && !state.isRefetching && test(state.data)) {
          unsubscribe();
          resolve(state.data);
        }
      };
      const unsubscribe = store.subscribe(check);
      check();
    });
  }

  it("reads the session after sign-up, update-user and sign-out", async () => {
    const client = clientFor();
    const session = client.$store.session;
    expect(await until(session, (d) => d === null)).toBeNull();

    const email = `store-${Date.now()}@example.com`;
    const signUp = await client.signUp.email({ name: "Store", email, password: "sturdy-pass-123" });
    expect(signUp.error).toBeNull();
    expect((await until(session, (d) => d !== null))!.user.email).toBe(email);
    expect(session.getSnapshot().data!.session.expiresAt).toBeInstanceOf(Date);

    await client.updateUser({ name: "Renamed" });
    expect((await until(session, (d) => d?.user.name === "Renamed"))!.user.name).toBe("Renamed");

    await client.signOut();
    expect(await until(session, (d) => d === null)).toBeNull();
    expect(server.loggedErrors).toEqual([]);
  });

  it("sees its own revocation: revoke-sessions empties the session", async () => {
    const client = clientFor();
    const email = `revoke-${Date.now()}@example.com`;
    await client.signUp.email({ name: "R", email, password: "sturdy-pass-123" });
    await until(client.$store.session, (d) => d !== null);
    const { error } = await client.revokeSessions();
    expect(error).toBeNull();
    expect(await until(client.$store.session, (d) => d === null)).toBeNull();
  });

  it("impersonation swaps the watched session to the user and back; a plain user is refused", async () => {
    const admin = clientFor();
    const adminEmail = `admin-${Date.now()}@example.com`;
    const signed = await admin.signUp.email({ name: "Admin", email: adminEmail, password: "sturdy-pass-123" });
    const db = server.auth.database.db;
    await db.updateTable("user").set({ role: "admin" }).where("id", "=", signed.data!.user.id).execute();
    const target = clientFor();
    const targetEmail = `target-${Date.now()}@example.com`;
    const created = await target.signUp.email({ name: "Target", email: targetEmail, password: "sturdy-pass-123" });
    const targetId = created.data!.user.id;

    const page = await admin.admin.listUsers({ query: { searchValue: targetEmail, searchField: "email" } });
    expect(page.data).toMatchObject({ total: 1, offset: 0 });
    expect(page.data!.users[0]!.createdAt).toBeInstanceOf(Date);
    expect((await target.admin.listUsers()).error).toMatchObject({
      code: "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS",
      status: 403,
    });

    await until(admin.$store.session, (d) => d?.user.email === adminEmail);
    const started = await admin.admin.impersonateUser({ userId: targetId });
    expect(started.data!.session.impersonatedBy).toBe(signed.data!.user.id);
    const acting = await until(admin.$store.session, (d) => d?.user.id === targetId);
    expect(acting!.session.impersonatedBy).toBe(signed.data!.user.id);

    expect((await admin.admin.stopImpersonating()).error).toBeNull();
    expect((await until(admin.$store.session, (d) => d?.user.email === adminEmail))!.session.impersonatedBy).toBeNull();
    expect(server.loggedErrors).toEqual([]);
  });

  it("answers server errors with the catalogue code and the HTTP status", async () => {
    const { data, error } = await clientFor().signIn.email({
      email: "nobody@example.com",
      password: "sturdy-pass-123",
    });
    expect(data).toBeNull();
    expect(error).toEqual({
      code: "INVALID_EMAIL_OR_PASSWORD",
      message: "Invalid email or password",
      status: 401,
      statusText: "Unauthorized",
    });
    const withoutOrigin = createAuthClient({ baseURL: server.origin, focusTarget: null });
    const refused = await withoutOrigin.signIn.email({ email: "nobody@example.com", password: "sturdy-pass-123" });
    expect(refused.error).toMatchObject({ code: "MISSING_OR_NULL_ORIGIN", status: 403 });
  });

  it("reads the session again on window focus, at most once per 5 s", async () => {
    let clock = 1_000_000;
    const focus = new EventTarget();
    const client = clientFor({ focusTarget: focus, now: () => clock });
    const email = `focus-${Date.now()}@example.com`;
    await client.signUp.email({ name: "Before", email, password: "sturdy-pass-123" });
    await until(client.$store.session, (d) => d?.user.name === "Before");

    // Another tab renames the user; this tab learns it only when it is focused again.
    const other = clientFor();
    await other.signIn.email({ email, password: "sturdy-pass-123" });
    await other.updateUser({ name: "After" });

    focus.dispatchEvent(new Event("focus"));
    expect((await until(client.$store.session, (d) => d?.user.name === "After"))!.user.name).toBe("After");

    await other.updateUser({ name: "Later" });
    clock += 1000;
    focus.dispatchEvent(new Event("focus"));
    expect(client.$store.session.getSnapshot().isRefetching).toBe(false);
    expect(client.$store.session.getSnapshot().data!.user.name).toBe("After");

    clock += 5000;
    focus.dispatchEvent(new Event("focus"));
    expect((await until(client.$store.session, (d) => d?.user.name === "Later"))!.user.name).toBe("Later");
  });
});

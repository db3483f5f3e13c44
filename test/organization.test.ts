import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createOrganization, joinAs, uniqueSlug } from "./helpers/organization.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ options: { organization: { teams: { enabled: true } } } });
});
afterAll(() => server.close());
afterEach(() => expect(server.loggedErrors).toEqual([]));

describe("POST /organization/create", () => {
  it("creates the organization, the owner, the default team, and makes both active", async () => {
    const owner = await signUp(server, { name: "Olga" });
    const slug = uniqueSlug();
    const res = await owner.browser.post("/organization/create", {
      name: "Acme",
      slug,
      logo: "https://example.com/logo.png",
      metadata: { plan: "pro" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Acme",
      slug,
      logo: "https://example.com/logo.png",
      metadata: { plan: "pro" },
    });
    expect(res.body.members).toEqual([
      expect.objectContaining({ organizationId: res.body.id, userId: owner.user.id, role: "owner" }),
    ]);
    expect(res.setCookies.some((l) => l.startsWith("gatehouse.session_token="))).toBe(true);
    const session = await owner.browser.get("/get-session");
    expect(session.body.session.activeOrganizationId).toBe(res.body.id);
    const teams = await owner.browser.get("/organization/list-teams");
    expect(teams.body).toEqual([expect.objectContaining({ name: "Acme", organizationId: res.body.id })]);
    expect(session.body.session.activeTeamId).toBe(teams.body[0].id);
  });
});

describe("organization lifecycle", () => {
  it("keeps the current active organization when asked, and refuses a taken slug with 400", async () => {
    const { owner, organizationId, slug } = await createOrganization(server);
    const second = await owner.browser.post("/organization/create", {
      name: "Second",
      slug: uniqueSlug(),
      keepCurrentActiveOrganization: true,
    });
    expect(second.status).toBe(200);
    expect(second.body.metadata).toBeNull();
    expect((await owner.browser.get("/get-session")).body.session.activeOrganizationId).toBe(organizationId);

    const taken = await owner.browser.post("/organization/create", { name: "Dup", slug });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ code: "ORGANIZATION_ALREADY_EXISTS", message: "Organization already exists" });
  });

  it("refuses creation without a session, with bad input, and for someone else's userId", async () => {
    const anonymous = await server.browser().post("/organization/create", { name: "X", slug: uniqueSlug() });
    expect(anonymous.status).toBe(401);
    const person = await signUp(server);
    const bad = await person.browser.post("/organization/create", { name: "", slug: uniqueSlug() });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("VALIDATION_ERROR");
    const other = await signUp(server);
    const forOther = await person.browser.post("/organization/create", {
      name: "X",
      slug: uniqueSlug(),
      userId: other.user.id,
    });
    expect(forOther.status).toBe(403);
    expect(forOther.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION");
  });

  it("check-slug answers status true for a free slug and 'slug is taken' otherwise", async () => {
    const { owner, slug } = await createOrganization(server);
    expect((await owner.browser.post("/organization/check-slug", { slug: uniqueSlug() })).body).toEqual({
      status: true,
    });
    const taken = await owner.browser.post("/organization/check-slug", { slug });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ code: "ORGANIZATION_SLUG_ALREADY_TAKEN", message: "slug is taken" });
    expect((await server.browser().post("/organization/check-slug", { slug })).status).toBe(401);
  });

  it("update changes fields, returns metadata as an object, and refuses another organization's slug", async () => {
    const { owner, organizationId } = await createOrganization(server, { metadata: { a: 1 } });
    const other = await createOrganization(server);
    const res = await owner.browser.post("/organization/update", {
      data: { name: "Renamed", metadata: { a: 2, nested: { b: true } }, logo: null },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: organizationId,
      name: "Renamed",
      logo: null,
      metadata: { a: 2, nested: { b: true } },
    });
    const stored = await server.auth.database.db
      .selectFrom("organization")
      .select("metadata")
      .where("id", "=", organizationId)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.metadata!)).toEqual({ a: 2, nested: { b: true } });

    const clash = await owner.browser.post("/organization/update", { data: { slug: other.slug }, organizationId });
    expect(clash.status).toBe(400);
    expect(clash.body).toEqual({ code: "ORGANIZATION_SLUG_ALREADY_TAKEN", message: "slug is taken" });

    const stranger = await signUp(server);
    const notMember = await stranger.browser.post("/organization/update", { data: { name: "x" }, organizationId });
    expect(notMember.status).toBe(400);
    expect(notMember.body).toEqual({
      code: "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION",
      message: "User is not a member of the organization",
    });
    const noActive = await stranger.browser.post("/organization/update", { data: { name: "x" } });
    expect(noActive.body).toEqual({ code: "ORGANIZATION_NOT_FOUND", message: "Organization not found" });
  });

  it("list, get-full-organization and set-active return metadata as an object everywhere", async () => {
    const { owner, organizationId, slug } = await createOrganization(server, { metadata: { tier: "gold" } });
    const list = await owner.browser.get("/organization/list");
    expect(list.body).toEqual([expect.objectContaining({ id: organizationId, slug, metadata: { tier: "gold" } })]);
    const full = await owner.browser.get("/organization/get-full-organization");
    expect(full.body).toMatchObject({ id: organizationId, metadata: { tier: "gold" } });
    expect(full.body.members).toEqual([
      expect.objectContaining({
        userId: owner.user.id,
        role: "owner",
        user: expect.objectContaining({ email: owner.email }),
      }),
    ]);
    expect(full.body.teams).toHaveLength(1);
    expect(full.body.invitations).toEqual([]);
    const bySlug = await owner.browser.get(`/organization/get-full-organization?organizationSlug=${slug}`);
    expect(bySlug.body.id).toBe(organizationId);
    const active = await owner.browser.post("/organization/set-active", { organizationId });
    expect(active.body).toMatchObject({ id: organizationId, metadata: { tier: "gold" } });
  });

  it("get-full-organization: null without an active organization, 400 unknown, 403 for a non-member", async () => {
    const { organizationId } = await createOrganization(server);
    const stranger = await signUp(server);
    const none = await stranger.browser.get("/organization/get-full-organization");
    expect(none.status).toBe(200);
    expect(none.body).toBeNull();
    const unknown = await stranger.browser.get("/organization/get-full-organization?organizationId=nope");
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe("ORGANIZATION_NOT_FOUND");
    const foreign = await stranger.browser.get(`/organization/get-full-organization?organizationId=${organizationId}`);
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
  });

  it("get-organization: the organization alone, by id, slug or the active one; the errors WIRE lists", async () => {
    const { owner, organizationId, slug } = await createOrganization(server, { metadata: { tier: "gold" } });
    const active = await owner.browser.get("/organization/get-organization");
    expect(active.status).toBe(200);
    expect(active.body).toMatchObject({ id: organizationId, slug, metadata: { tier: "gold" } });
    for (const key of ["members", "invitations", "teams"]) expect(active.body).not.toHaveProperty(key);
    expect((await owner.browser.get(`/organization/get-organization?organizationSlug=${slug}`)).body.id).toBe(
      organizationId,
    );
    const unknown = await owner.browser.get("/organization/get-organization?organizationSlug=no-such-slug");
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ code: "ORGANIZATION_NOT_FOUND", message: "Organization not found" });

    const stranger = await signUp(server);
    const none = await stranger.browser.get("/organization/get-organization");
    expect(none.status).toBe(200);
    expect(none.body).toBeNull();
    const foreign = await stranger.browser.get(`/organization/get-organization?organizationId=${organizationId}`);
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");

    // A member whose membership went while the organization was active: refused, and the active one cleared.
    const former = await joinAs(server, organizationId, "member");
    await server.auth.database.db.deleteFrom("member").where("id", "=", former.memberId).execute();
    const gone = await former.browser.get("/organization/get-organization");
    expect(gone.status).toBe(403);
    expect(gone.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
    const session = await former.browser.get("/get-session?disableCookieCache=true");
    expect(session.body.session.activeOrganizationId).toBeNull();
    expect((await former.browser.get("/organization/get-organization")).body).toBeNull();
  });

  it("get-full-organization caps members at membersLimit", async () => {
    const { owner, organizationId } = await createOrganization(server);
    await joinAs(server, organizationId, "member");
    await joinAs(server, organizationId, "member");
    const full = await owner.browser.get("/organization/get-full-organization?membersLimit=2");
    expect(full.body.members).toHaveLength(2);
  });

  it("set-active switches, clears with null (and the team), and refuses a non-member with 403", async () => {
    const a = await createOrganization(server);
    const b = await createOrganization(server, { owner: a.owner });
    expect((await a.owner.browser.get("/get-session")).body.session.activeOrganizationId).toBe(b.organizationId);
    const switched = await a.owner.browser.post("/organization/set-active", { organizationSlug: a.slug });
    expect(switched.status).toBe(200);
    expect(switched.setCookies.some((l) => l.startsWith("gatehouse.session_token="))).toBe(true);
    let session = (await a.owner.browser.get("/get-session")).body.session;
    expect(session.activeOrganizationId).toBe(a.organizationId);
    expect(session.activeTeamId).toBeNull();

    const cleared = await a.owner.browser.post("/organization/set-active", { organizationId: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toBeNull();
    session = (await a.owner.browser.get("/get-session")).body.session;
    expect(session.activeOrganizationId).toBeNull();
    expect((await a.owner.browser.post("/organization/set-active", {})).body).toBeNull();

    const stranger = await signUp(server);
    const refused = await stranger.browser.post("/organization/set-active", { organizationId: a.organizationId });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
    const unknown = await stranger.browser.post("/organization/set-active", { organizationSlug: "no-such-slug" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe("ORGANIZATION_NOT_FOUND");
  });

  it("delete removes members, invitations, teams and the organization, and clears it from every session", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const member = await joinAs(server, organizationId, "member");
    await owner.browser.post("/organization/invite-member", { email: "invitee@example.com", role: "member" });
    const res = await owner.browser.post("/organization/delete", { organizationId });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(organizationId);
    const db = server.auth.database.db;
    for (const table of ["member", "invitation", "team"] as const) {
      const rows = await db.selectFrom(table).select("id").where("organizationId", "=", organizationId).execute();
      expect(rows).toEqual([]);
    }
    expect(await db.selectFrom("organization").select("id").where("id", "=", organizationId).execute()).toEqual([]);
    for (const browser of [owner.browser, member.browser]) {
      const session = (await browser.get("/get-session")).body.session;
      expect(session.activeOrganizationId).toBeNull();
      expect(session.activeTeamId).toBeNull();
    }
  });

  it("delete needs organization:delete (admins may not) and membership", async () => {
    const { organizationId } = await createOrganization(server);
    const admin = await joinAs(server, organizationId, "admin");
    const res = await admin.browser.post("/organization/delete", { organizationId });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION",
      message: "You are not allowed to update or delete this organization",
    });
    const stranger = await signUp(server);
    const notMember = await stranger.browser.post("/organization/delete", { organizationId });
    expect(notMember.status).toBe(400);
    expect(notMember.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
  });
});

describe("add-member", () => {
  it("is not reachable over HTTP (404) and works through auth.api.addMember", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const person = await signUp(server);
    const http = await owner.browser.post("/organization/add-member", {
      userId: person.user.id,
      role: "member",
      organizationId,
    });
    expect(http.status).toBe(404);
    expect(http.body).toBeNull();
    const member = await server.auth.api.addMember({
      body: { userId: person.user.id, role: ["admin", "member"], organizationId },
    });
    expect(member).toMatchObject({ organizationId, userId: person.user.id, role: "admin,member" });
    await expect(
      server.auth.api.addMember({ body: { userId: person.user.id, role: "member", organizationId } }),
    ).rejects.toMatchObject({ code: "USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION" });
    await expect(
      server.auth.api.addMember({ body: { userId: person.user.id, role: "ghost", organizationId } }),
    ).rejects.toMatchObject({ code: "ROLE_NOT_FOUND" });
    await expect(
      server.auth.api.addMember({ body: { userId: person.user.id, role: "member", organizationId: "missing" } }),
    ).rejects.toMatchObject({ code: "ORGANIZATION_NOT_FOUND" });
  });
});

describe("options", () => {
  it("allowUserToCreateOrganization, organizationLimit and membershipLimit are enforced", async () => {
    const locked = await startTestServer({ options: { organization: { allowUserToCreateOrganization: false } } });
    try {
      const person = await signUp(locked);
      const res = await person.browser.post("/organization/create", { name: "X", slug: "x" });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        code: "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION",
        message: "You are not allowed to create a new organization",
      });
      expect(locked.loggedErrors).toEqual([]);
    } finally {
      await locked.close();
    }

    const limited = await startTestServer({ options: { organization: { organizationLimit: 1, membershipLimit: 2 } } });
    try {
      const { owner, organizationId } = await createOrganization(limited);
      const res = await owner.browser.post("/organization/create", { name: "Y", slug: uniqueSlug() });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        code: "YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS",
        message: "You have reached the maximum number of organizations",
      });
      await joinAs(limited, organizationId, "member");
      const third = await signUp(limited);
      await expect(
        limited.auth.api.addMember({ body: { userId: third.user.id, role: "member", organizationId } }),
      ).rejects.toMatchObject({
        code: "ORGANIZATION_MEMBERSHIP_LIMIT_REACHED",
        message: "Organization membership limit reached",
      });
      // Without teams enabled the team routes do not exist.
      expect((await owner.browser.get("/organization/list-teams")).status).toBe(404);
      expect(limited.loggedErrors).toEqual([]);
    } finally {
      await limited.close();
    }
  });

  it("refreshes the cookie cache when the active organization changes", async () => {
    const cached = await startTestServer({ options: { session: { cookieCache: { enabled: true } } } });
    try {
      const { owner, organizationId } = await createOrganization(cached);
      expect((await owner.browser.get("/get-session")).body.session.activeOrganizationId).toBe(organizationId);
      await owner.browser.post("/organization/set-active", { organizationId: null });
      expect((await owner.browser.get("/get-session")).body.session.activeOrganizationId).toBeNull();
      await owner.browser.post("/organization/leave", { organizationId }); // only owner: refused, nothing changes
      expect(cached.loggedErrors).toEqual([]);
    } finally {
      await cached.close();
    }
  });
});

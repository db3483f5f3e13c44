import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createOrganization, joinAs } from "./helpers/organization.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ options: { organization: { teams: { enabled: true } } } });
});
afterAll(() => server.close());
afterEach(() => expect(server.loggedErrors).toEqual([]));

async function sessionOf(browser: { get: (p: string) => Promise<any> }) {
  return (await browser.get("/get-session")).body.session;
}

describe("GET /organization/list-members", () => {
  it("pages, sorts, filters and counts in one query beyond the session lookup", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const people = [];
    for (const name of ["Bea", "Carl", "Dora", "Eve"])
      people.push(await joinAs(server, organizationId, "member", name));
    await owner.browser.get("/get-session"); // warm nothing: every request reads its session once
    await server.settled();

    const baseline = server.queryCount();
    await owner.browser.get("/get-session");
    const sessionQueries = server.queryCount() - baseline;

    const before = server.queryCount();
    const page = await owner.browser.get("/organization/list-members?limit=2&offset=1&sortBy=name&sortDirection=asc");
    expect(server.queryCount() - before - sessionQueries).toBe(1);
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(5);
    expect(page.body.members.map((m: any) => m.user.name)).toEqual(["Carl", "Dora"]);
    expect(page.body.members[0]).toMatchObject({ organizationId, role: "member", user: { email: people[1]!.email } });

    const desc = await owner.browser.get("/organization/list-members?sortBy=name&sortDirection=desc&limit=1");
    expect(desc.body.members[0].user.name).toBe("Owner");

    const filtered = await owner.browser.get(
      "/organization/list-members?filterField=role&filterOperator=eq&filterValue=owner",
    );
    expect(filtered.body.total).toBe(1);
    expect(filtered.body.members[0].userId).toBe(owner.user.id);
    const contains = await owner.browser.get(
      "/organization/list-members?filterField=name&filterOperator=contains&filterValue=OR",
    );
    expect(contains.body.members.map((m: any) => m.user.name).sort()).toEqual(["Dora"]);
    const inList = await owner.browser.get(
      `/organization/list-members?filterField=userId&filterOperator=in&filterValue=${people[0]!.user.id},${people[3]!.user.id}`,
    );
    expect(inList.body.total).toBe(2);
    const pastEnd = await owner.browser.get("/organization/list-members?offset=50");
    expect(pastEnd.body).toEqual({ members: [], total: 5 });
    const bad = await owner.browser.get(
      "/organization/list-members?filterField=createdAt&filterOperator=gt&filterValue=soon",
    );
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("VALIDATION_ERROR");
  });

  it("uses organizationId or organizationSlug when given; refuses non-members and a missing organization", async () => {
    const { organizationId, slug } = await createOrganization(server);
    const other = await createOrganization(server);
    const member = await joinAs(server, organizationId, "member");
    const bySlug = await member.browser.get(`/organization/list-members?organizationSlug=${slug}`);
    expect(bySlug.body.total).toBe(2);
    const foreign = await member.browser.get(`/organization/list-members?organizationId=${other.organizationId}`);
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({
      code: "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION",
      message: "You are not a member of this organization",
    });
    const stranger = await signUp(server);
    const none = await stranger.browser.get("/organization/list-members");
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ code: "NO_ACTIVE_ORGANIZATION", message: "No active organization" });
  });
});

describe("list-members' first page, kept between requests", () => {
  const names = (res: { body: any }) => res.body.members.map((m: any) => `${m.user.name}:${m.role}`);

  it("answers every change at once: joins, renames, role changes, removals, another organization", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const bea = await joinAs(server, organizationId, "member", "Bea");
    const first = await owner.browser.get("/organization/list-members");
    expect(names(first)).toEqual(["Owner:owner", "Bea:member"]);
    expect(first.headers.get("content-type")).toBe("application/json");
    expect((await owner.browser.get("/organization/list-members")).body).toEqual(first.body);

    await joinAs(server, organizationId, "admin", "Carl");
    expect(names(await owner.browser.get("/organization/list-members"))).toEqual([
      "Owner:owner",
      "Bea:member",
      "Carl:admin",
    ]);
    expect((await bea.browser.post("/update-user", { name: "Beatrice" })).status).toBe(200);
    const renamed = await owner.browser.get("/organization/list-members");
    expect(names(renamed)).toEqual(["Owner:owner", "Beatrice:member", "Carl:admin"]);
    expect(renamed.body.total).toBe(3);
    const role = await owner.browser.post("/organization/update-member-role", {
      memberId: bea.memberId,
      role: "admin",
    });
    expect(role.status).toBe(200);
    expect(names(await owner.browser.get("/organization/list-members"))).toContain("Beatrice:admin");
    expect((await owner.browser.post("/organization/remove-member", { memberIdOrEmail: bea.memberId })).status).toBe(
      200,
    );
    const removed = await owner.browser.get("/organization/list-members");
    expect([names(removed), removed.body.total]).toEqual([["Owner:owner", "Carl:admin"], 2]);
    // Bea's own request, by id, now that the page is kept: a member no longer.
    const beaAfter = await bea.browser.get(`/organization/list-members?organizationId=${organizationId}`);
    expect([beaAfter.status, beaAfter.body.code]).toEqual([403, "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION"]);

    // The same session's active organization moves: its page, not the one kept for the other.
    const other = await createOrganization(server, { owner });
    expect(names(await owner.browser.get("/organization/list-members"))).toEqual(["Owner:owner"]);
    expect((await owner.browser.post("/organization/set-active", { organizationId })).status).toBe(200);
    expect(names(await owner.browser.get("/organization/list-members"))).toEqual(["Owner:owner", "Carl:admin"]);
    const byId = await owner.browser.get(`/organization/list-members?organizationId=${other.organizationId}`);
    expect(names(byId)).toEqual(["Owner:owner"]);
  });

  it("a page kept by one instance shows what another instance changed", async () => {
    const first = await startTestServer({ shareable: true });
    const second = await startTestServer({ shareDatabaseWith: first });
    try {
      const { owner, organizationId, slug } = await createOrganization(first);
      const bea = await joinAs(first, organizationId, "member", "Bea");
      const bySlug = `/organization/list-members?organizationSlug=${slug}`;
      expect(names(await owner.browser.get(bySlug))).toEqual(["Owner:owner", "Bea:member"]);
      expect(names(await owner.browser.get(bySlug))).toEqual(["Owner:owner", "Bea:member"]);

      const beaOnSecond = bea.browser.copyTo(second.origin);
      const update = await beaOnSecond.post("/update-user", { name: "Beatrice", image: "https://x/b.png" });
      expect(update.status, JSON.stringify(update.body)).toBe(200);
      const page = await owner.browser.get(bySlug);
      expect(page.body.members[1].user).toMatchObject({ name: "Beatrice", image: "https://x/b.png" });
      expect((await beaOnSecond.post("/organization/leave", { organizationId })).status).toBe(200);
      expect(names(await owner.browser.get(bySlug))).toEqual(["Owner:owner"]);
      expect([...first.loggedErrors, ...second.loggedErrors]).toEqual([]);
    } finally {
      await second.close();
      await first.close();
    }
  });
});

describe("remove-member and leave", () => {
  it("removes by id or email, drops team places, and clears the removed user's active organization everywhere", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const member = await joinAs(server, organizationId, "member");
    const secondDevice = server.browser();
    await secondDevice.post("/sign-in/email", { email: member.email, password: "correct horse battery" });
    await secondDevice.post("/organization/set-active", { organizationId });
    const team = (await owner.browser.get("/organization/list-teams")).body[0];
    await owner.browser.post("/organization/add-team-member", { teamId: team.id, userId: member.user.id });
    await member.browser.post("/organization/set-active-team", { teamId: team.id });

    const res = await owner.browser.post("/organization/remove-member", {
      memberIdOrEmail: member.email.toUpperCase(),
    });
    expect(res.status).toBe(200);
    expect(res.body.member).toMatchObject({
      id: member.memberId,
      userId: member.user.id,
      user: { email: member.email },
    });
    for (const browser of [member.browser, secondDevice]) {
      const session = await sessionOf(browser);
      expect(session.activeOrganizationId).toBeNull();
      expect(session.activeTeamId).toBeNull();
    }
    const teamRows = await server.auth.database.db
      .selectFrom("teamMember")
      .select("id")
      .where("userId", "=", member.user.id)
      .execute();
    expect(teamRows).toEqual([]);
    const again = await owner.browser.post("/organization/remove-member", { memberIdOrEmail: member.memberId });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ code: "MEMBER_NOT_FOUND", message: "Member not found" });
  });

  it("protects owners: the only owner cannot leave or be removed; an admin cannot remove an owner", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const admin = await joinAs(server, organizationId, "admin");
    const ownerMember = (await owner.browser.get("/organization/get-active-member")).body;
    const leave = await owner.browser.post("/organization/leave", { organizationId });
    expect(leave.status).toBe(400);
    expect(leave.body).toEqual({
      code: "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER",
      message: "You cannot leave the organization as the only owner",
    });
    const self = await owner.browser.post("/organization/remove-member", { memberIdOrEmail: ownerMember.id });
    expect(self.body.code).toBe("YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER");
    const byAdmin = await admin.browser.post("/organization/remove-member", { memberIdOrEmail: ownerMember.id });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body).toEqual({
      code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER",
      message: "You are not allowed to delete this member",
    });

    // With a second owner, the first may leave; the session's active organization is cleared.
    const second = await joinAs(server, organizationId, "owner");
    const left = await owner.browser.post("/organization/leave", { organizationId });
    expect(left.status).toBe(200);
    expect(left.body).toMatchObject({ userId: owner.user.id, user: { email: owner.email } });
    expect(left.setCookies.some((l) => l.startsWith("gatehouse.session_token="))).toBe(true);
    expect((await sessionOf(owner.browser)).activeOrganizationId).toBeNull();
    const notMember = await owner.browser.post("/organization/leave", { organizationId });
    expect(notMember.body.code).toBe("MEMBER_NOT_FOUND");
    expect((await second.browser.post("/organization/leave", { organizationId })).status).toBe(400);
  });

  it("a member leaves; a plain member cannot remove others", async () => {
    const { organizationId } = await createOrganization(server);
    const a = await joinAs(server, organizationId, "member");
    const b = await joinAs(server, organizationId, "member");
    const refused = await a.browser.post("/organization/remove-member", { memberIdOrEmail: b.memberId });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER");
    const left = await a.browser.post("/organization/leave", { organizationId });
    expect(left.status).toBe(200);
    expect((await sessionOf(a.browser)).activeOrganizationId).toBeNull();
  });
});

describe("update-member-role", () => {
  it("sets one or several roles and answers the bare member", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const m = await joinAs(server, organizationId, "member");
    const res = await owner.browser.post("/organization/update-member-role", {
      memberId: m.memberId,
      role: ["admin", " member "],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: m.memberId, role: "admin,member", userId: m.user.id });
    expect((await m.browser.get("/organization/get-active-member-role")).body).toEqual({ role: "admin,member" });
    // admin now (through the first role) may invite
    const invite = await m.browser.post("/organization/invite-member", { email: "x@example.com", role: "member" });
    expect(invite.status).toBe(200);
  });

  it("refuses unknown roles, owner changes by non-owners, and the only owner stepping down", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const admin = await joinAs(server, organizationId, "admin");
    const m = await joinAs(server, organizationId, "member");
    const ownerMember = (await owner.browser.get("/organization/get-active-member")).body;

    const unknown = await owner.browser.post("/organization/update-member-role", {
      memberId: m.memberId,
      role: "ghost",
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe("ROLE_NOT_FOUND");
    const empty = await owner.browser.post("/organization/update-member-role", { memberId: m.memberId, role: " , " });
    expect(empty.body).toEqual({ code: "ROLE_NOT_FOUND", message: "Role not found" });
    const grantOwner = await admin.browser.post("/organization/update-member-role", {
      memberId: m.memberId,
      role: "owner",
    });
    expect(grantOwner.status).toBe(403);
    expect(grantOwner.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
    const touchOwner = await admin.browser.post("/organization/update-member-role", {
      memberId: ownerMember.id,
      role: "member",
    });
    expect(touchOwner.status).toBe(403);
    const byMember = await m.browser.post("/organization/update-member-role", {
      memberId: admin.memberId,
      role: "member",
    });
    expect(byMember.status).toBe(403);
    const stepDown = await owner.browser.post("/organization/update-member-role", {
      memberId: ownerMember.id,
      role: "admin",
    });
    expect(stepDown.status).toBe(400);
    expect(stepDown.body).toEqual({
      code: "YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER",
      message: "You cannot leave the organization without an owner",
    });
    const adminDemotes = await admin.browser.post("/organization/update-member-role", {
      memberId: m.memberId,
      role: "admin",
    });
    expect(adminDemotes.status).toBe(200);
  });
});

describe("get-active-member, get-active-member-role, has-permission", () => {
  it("answer for the active or given organization", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const m = await joinAs(server, organizationId, "member");
    const active = await m.browser.get("/organization/get-active-member");
    expect(active.body).toMatchObject({ id: m.memberId, role: "member", user: { id: m.user.id, email: m.email } });
    const otherRole = await m.browser.get(`/organization/get-active-member-role?userId=${owner.user.id}`);
    expect(otherRole.body).toEqual({ role: "owner" });
    const stranger = await signUp(server);
    const noOrg = await stranger.browser.get("/organization/get-active-member");
    expect(noOrg.body).toEqual({ code: "NO_ACTIVE_ORGANIZATION", message: "No active organization" });
    const notMember = await stranger.browser.get(`/organization/get-active-member?organizationId=${organizationId}`);
    expect(notMember.body).toEqual({ code: "MEMBER_NOT_FOUND", message: "Member not found" });
    const roleNotMember = await stranger.browser.get(
      `/organization/get-active-member-role?organizationId=${organizationId}`,
    );
    expect(roleNotMember.status).toBe(403);
    expect(roleNotMember.body.code).toBe("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");

    const yes = await owner.browser.post("/organization/has-permission", { permissions: { organization: ["delete"] } });
    expect(yes.body).toEqual({ error: null, success: true });
    const no = await m.browser.post("/organization/has-permission", { permissions: { member: ["create"] } });
    expect(no.body).toEqual({ error: null, success: false });
    const legacy = await owner.browser.post("/organization/has-permission", { permission: { team: ["create"] } });
    expect(legacy.body.success).toBe(true);
    const both = await owner.browser.post("/organization/has-permission", { permission: {}, permissions: {} });
    expect(both.status).toBe(400);
    const unknownResource = await owner.browser.post("/organization/has-permission", {
      permissions: { billing: ["read"] },
    });
    expect(unknownResource.body.success).toBe(false);
    const foreign = await stranger.browser.post("/organization/has-permission", {
      organizationId,
      permissions: { team: ["create"] },
    });
    expect(foreign.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
  });

  it("custom roles from options.organization.roles grant exactly their statements", async () => {
    const custom = await startTestServer({
      options: { organization: { roles: { billing: { organization: ["update"] }, member: { team: ["create"] } } } },
    });
    try {
      const { organizationId } = await createOrganization(custom);
      const billing = await joinAs(custom, organizationId, "billing");
      const update = await billing.browser.post("/organization/update", { data: { name: "Billed" } });
      expect(update.status).toBe(200);
      const invite = await billing.browser.post("/organization/invite-member", {
        email: "z@example.com",
        role: "member",
      });
      expect(invite.status).toBe(403);
      const member = await joinAs(custom, organizationId, "member");
      const check = await member.browser.post("/organization/has-permission", { permissions: { team: ["create"] } });
      expect(check.body.success).toBe(true);
      expect(custom.loggedErrors).toEqual([]);
    } finally {
      await custom.close();
    }
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createOrganization, joinAs } from "./helpers/organization.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ options: { organization: { teams: { enabled: true, maximumTeams: 3 } } } });
});
afterAll(() => server.close());
afterEach(() => expect(server.loggedErrors).toEqual([]));

describe("teams", () => {
  it("create, update, list and remove a team; maximumTeams; names need a character", async () => {
    const { owner, organizationId, organization } = await createOrganization(server);
    const created = await owner.browser.post("/organization/create-team", { name: "Design" });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: "Design", organizationId });
    const empty = await owner.browser.post("/organization/create-team", { name: "" });
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe("VALIDATION_ERROR");
    await owner.browser.post("/organization/create-team", { name: "Third", organizationId });
    const over = await owner.browser.post("/organization/create-team", { name: "Fourth" });
    expect(over.status).toBe(400);
    expect(over.body.code).toBe("YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS");

    const updated = await owner.browser.post("/organization/update-team", {
      teamId: created.body.id,
      data: { name: "UX" },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.body.id, name: "UX" });
    const list = await owner.browser.get(`/organization/list-teams?organizationId=${organizationId}`);
    expect(list.body.map((t: any) => t.name)).toEqual([organization.name, "UX", "Third"]);

    const removed = await owner.browser.post("/organization/remove-team", { teamId: created.body.id });
    expect(removed.body).toEqual({ message: "Team removed successfully." });
    const missing = await owner.browser.post("/organization/update-team", {
      teamId: created.body.id,
      data: { name: "x" },
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ code: "TEAM_NOT_FOUND", message: "Team not found" });
  });

  it("refuses removing the requester's own team and the last team", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const own = (await owner.browser.get("/get-session")).body.session.activeTeamId;
    const mine = await owner.browser.post("/organization/remove-team", { teamId: own });
    expect(mine.status).toBe(403);
    expect(mine.body).toEqual({
      code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM",
      message: "not allowed to update or delete teams",
    });
    const admin = await joinAs(server, organizationId, "admin");
    const last = await admin.browser.post("/organization/remove-team", { teamId: own });
    expect(last.status).toBe(400);
    expect(last.body).toEqual({ code: "UNABLE_TO_REMOVE_LAST_TEAM", message: "Unable to remove last team" });
  });

  it("removing a team drops its members, clears it as active and from pending invitations", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const team = (await owner.browser.post("/organization/create-team", { name: "Temp" })).body;
    const m = await joinAs(server, organizationId, "member");
    await owner.browser.post("/organization/add-team-member", { teamId: team.id, userId: m.user.id });
    await m.browser.post("/organization/set-active-team", { teamId: team.id });
    const inv = (
      await owner.browser.post("/organization/invite-member", {
        email: `t-${Date.now()}@example.com`,
        role: "member",
        teamId: team.id,
      })
    ).body;
    expect((await owner.browser.post("/organization/remove-team", { teamId: team.id })).status).toBe(200);
    expect((await m.browser.get("/get-session")).body.session.activeTeamId).toBeNull();
    const row = await server.auth.database.db
      .selectFrom("invitation")
      .select("teamId")
      .where("id", "=", inv.id)
      .executeTakeFirstOrThrow();
    expect(row.teamId).toBeNull();
    const tm = await server.auth.database.db
      .selectFrom("teamMember")
      .select("id")
      .where("teamId", "=", team.id)
      .execute();
    expect(tm).toEqual([]);
  });

  it("allowRemovingAllTeams lets the last team go", async () => {
    const loose = await startTestServer({
      options: { organization: { teams: { enabled: true, allowRemovingAllTeams: true } } },
    });
    try {
      const { organizationId } = await createOrganization(loose);
      const admin = await joinAs(loose, organizationId, "admin");
      const team = (await admin.browser.get("/organization/list-teams")).body[0];
      expect((await admin.browser.post("/organization/remove-team", { teamId: team.id })).status).toBe(200);
      expect((await admin.browser.get("/organization/list-teams")).body).toEqual([]);
      expect(loose.loggedErrors).toEqual([]);
    } finally {
      await loose.close();
    }
  });

  it("set-active-team: team member only; null clears; the cookie is re-sent", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const team = (await owner.browser.post("/organization/create-team", { name: "Blue" })).body;
    const m = await joinAs(server, organizationId, "member");
    const notInTeam = await m.browser.post("/organization/set-active-team", { teamId: team.id });
    expect(notInTeam.status).toBe(403);
    expect(notInTeam.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_TEAM");
    await owner.browser.post("/organization/add-team-member", { teamId: team.id, userId: m.user.id });
    const ok = await m.browser.post("/organization/set-active-team", { teamId: team.id });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: team.id, name: "Blue" });
    expect(ok.setCookies.some((l) => l.startsWith("gatehouse.session_token="))).toBe(true);
    expect((await m.browser.post("/organization/set-active-team", {})).body.id).toBe(team.id);
    const cleared = await m.browser.post("/organization/set-active-team", { teamId: null });
    expect(cleared.body).toBeNull();
    expect((await m.browser.get("/get-session")).body.session.activeTeamId).toBeNull();
    const other = await createOrganization(server);
    const foreignTeam = (await other.owner.browser.get("/organization/list-teams")).body[0];
    expect((await m.browser.post("/organization/set-active-team", { teamId: foreignTeam.id })).body.code).toBe(
      "TEAM_NOT_FOUND",
    );
    const stranger = await signUp(server);
    expect((await stranger.browser.post("/organization/set-active-team", { teamId: team.id })).body.code).toBe(
      "NO_ACTIVE_ORGANIZATION",
    );
  });

  it("team members: add (idempotent), list, remove; owners and admins may list any team", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const team = (await owner.browser.post("/organization/create-team", { name: "Red" })).body;
    const m = await joinAs(server, organizationId, "member");
    const admin = await joinAs(server, organizationId, "admin");
    const added = await owner.browser.post("/organization/add-team-member", { teamId: team.id, userId: m.user.id });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ teamId: team.id, userId: m.user.id });
    const again = await owner.browser.post("/organization/add-team-member", { teamId: team.id, userId: m.user.id });
    expect(again.body.id).toBe(added.body.id);

    const byAdmin = await admin.browser.get(`/organization/list-team-members?teamId=${team.id}`);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.map((r: any) => r.userId)).toEqual([m.user.id]);
    expect((await m.browser.get(`/organization/list-team-members?teamId=${team.id}`)).status).toBe(200);
    const other = await joinAs(server, organizationId, "member");
    const outsider = await other.browser.get(`/organization/list-team-members?teamId=${team.id}`);
    expect(outsider.status).toBe(400);
    expect(outsider.body).toEqual({
      code: "USER_IS_NOT_A_MEMBER_OF_THE_TEAM",
      message: "User is not a member of the team",
    });
    expect((await other.browser.get("/organization/list-team-members")).body.code).toBe(
      "YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM",
    );
    expect((await owner.browser.get("/organization/list-team-members?teamId=nope")).body.code).toBe("TEAM_NOT_FOUND");

    const stranger = await signUp(server);
    const notOrgMember = await owner.browser.post("/organization/add-team-member", {
      teamId: team.id,
      userId: stranger.user.id,
    });
    expect(notOrgMember.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
    const byMember = await m.browser.post("/organization/add-team-member", { teamId: team.id, userId: other.user.id });
    expect(byMember.status).toBe(403);
    expect(byMember.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER");
    const removeByMember = await m.browser.post("/organization/remove-team-member", {
      teamId: team.id,
      userId: m.user.id,
    });
    expect(removeByMember.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER");
    const removed = await owner.browser.post("/organization/remove-team-member", {
      teamId: team.id,
      userId: m.user.id,
    });
    expect(removed.body).toEqual({ message: "Team member removed successfully." });
    const notInTeam = await owner.browser.post("/organization/remove-team-member", {
      teamId: team.id,
      userId: m.user.id,
    });
    expect(notInTeam.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_TEAM");
  });

  it("maximumMembersPerTeam caps team members", async () => {
    const capped = await startTestServer({
      options: { organization: { teams: { enabled: true, maximumMembersPerTeam: 1 } } },
    });
    try {
      const { owner, organizationId } = await createOrganization(capped);
      const team = (await owner.browser.get("/organization/list-teams")).body[0];
      const m = await joinAs(capped, organizationId, "member");
      const res = await owner.browser.post("/organization/add-team-member", { teamId: team.id, userId: m.user.id });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("TEAM_MEMBER_LIMIT_REACHED");
      expect(capped.loggedErrors).toEqual([]);
    } finally {
      await capped.close();
    }
  });

  it("list-user-teams: own teams across organizations; another user's with member:update", async () => {
    const a = await createOrganization(server);
    const b = await createOrganization(server, { owner: a.owner });
    const mine = await a.owner.browser.get("/organization/list-user-teams");
    expect(mine.body.map((t: any) => t.organizationId).sort()).toEqual([a.organizationId, b.organizationId].sort());
    const scoped = await a.owner.browser.get(`/organization/list-user-teams?organizationId=${a.organizationId}`);
    expect(scoped.body).toHaveLength(1);
    const m = await joinAs(server, a.organizationId, "member");
    expect((await m.browser.get(`/organization/list-user-teams?organizationId=${b.organizationId}`)).status).toBe(403);
    const peek = await m.browser.get(`/organization/list-user-teams?userId=${a.owner.user.id}`);
    expect(peek.status).toBe(403);
    expect(peek.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
    await a.owner.browser.post("/organization/set-active", { organizationId: a.organizationId });
    const byOwner = await a.owner.browser.get(`/organization/list-user-teams?userId=${m.user.id}`);
    expect(byOwner.body).toEqual([]);
    const stranger = await signUp(server);
    const notMember = await a.owner.browser.get(`/organization/list-user-teams?userId=${stranger.user.id}`);
    expect(notMember.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
  });

  it("list-teams needs membership", async () => {
    const { organizationId } = await createOrganization(server);
    const stranger = await signUp(server);
    const res = await stranger.browser.get(`/organization/list-teams?organizationId=${organizationId}`);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_ACCESS_THIS_ORGANIZATION");
    expect((await stranger.browser.get("/organization/list-teams")).body.code).toBe("NO_ACTIVE_ORGANIZATION");
  });
});

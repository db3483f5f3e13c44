import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestBrowser, TestResponse } from "./helpers/browser.js";
import { createOrganization, joinAs } from "./helpers/organization.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/**
 * Every guarded organization route, called by an owner, an admin, a plain member and a non-member,
 * each against a fresh organization. The expected status per role comes from SPEC section 6 (and the
 * membership rules of WIRE 8.2); every check happens on the server from the member row.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ options: { organization: { teams: { enabled: true } } } });
});
afterAll(() => server.close());
afterEach(() => expect(server.loggedErrors).toEqual([]));

type Role = "owner" | "admin" | "member" | "nonMember";
const ROLES: Role[] = ["owner", "admin", "member", "nonMember"];

interface Fixture {
  organizationId: string;
  extraTeamId: string;
  target: { userId: string; memberId: string };
  invitationId: string;
}

async function fixture(): Promise<Fixture & { callers: Record<Role, TestBrowser> }> {
  const { owner, organizationId } = await createOrganization(server);
  const extraTeamId = (await owner.browser.post("/organization/create-team", { name: "Extra" })).body.id;
  const target = await joinAs(server, organizationId, "member", "Target");
  await owner.browser.post("/organization/add-team-member", { teamId: extraTeamId, userId: target.user.id });
  const invitationId = (
    await owner.browser.post("/organization/invite-member", {
      email: `p-${Date.now()}-${Math.random()}@example.com`,
      role: "member",
    })
  ).body.id;
  const admin = await joinAs(server, organizationId, "admin");
  const member = await joinAs(server, organizationId, "member");
  const outsider = await signUp(server, { name: "Outsider" });
  return {
    organizationId,
    extraTeamId,
    target: { userId: target.user.id, memberId: target.memberId },
    invitationId,
    callers: { owner: owner.browser, admin: admin.browser, member: member.browser, nonMember: outsider.browser },
  };
}

type Call = (b: TestBrowser, f: Fixture) => Promise<TestResponse>;
/** [route, call, expected status for owner, admin, member, non-member] */
const table: [string, Call, [number, number, number, number]][] = [
  [
    "update",
    (b, f) => b.post("/organization/update", { organizationId: f.organizationId, data: { name: "N" } }),
    [200, 200, 403, 400],
  ],
  ["delete", (b, f) => b.post("/organization/delete", { organizationId: f.organizationId }), [200, 403, 403, 400]],
  [
    "invite-member",
    (b, f) =>
      b.post("/organization/invite-member", {
        organizationId: f.organizationId,
        email: "new@example.com",
        role: "member",
      }),
    [200, 200, 403, 400],
  ],
  [
    "cancel-invitation",
    (b, f) => b.post("/organization/cancel-invitation", { invitationId: f.invitationId }),
    [200, 200, 403, 400],
  ],
  [
    "list-invitations",
    (b, f) => b.get(`/organization/list-invitations?organizationId=${f.organizationId}`),
    [200, 200, 403, 403],
  ],
  [
    "remove-member",
    (b, f) =>
      b.post("/organization/remove-member", { organizationId: f.organizationId, memberIdOrEmail: f.target.memberId }),
    [200, 200, 403, 400],
  ],
  [
    "update-member-role",
    (b, f) =>
      b.post("/organization/update-member-role", {
        organizationId: f.organizationId,
        memberId: f.target.memberId,
        role: "admin",
      }),
    [200, 200, 403, 400],
  ],
  [
    "create-team",
    (b, f) => b.post("/organization/create-team", { organizationId: f.organizationId, name: "T" }),
    [200, 200, 403, 403],
  ],
  [
    "update-team",
    (b, f) =>
      b.post("/organization/update-team", {
        teamId: f.extraTeamId,
        data: { organizationId: f.organizationId, name: "T2" },
      }),
    [200, 200, 403, 403],
  ],
  [
    "remove-team",
    (b, f) => b.post("/organization/remove-team", { organizationId: f.organizationId, teamId: f.extraTeamId }),
    [200, 200, 403, 403],
  ],
  [
    "add-team-member",
    (b, f) =>
      b.post("/organization/add-team-member", {
        organizationId: f.organizationId,
        teamId: f.extraTeamId,
        userId: f.target.userId,
      }),
    [200, 200, 403, 400],
  ],
  [
    "remove-team-member",
    (b, f) =>
      b.post("/organization/remove-team-member", {
        organizationId: f.organizationId,
        teamId: f.extraTeamId,
        userId: f.target.userId,
      }),
    [200, 200, 403, 400],
  ],
  [
    "list-user-teams (another user)",
    (b, f) => b.get(`/organization/list-user-teams?organizationId=${f.organizationId}&userId=${f.target.userId}`),
    [200, 200, 403, 403],
  ],
  [
    "list-team-members (not in the team)",
    (b, f) => b.get(`/organization/list-team-members?teamId=${f.extraTeamId}`),
    [200, 200, 400, 400],
  ],
  [
    "list-members",
    (b, f) => b.get(`/organization/list-members?organizationId=${f.organizationId}`),
    [200, 200, 200, 403],
  ],
  ["list-teams", (b, f) => b.get(`/organization/list-teams?organizationId=${f.organizationId}`), [200, 200, 200, 403]],
  [
    "get-full-organization",
    (b, f) => b.get(`/organization/get-full-organization?organizationId=${f.organizationId}`),
    [200, 200, 200, 403],
  ],
  [
    "get-active-member",
    (b, f) => b.get(`/organization/get-active-member?organizationId=${f.organizationId}`),
    [200, 200, 200, 400],
  ],
  [
    "get-active-member-role",
    (b, f) => b.get(`/organization/get-active-member-role?organizationId=${f.organizationId}`),
    [200, 200, 200, 403],
  ],
  [
    "has-permission",
    (b, f) =>
      b.post("/organization/has-permission", { organizationId: f.organizationId, permissions: { member: ["delete"] } }),
    [200, 200, 200, 403],
  ],
  [
    "set-active",
    (b, f) => b.post("/organization/set-active", { organizationId: f.organizationId }),
    [200, 200, 200, 403],
  ],
  ["leave", (b, f) => b.post("/organization/leave", { organizationId: f.organizationId }), [400, 200, 200, 400]],
];

/** has-permission answers 200 for members; the verdict is in the body. */
const permissionVerdict: Record<Role, boolean | undefined> = {
  owner: true,
  admin: true,
  member: false,
  nonMember: undefined,
};

describe("permissions per role", () => {
  it.each(table)("%s", async (_name, call, expected) => {
    for (const [index, role] of ROLES.entries()) {
      const f = await fixture();
      const res = await call(f.callers[role], f);
      expect({ role, status: res.status, body: res.status === 200 ? "ok" : res.body }).toMatchObject({
        role,
        status: expected[index],
      });
      if (res.status !== 200) expect(res.body.code).toEqual(expect.any(String));
      if (_name === "has-permission" && res.status === 200) expect(res.body.success).toBe(permissionVerdict[role]);
    }
  });

  it("the session is required everywhere (401)", async () => {
    const anonymous = server.browser();
    for (const [, call] of table) {
      const res = await call(anonymous, {
        organizationId: "o",
        extraTeamId: "t",
        target: { userId: "u", memberId: "m" },
        invitationId: "i",
      });
      expect(res.status).toBe(401);
    }
  });
});

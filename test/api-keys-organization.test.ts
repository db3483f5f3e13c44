import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PARALLEL_REQUESTS } from "./helpers/burst.js";
import { createOrganization, joinAs } from "./helpers/organization.js";
import { scimCall } from "./helpers/scim.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

/**
 * Issue 53: an API key on the organization routes (members, invitations, teams, reads), checked by
 * the same access control as a member; the trail's `key` actor; keys and the membership they hang on.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    options: {
      organization: { enabled: true, teams: { enabled: true } },
      apiKey: { enabled: true },
      audit: { enabled: true },
      scim: { enabled: true },
      session: { cookieCache: { enabled: true, maxAge: 300 } },
      advanced: { ipAddress: { ipAddressHeaders: ["x-forwarded-for"] } },
    },
  });
});
afterAll(async () => {
  await server?.close();
});
afterEach(() => {
  expect(server.loggedErrors).toEqual([]);
});

const db = () => server.auth.database.db;

/** An organization's key made by its owner through the API, with these permissions. */
async function orgKey(owner: { browser: any }, organizationId: string, permissions: Record<string, string[]>) {
  const made = await owner.browser.post("/api-key/create", { organizationId, name: "ci-bot", permissions });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return { key: made.body.key as string, id: made.body.id as string };
}

function as(key: string, path: string, body?: object, query?: Record<string, string>) {
  const url = query ? `${path}?${new URLSearchParams(query)}` : path;
  return server.browser().request(url, { body, headers: { "x-api-key": key } });
}

describe("a key on the organization routes", () => {
  it("is accepted inside its permissions and refused outside them, on member, invitation and team routes", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const manager = await orgKey(owner, organizationId, {
      member: ["update", "delete"],
      invitation: ["create", "cancel"],
      team: ["create", "update"],
    });
    const reader = await orgKey(owner, organizationId, { team: ["create"] });
    const colleague = await joinAs(server, organizationId, "member");
    const leaver = await joinAs(server, organizationId, "member");

    // Reads: any key of the organization, as any member may.
    for (const key of [manager.key, reader.key]) {
      const members = await as(key, "/organization/list-members", undefined, { organizationId });
      expect(members.status, JSON.stringify(members.body)).toBe(200);
      expect(members.body.total).toBe(3);
      const full = await as(key, "/organization/get-full-organization", undefined, { organizationId });
      expect(full.status).toBe(200);
      expect(full.body.members).toHaveLength(3);
      expect((await as(key, "/organization/list-teams", undefined, { organizationId })).status).toBe(200);
    }

    // Invitations: create, list, cancel need invitation permissions.
    const invite = { email: `invited-${Date.now()}@example.com`, role: "member", organizationId };
    const deniedInvite = await as(reader.key, "/organization/invite-member", invite);
    expect(deniedInvite.status).toBe(403);
    expect(deniedInvite.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION");
    const invited = await as(manager.key, "/organization/invite-member", invite);
    expect(invited.status, JSON.stringify(invited.body)).toBe(200);
    // The invitation names a person: the key's creator.
    expect(invited.body.inviterId).toBe(owner.user.id);
    const ownerInvite = await as(manager.key, "/organization/invite-member", {
      ...invite,
      email: "o@example.com",
      role: "owner",
    });
    expect(ownerInvite.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE");
    expect((await as(reader.key, "/organization/list-invitations", undefined, { organizationId })).status).toBe(403);
    const listed = await as(manager.key, "/organization/list-invitations", undefined, { organizationId });
    expect(listed.body.map((i: { id: string }) => i.id)).toContain(invited.body.id);
    expect((await as(reader.key, "/organization/cancel-invitation", { invitationId: invited.body.id })).status).toBe(
      403,
    );
    const canceled = await as(manager.key, "/organization/cancel-invitation", { invitationId: invited.body.id });
    expect(canceled.body.status).toBe("canceled");

    // Members: role changes and removals need member permissions; a key never touches an owner.
    const promote = { memberId: colleague.memberId, role: "admin", organizationId };
    const deniedRole = await as(reader.key, "/organization/update-member-role", promote);
    expect(deniedRole.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
    expect((await as(manager.key, "/organization/update-member-role", promote)).body.role).toBe("admin");
    const ownerRow = await db()
      .selectFrom("member")
      .select("id")
      .where("organizationId", "=", organizationId)
      .where("userId", "=", owner.user.id)
      .executeTakeFirstOrThrow();
    const demote = await as(manager.key, "/organization/update-member-role", {
      memberId: ownerRow.id,
      role: "member",
      organizationId,
    });
    expect(demote.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
    const remove = { memberIdOrEmail: leaver.memberId, organizationId };
    expect((await as(reader.key, "/organization/remove-member", remove)).body.code).toBe(
      "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER",
    );
    expect((await as(manager.key, "/organization/remove-member", remove)).status).toBe(200);

    // Teams: create with team:create; adding a member to it needs member:update.
    const team = await as(reader.key, "/organization/create-team", { name: "Bots", organizationId });
    expect(team.status).toBe(200);
    const add = { teamId: team.body.id, userId: colleague.user.id, organizationId };
    expect((await as(reader.key, "/organization/add-team-member", add)).body.code).toBe(
      "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER",
    );
    expect((await as(manager.key, "/organization/add-team-member", add)).status).toBe(200);
    const teamMembers = await as(manager.key, "/organization/list-team-members", undefined, { teamId: team.body.id });
    expect(teamMembers.status, JSON.stringify(teamMembers.body)).toBe(200);
    const notInTeam = await as(reader.key, "/organization/list-team-members", undefined, { teamId: team.body.id });
    expect(notInTeam.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_TEAM");
    expect(teamMembers.body.map((m: { userId: string }) => m.userId)).toEqual([colleague.user.id]);
    expect(
      (await as(reader.key, "/organization/remove-team", { teamId: team.body.id, organizationId })).body.code,
    ).toBe("YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION");

    // The database agrees with the answers.
    const left = await db()
      .selectFrom("member")
      .select("userId")
      .where("organizationId", "=", organizationId)
      .execute();
    expect(left.map((m) => m.userId).sort()).toEqual([owner.user.id, colleague.user.id].sort());
  });

  it("does not know another organization, and is still refused on account and key-management routes", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const key = (await orgKey(owner, organizationId, { member: ["update", "delete"], invitation: ["create"] })).key;
    const other = await createOrganization(server);
    const stranger = await joinAs(server, other.organizationId, "member");

    const members = await as(key, "/organization/list-members", undefined, { organizationId: other.organizationId });
    expect(members.status).toBe(403);
    const bySlug = await as(key, "/organization/list-members", undefined, { organizationSlug: other.slug });
    expect(bySlug.status).toBe(403);
    const full = await as(key, "/organization/get-full-organization", undefined, {
      organizationId: other.organizationId,
    });
    expect(full.status).toBe(403);
    const removed = await as(key, "/organization/remove-member", {
      memberIdOrEmail: stranger.memberId,
      organizationId: other.organizationId,
    });
    expect(removed.body.code).toBe("MEMBER_NOT_FOUND");
    expect(
      (await as(key, "/organization/list-invitations", undefined, { organizationId: other.organizationId })).status,
    ).toBe(403);
    const still = await db().selectFrom("member").select("id").where("id", "=", stranger.memberId).execute();
    expect(still).toHaveLength(1);
    // Refusals it causes in the other organization's trail are bounded like a stranger's: one a window.
    for (let i = 0; i < 4; i++) {
      await as(key, "/organization/remove-member", {
        memberIdOrEmail: stranger.memberId,
        organizationId: other.organizationId,
      });
    }
    const refusals = await db()
      .selectFrom("auditTrail")
      .select(["actorType", "outcome"])
      .where("organizationId", "=", other.organizationId)
      .where("actorType", "=", "key")
      .execute();
    expect(refusals).toEqual([{ actorType: "key", outcome: "failure" }]);

    for (const [path, body] of [
      ["/api-key/list", undefined],
      ["/api-key/create", { organizationId }],
      ["/organization/delete", { organizationId }],
      ["/organization/transfer-ownership", { newOwnerId: stranger.user.id, organizationId }],
      ["/organization/update-policy", { organizationId, policy: {} }],
      ["/update-user", { name: "Renamed by a key" }],
      ["/change-email", { newEmail: "new@example.com" }],
      ["/revoke-sessions", {}],
    ] as const) {
      const res = await as(key, path, body);
      expect(res.status, path).toBe(403);
      expect(res.body.code, path).toBe("API_KEY_NOT_ACCEPTED");
    }
  });
});

describe("a user's key", () => {
  it("does only what the key was given, even for an owner: no role change, no leaving by removal", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const colleague = await joinAs(server, organizationId, "member");
    const made = await server.auth.api.createApiKey({
      body: { userId: owner.user.id, permissions: { team: ["create"] } },
    });
    const key = made.key as string;
    const promote = await as(key, "/organization/update-member-role", {
      memberId: colleague.memberId,
      role: "admin",
      organizationId,
    });
    expect(promote.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
    const self = await as(key, "/organization/remove-member", { memberIdOrEmail: owner.email, organizationId });
    expect(self.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER");
    const invite = await as(key, "/organization/invite-member", {
      email: "x@example.com",
      role: "member",
      organizationId,
    });
    expect(invite.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION");
    // Within the key's permissions it acts as its user.
    const team = await as(key, "/organization/create-team", { name: "Owner's bots", organizationId });
    expect(team.status, JSON.stringify(team.body)).toBe(200);
    const roles = await db()
      .selectFrom("member")
      .select(["userId", "role"])
      .where("organizationId", "=", organizationId)
      .execute();
    expect(roles.map((r) => r.role).sort()).toEqual(["member", "owner"]);
  });
});

describe("the trail's key actor", () => {
  it("attributes every write a key makes to the key, by id and name, in its organization", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const bot = await orgKey(owner, organizationId, { member: ["update", "delete"], team: ["create"] });
    const person = await joinAs(server, organizationId, "member");
    expect((await as(bot.key, "/organization/create-team", { name: "Audited", organizationId })).status).toBe(200);
    const promote = { memberId: person.memberId, role: "admin", organizationId };
    expect((await as(bot.key, "/organization/update-member-role", promote)).status).toBe(200);
    expect(
      (await as(bot.key, "/organization/remove-member", { memberIdOrEmail: person.memberId, organizationId })).status,
    ).toBe(200);

    const entries = await db()
      .selectFrom("auditTrail")
      .select(["action", "actorType", "actorId", "organizationId", "details"])
      .where("organizationId", "=", organizationId)
      .where("actorType", "=", "key")
      .orderBy("seq")
      .execute();
    const writes = entries.filter((e) => e.action !== "api_key.used_from_new_address");
    expect(writes.map((e) => e.action)).toEqual([
      "organization.team_created",
      "organization.member_role_updated",
      "organization.member_removed",
    ]);
    for (const entry of writes) {
      expect(entry.actorId).toBe(bot.id);
      expect(entry.organizationId).toBe(organizationId);
      const details = typeof entry.details === "string" ? JSON.parse(entry.details) : entry.details;
      expect(details.apiKeyName).toBe("ci-bot");
    }
  });

  it(`audits a key's first use from an address once, of ${PARALLEL_REQUESTS} parallel requests read from the database`, async () => {
    // No cookie cache: every request reads the key's row, so only the database can tell them apart.
    const plain = await startTestServer({
      options: {
        organization: { enabled: true },
        apiKey: { enabled: true },
        audit: { enabled: true },
        advanced: { ipAddress: { ipAddressHeaders: ["x-forwarded-for"] } },
      },
    });
    try {
      const { owner, organizationId } = await createOrganization(plain);
      const made = await owner.browser.post("/api-key/create", { organizationId, permissions: { member: ["update"] } });
      const ask = (address: string) =>
        plain.browser().request("/organization/has-permission", {
          body: { organizationId, permissions: { member: ["update"] } },
          headers: { "x-api-key": made.body.key, "x-forwarded-for": address },
        });
      const answers = await Promise.all(Array.from({ length: PARALLEL_REQUESTS }, () => ask("203.0.113.9")));
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      expect((await ask("203.0.113.10")).status).toBe(200);
      expect((await ask("203.0.113.9")).status).toBe(200);
      const entries = await plain.auth.database.db
        .selectFrom("auditTrail")
        .select(["actorType", "actorId"])
        .where("action", "=", "api_key.used_from_new_address")
        .where("organizationId", "=", organizationId)
        .execute();
      expect(entries).toEqual([
        { actorType: "key", actorId: made.body.id },
        { actorType: "key", actorId: made.body.id },
      ]);
    } finally {
      await plain.close();
    }
  });
});

describe("keys and membership", () => {
  /** A user's key (made by the server for them) and an organization's key made by that user. */
  async function twoKeys(organizationId: string, userId: string, browser: any) {
    const permissions = { member: ["update"] };
    const own = (await server.auth.api.createApiKey({ body: { userId, permissions } })).key as string;
    const made = await browser.post("/api-key/create", { organizationId, permissions });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    return { own, organizations: made.body.key as string };
  }

  const ROUTES = (organizationId: string) =>
    [
      ["/organization/list-members", undefined, { organizationId }],
      ["/organization/get-full-organization", undefined, { organizationId }],
      ["/organization/has-permission", { organizationId, permissions: { member: ["update"] } }, undefined],
    ] as const;

  async function works(key: string, organizationId: string): Promise<boolean[]> {
    const answers = [];
    for (const [path, body, query] of ROUTES(organizationId)) {
      const res = await as(key, path, body, query);
      answers.push(res.status === 200 && (res.body.success ?? true) === true);
    }
    return answers;
  }

  it("a user's key stops with the membership when the user is removed; the organization's key works on", async () => {
    const { owner, organizationId } = await createOrganization(server);
    // A second owner, who makes both keys (an owner may make an organization's keys).
    const admin = await joinAs(server, organizationId, "owner");
    const keys = await twoKeys(organizationId, admin.user.id, admin.browser);
    expect(await works(keys.own, organizationId)).toEqual([true, true, true]);
    expect(await works(keys.organizations, organizationId)).toEqual([true, true, true]);

    const removed = await owner.browser.post("/organization/remove-member", {
      memberIdOrEmail: admin.memberId,
      organizationId,
    });
    expect(removed.status).toBe(200);
    expect(await works(keys.own, organizationId)).toEqual([false, false, false]);
    expect(await works(keys.organizations, organizationId)).toEqual([true, true, true]);
  });

  it("a user's key stops with the membership when the directory deprovisions the user", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const token = (
      await owner.browser.post("/scim/generate-token", { providerId: `dir-${Date.now()}`, organizationId })
    ).body.scimToken as string;
    const scim = (method: string, path: string, body?: unknown) => scimCall(server.origin, token, method, path, body);
    const userName = `dir-${Date.now()}@example.com`;
    const created = await scim("POST", "/Users", {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
      userName,
      name: { givenName: "Dee", familyName: "Rectory" },
      emails: [{ primary: true, value: userName }],
    });
    expect(created.status).toBe(201);
    const userId = created.body.id as string;
    // The directory's user as an owner who made an organization key (server-side: they have no password).
    await db().updateTable("member").set({ role: "owner" }).where("userId", "=", userId).execute();
    const permissions = { member: ["update"] };
    const own = (await server.auth.api.createApiKey({ body: { userId, permissions } })).key as string;
    const organizations = (await server.auth.api.createApiKey({ body: { userId, organizationId, permissions } }))
      .key as string;
    expect(await works(own, organizationId)).toEqual([true, true, true]);
    expect(await works(organizations, organizationId)).toEqual([true, true, true]);

    const deactivated = await scim("PATCH", `/Users/${userId}`, {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
      Operations: [{ op: "replace", value: { active: false } }],
    });
    expect(deactivated.status).toBe(200);
    expect(await works(own, organizationId)).toEqual([false, false, false]);
    expect(await works(organizations, organizationId)).toEqual([true, true, true]);
  });
});

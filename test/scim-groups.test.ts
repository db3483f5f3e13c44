import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createOrganization, joinAs } from "./helpers/organization.js";
import { type ScimResponse, scimCall } from "./helpers/scim.js";
import { type signUp, startTestServer, type TestServer } from "./helpers/server.js";

/**
 * SCIM Groups (issue 33, items 1-2), the Users gaps (sessions per organization, required user
 * fields) and team roles (item 4). Groups are driven as Okta and Entra ID drive them: look the group
 * up by displayName without members, create it, PATCH members add/remove, rename, delete.
 */
const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const ERROR = "urn:ietf:params:scim:api:messages:2.0:Error";
const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";

let server: TestServer;
let fields: TestServer;

beforeAll(async () => {
  [server, fields] = await Promise.all([
    startTestServer({
      options: {
        scim: { enabled: true },
        session: { cookieCache: { enabled: true, maxAge: 300 } },
        organization: {
          teams: {
            enabled: true,
            roles: {
              lead: { member: ["update", "delete"], team: ["update"] },
              reviewer: { report: ["read", "approve"] },
            },
          },
        },
      },
    }),
    startTestServer({
      options: {
        scim: { enabled: true, userFields: { department: `${ENTERPRISE}:department` } },
        user: {
          additionalFields: {
            department: { type: "string", required: true },
            plan: { type: "string", defaultValue: "free" },
          },
        },
      },
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.close(), fields?.close()]);
});
afterEach(() => {
  expect(server.loggedErrors).toEqual([]);
  expect(fields.loggedErrors).toEqual([]);
});

const db = () => server.auth.database.db;

const scimOn = (on: TestServer, token: string, method: string, path: string, body?: unknown) =>
  scimCall(on.origin, token, method, path, body);
const scim = (token: string, method: string, path: string, body?: unknown) => scimOn(server, token, method, path, body);

function expectScimError(res: ScimResponse, status: number, scimType?: string) {
  expect(res.status).toBe(status);
  expect(res.contentType).toContain("application/scim+json");
  expect(res.body.schemas).toEqual([ERROR]);
  expect(res.body.status).toBe(String(status));
  if (scimType) expect(res.body.scimType).toBe(scimType);
  expect(typeof res.body.detail).toBe("string");
}

async function connectedOrganization(
  providerId: string,
  on: TestServer = server,
  owner?: Awaited<ReturnType<typeof signUp>>,
) {
  const org = await createOrganization(on, owner ? { owner } : {});
  const res = await org.owner.browser.post("/scim/generate-token", { providerId, organizationId: org.organizationId });
  expect(res.status).toBe(201);
  return { ...org, token: res.body.scimToken as string };
}

const newUser = (userName: string, extra: Record<string, unknown> = {}) => ({
  schemas: [USER],
  userName,
  name: { givenName: "Grace", familyName: "Hopper" },
  emails: [{ primary: true, value: userName, type: "work" }],
  active: true,
  ...extra,
});

const patchOp = (...Operations: unknown[]) => ({ schemas: [PATCH_OP], Operations });

async function memberRole(organizationId: string, userId: string): Promise<string | null> {
  const row = await db()
    .selectFrom("member")
    .select("role")
    .where("organizationId", "=", organizationId)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return row?.role ?? null;
}

async function teamPlace(teamId: string, userId: string) {
  return db()
    .selectFrom("teamMember")
    .select(["id", "role"])
    .where("teamId", "=", teamId)
    .where("userId", "=", userId)
    .executeTakeFirst();
}

/** The organization's default team (created with it). */
async function defaultTeamOf(organizationId: string): Promise<string> {
  const row = await db()
    .selectFrom("team")
    .select("id")
    .where("organizationId", "=", organizationId)
    .executeTakeFirstOrThrow();
  return row.id;
}

describe("Okta's group sequence", () => {
  it("pushes a group, the owner maps it to a role, members get and lose it, rename and delete", async () => {
    const { owner, organizationId, token } = await connectedOrganization("okta-groups");
    const ada = (await scim(token, "POST", "/Users", newUser("ada.groups@example.com"))).body.id as string;
    const bob = (await scim(token, "POST", "/Users", newUser("bob.groups@example.com"))).body.id as string;

    // Okta looks the group up first, without members.
    const lookup = await scim(
      token,
      "GET",
      `/Groups?filter=${encodeURIComponent('displayName eq "Admins"')}&excludedAttributes=members&startIndex=1&count=100`,
    );
    expect(lookup.status).toBe(200);
    expect(lookup.body).toMatchObject({ totalResults: 0, Resources: [] });

    const created = await scim(token, "POST", "/Groups", { schemas: [GROUP], displayName: "Admins", members: [] });
    expect(created.status).toBe(201);
    expect(created.contentType).toContain("application/scim+json");
    expect(created.body).toMatchObject({ schemas: [GROUP], displayName: "Admins", members: [] });
    const groupId: string = created.body.id;

    // Unmapped: membership is kept but grants nothing.
    const added = await scim(
      token,
      "PATCH",
      `/Groups/${groupId}`,
      patchOp({ op: "add", path: "members", value: [{ value: ada, display: "ada" }] }),
    );
    expect(added.status).toBe(200);
    expect(added.body.members).toEqual([
      expect.objectContaining({ value: ada, display: "ada.groups@example.com", type: "User" }),
    ]);
    expect(await memberRole(organizationId, ada)).toBe("member");

    // The owner maps it: the current member gets the role at once, in the mapping's transaction.
    const listed = await owner.browser.get("/scim/list-groups?providerId=okta-groups");
    expect(listed.status).toBe(200);
    expect(listed.body.groups).toEqual([
      expect.objectContaining({ id: groupId, displayName: "Admins", role: null, teamId: null, members: 1 }),
    ]);
    const mapped = await owner.browser.post("/scim/update-group-mapping", {
      providerId: "okta-groups",
      groupId,
      role: "admin",
    });
    expect(mapped.status).toBe(200);
    expect(mapped.body).toMatchObject({ id: groupId, role: "admin", teamId: null, members: 1 });
    expect(await memberRole(organizationId, ada)).toBe("admin");

    await scim(token, "PATCH", `/Groups/${groupId}`, patchOp({ op: "add", path: "members", value: [{ value: bob }] }));
    expect(await memberRole(organizationId, bob)).toBe("admin");

    // Okta's rename: replace without a path, the id in the value.
    const renamed = await scim(
      token,
      "PATCH",
      `/Groups/${groupId}`,
      patchOp({ op: "replace", value: { id: groupId, displayName: "Administrators" } }),
    );
    expect(renamed.status).toBe(200);
    expect(renamed.body.displayName).toBe("Administrators");
    const found = await scim(
      token,
      "GET",
      `/Groups?filter=${encodeURIComponent('displayName eq "administrators"')}&excludedAttributes=members`,
    );
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0]).not.toHaveProperty("members");

    // Okta removes one member by a value filter: back to the default role.
    const removed = await scim(
      token,
      "PATCH",
      `/Groups/${groupId}`,
      patchOp({ op: "remove", path: `members[value eq "${ada}"]` }),
    );
    expect(removed.status).toBe(200);
    expect(removed.body.members.map((m: any) => m.value)).toEqual([bob]);
    expect(await memberRole(organizationId, ada)).toBe("member");

    // Deactivating a user removes the membership; reactivating brings the group's role back.
    expect(
      (await scim(token, "PATCH", `/Users/${bob}`, patchOp({ op: "replace", value: { active: false } }))).status,
    ).toBe(200);
    expect(await memberRole(organizationId, bob)).toBeNull();
    expect(
      (await scim(token, "PATCH", `/Users/${bob}`, patchOp({ op: "replace", value: { active: true } }))).status,
    ).toBe(200);
    expect(await memberRole(organizationId, bob)).toBe("admin");

    // PUT replaces the members.
    const put = await scim(token, "PUT", `/Groups/${groupId}`, {
      schemas: [GROUP],
      displayName: "Administrators",
      members: [{ value: ada }],
    });
    expect(put.status).toBe(200);
    expect(await memberRole(organizationId, ada)).toBe("admin");
    expect(await memberRole(organizationId, bob)).toBe("member");

    // Deleting the group takes its role away.
    const deleted = await fetch(`${server.origin}/api/auth/scim/v2/Groups/${groupId}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(deleted.status).toBe(204);
    expect(await memberRole(organizationId, ada)).toBe("member");
    expectScimError(await scim(token, "GET", `/Groups/${groupId}`), 404);
  });
});

describe("Entra ID's group sequence", () => {
  it("maps a group to a team with a team role; capitalised ops, members add/remove by value, path renames", async () => {
    const { owner, organizationId, token } = await connectedOrganization("entra-groups");
    const teamId = await defaultTeamOf(organizationId);
    const carol = (await scim(token, "POST", "/Users", newUser("carol.entra@example.com", { externalId: "e-carol" })))
      .body.id as string;
    const dan = (await scim(token, "POST", "/Users", newUser("dan.entra@example.com", { externalId: "e-dan" }))).body
      .id as string;

    const created = await scim(token, "POST", "/Groups", {
      schemas: [GROUP],
      externalId: "obj-1",
      displayName: "Team Leads",
    });
    expect(created.status).toBe(201);
    const groupId: string = created.body.id;
    const mapped = await owner.browser.post("/scim/update-group-mapping", {
      providerId: "entra-groups",
      groupId,
      teamId,
      teamRole: "lead",
    });
    expect(mapped.status).toBe(200);

    expect(
      (await scim(token, "GET", `/Groups?filter=${encodeURIComponent('externalId eq "obj-1"')}`)).body.totalResults,
    ).toBe(1);

    const add = await scim(
      token,
      "PATCH",
      `/Groups/${groupId}`,
      patchOp({ op: "Add", path: "members", value: [{ value: carol }, { value: dan }] }),
    );
    expect(add.status).toBe(200);
    expect((await teamPlace(teamId, carol))?.role).toBe("lead");
    expect((await teamPlace(teamId, dan))?.role).toBe("lead");
    // Entra ID's check of one membership.
    const isIn = async (userId: string) =>
      (
        await scim(
          token,
          "GET",
          `/Groups?filter=${encodeURIComponent(`id eq "${groupId}" and members eq "${userId}"`)}&excludedAttributes=members`,
        )
      ).body.totalResults;
    expect(await isIn(dan)).toBe(1);
    expect(await memberRole(organizationId, carol)).toBe("member");

    const rename = await scim(
      token,
      "PATCH",
      `/Groups/${groupId}`,
      patchOp({ op: "Replace", path: "displayName", value: "Leads" }),
    );
    expect(rename.body.displayName).toBe("Leads");

    const remove = await scim(
      token,
      "PATCH",
      `/Groups/${groupId}`,
      patchOp({ op: "Remove", path: "members", value: [{ value: dan }] }),
    );
    expect(remove.status).toBe(200);
    expect(await teamPlace(teamId, dan)).toBeUndefined();
    expect((await teamPlace(teamId, carol))?.role).toBe("lead");
    expect(await isIn(dan)).toBe(0);
    const bracketed = `id eq "${groupId}" and members[value eq "${carol}"]`;
    expect((await scim(token, "GET", `/Groups?filter=${encodeURIComponent(bracketed)}`)).body.totalResults).toBe(1);

    // Unmapping takes the team places away; the group and its members stay.
    await owner.browser.post("/scim/update-group-mapping", { providerId: "entra-groups", groupId, teamId: null });
    expect(await teamPlace(teamId, carol)).toBeUndefined();
    expect((await scim(token, "GET", `/Groups/${groupId}`)).body.members.map((m: any) => m.value)).toEqual([carol]);

    // Deleting a user takes them out of the directory's groups.
    expect(
      (
        await fetch(`${server.origin}/api/auth/scim/v2/Users/${carol}`, {
          method: "DELETE",
          headers: { authorization: `Bearer ${token}` },
        })
      ).status,
    ).toBe(204);
    expect((await scim(token, "GET", `/Groups/${groupId}`)).body.members).toEqual([]);
  });
});

describe("the owner's mapping", () => {
  it("is for owners only, one of role or team, and checked", async () => {
    const { owner, organizationId, token } = await connectedOrganization("mapping-rules");
    const groupId = (await scim(token, "POST", "/Groups", { schemas: [GROUP], displayName: "G" })).body.id;
    const admin = await joinAs(server, organizationId, "admin");
    const refused = await admin.browser.post("/scim/update-group-mapping", {
      providerId: "mapping-rules",
      groupId,
      role: "admin",
    });
    expect(refused.status).toBe(403);
    expect((await admin.browser.get("/scim/list-groups?providerId=mapping-rules")).status).toBe(403);

    const teamId = await defaultTeamOf(organizationId);
    const both = await owner.browser.post("/scim/update-group-mapping", {
      providerId: "mapping-rules",
      groupId,
      role: "admin",
      teamId,
    });
    expect(both.body.code).toBe("SCIM_GROUP_MAPPING_INVALID");
    const unknownRole = await owner.browser.post("/scim/update-group-mapping", {
      providerId: "mapping-rules",
      groupId,
      role: "emperor",
    });
    expect(unknownRole.body.code).toBe("ROLE_NOT_FOUND");
    // A directory's group must not make owners (anyone its admins add would be one), as connections cannot.
    for (const role of ["owner", ["admin", "owner"], "member,owner"]) {
      const owners = await owner.browser.post("/scim/update-group-mapping", {
        providerId: "mapping-rules",
        groupId,
        role,
      });
      expect([owners.status, owners.body.code], JSON.stringify(role)).toEqual([400, "SCIM_GROUP_ROLE_NOT_ALLOWED"]);
      expect(owners.body.message).toEqual(expect.any(String));
    }
    expect((await owner.browser.get("/scim/list-groups?providerId=mapping-rules")).body.groups).toMatchObject([
      { id: groupId, role: null },
    ]);
    const unknownTeamRole = await owner.browser.post("/scim/update-group-mapping", {
      providerId: "mapping-rules",
      groupId,
      teamId,
      teamRole: "emperor",
    });
    expect(unknownTeamRole.body.code).toBe("ROLE_NOT_FOUND");
    const other = await createOrganization(server);
    const foreignTeam = await owner.browser.post("/scim/update-group-mapping", {
      providerId: "mapping-rules",
      groupId,
      teamId: await defaultTeamOf(other.organizationId),
    });
    expect(foreignTeam.body.code).toBe("TEAM_NOT_FOUND");
    const noGroup = await owner.browser.post("/scim/update-group-mapping", {
      providerId: "mapping-rules",
      groupId: "nope",
      role: "admin",
    });
    expect(noGroup.status).toBe(404);
    expect(noGroup.body.code).toBe("SCIM_GROUP_NOT_FOUND");
  });
});

describe("tenancy", () => {
  it("refuses another directory's users as members and another organization's groups", async () => {
    const a = await connectedOrganization("groups-tenant-a");
    const b = await connectedOrganization("groups-tenant-b");
    const inA = (await scim(a.token, "POST", "/Users", newUser("only.a.groups@example.com"))).body.id as string;
    const groupA = (await scim(a.token, "POST", "/Groups", { schemas: [GROUP], displayName: "A" })).body.id as string;
    const groupB = (await scim(b.token, "POST", "/Groups", { schemas: [GROUP], displayName: "B" })).body.id as string;

    expectScimError(
      await scim(
        b.token,
        "PATCH",
        `/Groups/${groupB}`,
        patchOp({ op: "add", path: "members", value: [{ value: inA }] }),
      ),
      400,
      "invalidValue",
    );
    expectScimError(
      await scim(b.token, "POST", "/Groups", { schemas: [GROUP], displayName: "B2", members: [{ value: inA }] }),
      400,
      "invalidValue",
    );
    expectScimError(
      await scim(
        a.token,
        "PATCH",
        `/Groups/${groupA}`,
        patchOp({ op: "add", path: "members", value: [{ value: a.owner.user.id }] }),
      ),
      400,
      "invalidValue",
    );
    expectScimError(await scim(b.token, "GET", `/Groups/${groupA}`), 404);
    expectScimError(
      await scim(b.token, "PATCH", `/Groups/${groupA}`, patchOp({ op: "replace", path: "displayName", value: "x" })),
      404,
    );
    expectScimError(await scim(b.token, "PUT", `/Groups/${groupA}`, { schemas: [GROUP], displayName: "x" }), 404);
    expectScimError(await scim(b.token, "DELETE", `/Groups/${groupA}`), 404);
    expect((await scim(b.token, "GET", "/Groups")).body.totalResults).toBe(1);
    expect((await a.owner.browser.get("/scim/list-groups?providerId=groups-tenant-b")).body.code).toBe(
      "SCIM_PROVIDER_NOT_FOUND",
    );
    expect((await scim(a.token, "GET", `/Groups/${groupA}`)).body.displayName).toBe("A");
  });
});

describe("bad group requests answer SCIM errors and change nothing", () => {
  let token: string;
  let groupId: string;
  let userId: string;
  beforeAll(async () => {
    ({ token } = await connectedOrganization("groups-bad-input"));
    userId = (await scim(token, "POST", "/Users", newUser("steady.groups@example.com"))).body.id;
    groupId = (
      await scim(token, "POST", "/Groups", { schemas: [GROUP], displayName: "Steady", members: [{ value: userId }] })
    ).body.id;
  });

  it.each(['displayName co "x"', 'members eq "x"', "displayName eq x", 'displayName eq "a" or displayName eq "b"'])(
    "filter %s",
    async (filter) => {
      expectScimError(await scim(token, "GET", `/Groups?filter=${encodeURIComponent(filter)}`), 400, "invalidFilter");
    },
  );

  it("pages: an oversize count is lowered, a non-integer one refused", async () => {
    const huge = await scim(token, "GET", "/Groups?count=1000000&startIndex=1");
    expect(huge.status).toBe(200);
    expect(huge.body).toMatchObject({ totalResults: 1, itemsPerPage: 1, startIndex: 1 });
    expectScimError(await scim(token, "GET", "/Groups?count=many"), 400, "invalidValue");
    expect((await scim(token, "GET", "/Groups?startIndex=5")).body).toMatchObject({ totalResults: 1, Resources: [] });
  });

  it.each([
    [[{ op: "replace", path: "colour", value: "red" }], "invalidPath"],
    [[{ op: "remove", path: 'members[display eq "x"]' }], "invalidPath"],
    [[{ op: "add", path: `members[value eq "${"x"}"]`, value: "y" }], "invalidPath"],
    [[{ op: "replace", value: { colour: "red" } }], "invalidPath"],
    [[{ op: "remove" }], "noTarget"],
    [[{ op: "remove", path: "displayName" }], "mutability"],
    [[{ op: "copy", path: "members", value: [] }], "invalidSyntax"],
    [[{ op: "add", path: "members", value: [{ value: "nobody" }] }], "invalidValue"],
    [[{ op: "add", path: "members", value: [{ value: "g", type: "Group" }] }], "invalidValue"],
    [[{ op: "add", path: "members", value: ["just-a-string"] }], "invalidValue"],
    [[{ op: "add", path: "members", value: [{ value: "x", colour: "red" }] }], "invalidSyntax"],
    [[{ op: "replace", path: "displayName", value: "" }], "invalidValue"],
    [[], "invalidSyntax"],
  ])("PATCH %j", async (operations, scimType) => {
    expectScimError(await scim(token, "PATCH", `/Groups/${groupId}`, patchOp(...operations)), 400, scimType);
    const group = await scim(token, "GET", `/Groups/${groupId}`);
    expect(group.body).toMatchObject({ displayName: "Steady", members: [expect.objectContaining({ value: userId })] });
  });

  it.each([
    [{ schemas: [GROUP], displayName: "X", colour: "red" }, 400, "invalidSyntax"],
    [{ schemas: [USER], displayName: "X" }, 400, "invalidSyntax"],
    [{ schemas: [GROUP] }, 400, "invalidValue"],
    [{ schemas: [GROUP], displayName: "X", members: "all" }, 400, "invalidValue"],
    [{ schemas: [GROUP], displayName: "steady" }, 409, "uniqueness"],
  ])("POST %j", async (body, status, scimType) => {
    expectScimError(await scim(token, "POST", "/Groups", body), status, scimType);
    expect((await scim(token, "GET", "/Groups")).body.totalResults).toBe(1);
  });

  it("too many members, malformed JSON", async () => {
    const many = Array.from({ length: 1001 }, (_, n) => ({ value: `u${n}` }));
    expectScimError(
      await scim(token, "PATCH", `/Groups/${groupId}`, patchOp({ op: "add", path: "members", value: many })),
      400,
      "invalidValue",
    );
    expectScimError(await scim(token, "PATCH", `/Groups/${groupId}`, "{nope"), 400, "invalidSyntax");
    expectScimError(await scim(token, "GET", "/Groups/does-not-exist"), 404);
  });

  it("discovery lists Groups", async () => {
    const types = await scim(token, "GET", "/ResourceTypes");
    expect(types.body.Resources.map((r: any) => r.endpoint)).toEqual(["/Users", "/Groups"]);
    expect((await scim(token, "GET", "/ResourceTypes/Group")).body.schema).toBe(GROUP);
    const schema = await scim(token, "GET", `/Schemas/${GROUP}`);
    expect(schema.body.attributes.map((a: any) => a.name)).toEqual(["displayName", "externalId", "members"]);
  });
});

describe("deprovisioning and sessions", () => {
  it("ends the sessions acting in the organization; those acting in another of the person's organizations stay", async () => {
    const { organizationId, token } = await connectedOrganization("sessions-per-org");
    await db()
      .updateTable("scimProvider")
      .set({ linkExistingMembers: true })
      .where("providerId", "=", "sessions-per-org")
      .execute();
    const person = await joinAs(server, organizationId, "member", "Two Orgs");
    const other = await createOrganization(server);
    await server.auth.api.addMember({
      body: { userId: person.user.id, role: "member", organizationId: other.organizationId },
    });
    // A second browser of the same person, working in the other organization.
    const elsewhere = server.browser();
    expect(
      (await elsewhere.post("/sign-in/email", { email: person.email, password: "correct horse battery" })).status,
    ).toBe(200);
    expect((await elsewhere.post("/organization/set-active", { organizationId: other.organizationId })).status).toBe(
      200,
    );
    expect((await person.browser.get("/get-session")).body?.session?.activeOrganizationId).toBe(organizationId);

    expect((await scim(token, "POST", "/Users", newUser(person.email))).status).toBe(201);
    const off = await scim(
      token,
      "PATCH",
      `/Users/${person.user.id}`,
      patchOp({ op: "replace", path: "active", value: false }),
    );
    expect(off.status).toBe(200);
    expect((await person.browser.get("/get-session")).body).toBeNull();
    const kept = await elsewhere.get("/get-session");
    expect(kept.body?.user?.id).toBe(person.user.id);
    expect(kept.body?.session?.activeOrganizationId).toBe(other.organizationId);
  });
});

describe("a required user field of the app's own", () => {
  it("is a clear SCIM error when the directory does not send it, and filled by the mapping when it does", async () => {
    const ownerBrowser = fields.browser();
    const email = `owner-${Date.now()}@example.com`;
    const signed = await ownerBrowser.post("/sign-up/email", {
      name: "Owner",
      email,
      password: "correct horse battery",
      department: "IT",
    });
    expect(signed.status).toBe(200);
    const { token } = await connectedOrganization("fields", fields, {
      browser: ownerBrowser,
      user: signed.body.user,
      token: signed.body.token,
      email,
      password: "correct horse battery",
    });

    const missing = await scimOn(fields, token, "POST", "/Users", newUser("no.department@example.com"));
    expect(missing.status).toBe(400);
    expect(missing.body.scimType).toBe("invalidValue");
    expect(missing.body.detail).toContain("department");
    const wrong = await scimOn(
      fields,
      token,
      "POST",
      "/Users",
      newUser("bad.department@example.com", { [ENTERPRISE]: { department: 7 } }),
    );
    expect(wrong.body.scimType).toBe("invalidValue");

    const made = await scimOn(
      fields,
      token,
      "POST",
      "/Users",
      newUser("with.department@example.com", { schemas: [USER, ENTERPRISE], [ENTERPRISE]: { department: "Finance" } }),
    );
    expect(made.status).toBe(201);
    const row = await fields.auth.database.db
      .selectFrom("user")
      .selectAll()
      .where("id", "=", made.body.id)
      .executeTakeFirstOrThrow();
    expect((row as any).department).toBe("Finance");
    expect((row as any).plan).toBe("free");
  });
});

describe("team roles", () => {
  it("count in has-permission within their team only, and let a lead manage their team's members", async () => {
    const { owner, organizationId } = await createOrganization(server);
    const teamId = await defaultTeamOf(organizationId);
    const otherTeam = (await owner.browser.post("/organization/create-team", { name: "Other", organizationId })).body
      .id as string;
    const lead = await joinAs(server, organizationId, "member", "Lead");
    const plain = await joinAs(server, organizationId, "member", "Plain");

    // Only those whose organization role grants member:update hand out team roles.
    const added = await owner.browser.post("/organization/add-team-member", {
      teamId,
      userId: lead.user.id,
      role: "lead",
    });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ teamId, userId: lead.user.id, role: "lead" });
    const unknown = await owner.browser.post("/organization/add-team-member", {
      teamId,
      userId: plain.user.id,
      role: "emperor",
    });
    expect(unknown.body.code).toBe("ROLE_NOT_FOUND");
    const plainPlace = await owner.browser.post("/organization/add-team-member", { teamId, userId: plain.user.id });
    expect(plainPlace.status).toBe(200);
    expect(plainPlace.body).not.toHaveProperty("role");

    const can = (who: typeof lead, body: object) => who.browser.post("/organization/has-permission", body);
    expect((await can(lead, { permissions: { member: ["update"] } })).body).toEqual({ error: null, success: false });
    expect((await can(lead, { teamId, permissions: { member: ["update"] } })).body.success).toBe(true);
    expect((await can(lead, { teamId: otherTeam, permissions: { member: ["update"] } })).body.success).toBe(false);
    expect((await can(plain, { teamId, permissions: { member: ["update"] } })).body.success).toBe(false);
    expect((await can(lead, { teamId, permissions: { report: ["read"] } })).body.success).toBe(false);
    expect((await can(lead, { teamId: "no-such-team", permissions: { member: ["update"] } })).body.code).toBe(
      "TEAM_NOT_FOUND",
    );

    // The lead manages their own team's members, not another team's, and cannot hand out roles.
    const newcomer = await joinAs(server, organizationId, "member", "Newcomer");
    expect(
      (await lead.browser.post("/organization/add-team-member", { teamId, userId: newcomer.user.id })).status,
    ).toBe(200);
    expect(
      (await lead.browser.post("/organization/add-team-member", { teamId: otherTeam, userId: newcomer.user.id }))
        .status,
    ).toBe(403);
    expect((await plain.browser.post("/organization/add-team-member", { teamId, userId: owner.user.id })).status).toBe(
      403,
    );
    const selfPromotion = await lead.browser.post("/organization/update-team-member-role", {
      teamId,
      userId: plain.user.id,
      role: "lead",
    });
    expect(selfPromotion.status).toBe(403);
    expect(
      (await lead.browser.post("/organization/remove-team-member", { teamId, userId: newcomer.user.id })).status,
    ).toBe(200);
    expect(
      (await lead.browser.post("/organization/update-team", { teamId, data: { name: "Renamed by lead" } })).status,
    ).toBe(200);

    // The owner sets and clears roles; a reviewer role grants its own statements.
    const reviewer = await owner.browser.post("/organization/update-team-member-role", {
      teamId,
      userId: plain.user.id,
      role: ["reviewer"],
    });
    expect(reviewer.body).toMatchObject({ userId: plain.user.id, role: "reviewer" });
    expect((await can(plain, { teamId, permissions: { report: ["read", "approve"] } })).body.success).toBe(true);
    const cleared = await owner.browser.post("/organization/update-team-member-role", {
      teamId,
      userId: plain.user.id,
      role: null,
    });
    expect(cleared.body).not.toHaveProperty("role");
    expect((await can(plain, { teamId, permissions: { report: ["read"] } })).body.success).toBe(false);
    const notInTeam = await owner.browser.post("/organization/update-team-member-role", {
      teamId: otherTeam,
      userId: plain.user.id,
      role: "lead",
    });
    expect(notInTeam.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_TEAM");

    // The organization role still answers as before without a teamId.
    expect((await can(owner as any, { permissions: { member: ["update"] } })).body.success).toBe(true);
  });
});

describe("what a group may not do", () => {
  it("take the owner role from the only owner; and the groups go with their organization", async () => {
    const { owner, organizationId, token } = await connectedOrganization("owner-guard");
    await db()
      .updateTable("scimProvider")
      .set({ linkExistingMembers: true })
      .where("providerId", "=", "owner-guard")
      .execute();
    expect((await scim(token, "POST", "/Users", newUser(owner.email))).body.id).toBe(owner.user.id);
    const groupId = (await scim(token, "POST", "/Groups", { schemas: [GROUP], displayName: "Staff" })).body.id;
    await owner.browser.post("/scim/update-group-mapping", { providerId: "owner-guard", groupId, role: "admin" });

    const demote = await scim(
      token,
      "PATCH",
      `/Groups/${groupId}`,
      patchOp({ op: "add", path: "members", value: [{ value: owner.user.id }] }),
    );
    expectScimError(demote, 400, "mutability");
    expect(await memberRole(organizationId, owner.user.id)).toBe("owner");
    expect((await scim(token, "GET", `/Groups/${groupId}`)).body.members).toEqual([]);

    // Unmapped, the owner joins the group; mapping it to a role would demote them: refused likewise.
    await owner.browser.post("/scim/update-group-mapping", { providerId: "owner-guard", groupId, role: null });
    expect(
      (
        await scim(
          token,
          "PATCH",
          `/Groups/${groupId}`,
          patchOp({ op: "add", path: "members", value: [{ value: owner.user.id }] }),
        )
      ).status,
    ).toBe(200);
    const remap = await owner.browser.post("/scim/update-group-mapping", {
      providerId: "owner-guard",
      groupId,
      role: "admin",
    });
    expect(remap.body.code).toBe("SCIM_GROUP_MAPPING_REFUSED");
    expect(await memberRole(organizationId, owner.user.id)).toBe("owner");

    expect((await owner.browser.post("/organization/delete", { organizationId })).status).toBe(200);
    const left = await db().selectFrom("scimGroup").select("id").where("organizationId", "=", organizationId).execute();
    expect(left).toEqual([]);
    expect(await db().selectFrom("scimGroupMember").select("userId").where("groupId", "=", groupId).execute()).toEqual(
      [],
    );
  });
});

describe("a group mapped to the owner role before that was refused", () => {
  it("makes nobody an owner: its members get the rest of its roles, else the default", async () => {
    const { organizationId, token } = await connectedOrganization("legacy-owner");
    const groupId = (await scim(token, "POST", "/Groups", { schemas: [GROUP], displayName: "Legacy" })).body.id;
    const ada = (await scim(token, "POST", "/Users", newUser(`ada-${Date.now()}@legacy.test`))).body.id;
    const member = (op: string) =>
      scim(token, "PATCH", `/Groups/${groupId}`, patchOp({ op, path: "members", value: [{ value: ada }] }));
    await db().updateTable("scimGroup").set({ role: "owner" }).where("id", "=", groupId).execute();
    expect((await member("add")).status).toBe(200);
    expect(await memberRole(organizationId, ada)).toBe("member");
    expect((await member("remove")).status).toBe(200);
    await db().updateTable("scimGroup").set({ role: "admin,owner" }).where("id", "=", groupId).execute();
    expect((await member("add")).status).toBe(200);
    expect(await memberRole(organizationId, ada)).toBe("admin");
  });
});

describe("races", () => {
  it("membership PATCHes of one mapped group at once all apply, each with its role, never a 500", async () => {
    const { owner, organizationId, token } = await connectedOrganization("groups-race");
    const ids: string[] = [];
    for (const n of [1, 2, 3, 4]) {
      ids.push((await scim(token, "POST", "/Users", newUser(`racer${n}.groups@example.com`))).body.id);
    }
    const groupId = (await scim(token, "POST", "/Groups", { schemas: [GROUP], displayName: "Racers" })).body.id;
    await owner.browser.post("/scim/update-group-mapping", { providerId: "groups-race", groupId, role: "admin" });
    const answers = await Promise.all(
      ids.map((id) =>
        scim(token, "PATCH", `/Groups/${groupId}`, patchOp({ op: "add", path: "members", value: [{ value: id }] })),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const group = await scim(token, "GET", `/Groups/${groupId}`);
    expect(group.body.members.map((m: any) => m.value).sort()).toEqual([...ids].sort());
    for (const id of ids) expect(await memberRole(organizationId, id)).toBe("admin");
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { dialectUnderTest } from "./helpers/database.js";
import { createOrganization, joinAs } from "./helpers/organization.js";
import { type ScimResponse, scimCall, scimConnectedOrganization } from "./helpers/scim.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/**
 * The SCIM 2.0 server (issue 33), driven as Okta and Entra ID drive it: look a user up by
 * userName, create them, deactivate them with PATCH, replace them with PUT. One server per file.
 */
const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const ERROR = "urn:ietf:params:scim:api:messages:2.0:Error";

let server: TestServer;
let off: TestServer;

beforeAll(async () => {
  [server, off] = await Promise.all([
    startTestServer({
      // A cookie cache on: deprovisioning must end cached copies of a session too.
      options: { scim: { enabled: true }, session: { cookieCache: { enabled: true, maxAge: 300 } } },
    }),
    startTestServer(),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.close(), off?.close()]);
});
afterEach(() => expect(server.loggedErrors).toEqual([]));

const db = () => server.auth.database.db;

/** A call to /scim/v2 as an identity provider makes it: bearer token, SCIM media type. */
const scim = (
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ScimResponse> => scimCall(server.origin, token, method, path, body, headers);

/** An organization with an owner and a SCIM token for it. */
const connectedOrganization = (providerId: string, options: { linkExistingMembers?: boolean } = {}) =>
  scimConnectedOrganization(server, providerId, options);

const newUser = (userName: string, extra: Record<string, unknown> = {}) => ({
  schemas: [USER],
  userName,
  name: { givenName: "Ada", familyName: "Lovelace" },
  emails: [{ primary: true, value: userName, type: "work" }],
  active: true,
  ...extra,
});

const isMember = async (organizationId: string, userId: string) =>
  (
    await db()
      .selectFrom("member")
      .select("id")
      .where("organizationId", "=", organizationId)
      .where("userId", "=", userId)
      .execute()
  ).length === 1;

function expectScimError(res: ScimResponse, status: number, scimType?: string) {
  expect(res.status).toBe(status);
  expect(res.contentType).toContain("application/scim+json");
  expect(res.body.schemas).toEqual([ERROR]);
  expect(res.body.status).toBe(String(status));
  if (scimType) expect(res.body.scimType).toBe(scimType);
  expect(typeof res.body.detail).toBe("string");
}

describe("linkExistingMembers after creation", () => {
  it("an owner turns it on and off without a new token; others and bad input are refused", async () => {
    const org = await connectedOrganization("link-later");
    const update = (body: object, browser = org.owner.browser) =>
      browser.post("/scim/update-provider-connection", body);
    expectScimError(await scim(org.token, "POST", "/Users", newUser(org.owner.email)), 409, "uniqueness");

    const on = await update({ providerId: "link-later", linkExistingMembers: true });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ providerId: "link-later", linkExistingMembers: true });
    expect((await org.owner.browser.get("/scim/get-provider-connection?providerId=link-later")).body).toMatchObject({
      linkExistingMembers: true,
    });
    // The same token now takes over the existing member.
    const linked = await scim(org.token, "POST", "/Users", newUser(org.owner.email));
    expect(linked.status).toBe(201);
    expect(linked.body.id).toBe(org.owner.user.id);

    const off = await update({ providerId: "link-later", linkExistingMembers: false });
    expect(off.body.linkExistingMembers).toBe(false);
    const member = await joinAs(server, org.organizationId, "member");
    expectScimError(await scim(org.token, "POST", "/Users", newUser(member.email)), 409, "uniqueness");

    const admin = await joinAs(server, org.organizationId, "admin");
    const byAdmin = await update({ providerId: "link-later", linkExistingMembers: true }, admin.browser);
    expect([byAdmin.status, byAdmin.body.code]).toEqual([403, "YOU_ARE_NOT_ALLOWED_TO_MANAGE_SCIM"]);
    const stranger = await createOrganization(server);
    const byStranger = await update({ providerId: "link-later", linkExistingMembers: true }, stranger.owner.browser);
    expect([byStranger.status, byStranger.body.code]).toEqual([404, "SCIM_PROVIDER_NOT_FOUND"]);
    const missing = await update({ providerId: "no-such-connection", linkExistingMembers: true });
    expect([missing.status, missing.body.code]).toEqual([404, "SCIM_PROVIDER_NOT_FOUND"]);
    for (const body of [
      { providerId: "link-later" },
      { providerId: "link-later", linkExistingMembers: "yes" },
      { linkExistingMembers: true },
    ]) {
      const bad = await update(body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    expect((await org.owner.browser.get("/scim/get-provider-connection?providerId=link-later")).body).toMatchObject({
      linkExistingMembers: false,
    });
  });
});

describe("the SCIM token", () => {
  it("is off by default: neither the management routes nor the protocol are served", async () => {
    const { owner } = await createOrganization(off);
    expect((await owner.browser.post("/scim/generate-token", { providerId: "okta" })).status).toBe(404);
    const res = await fetch(`${off.origin}/api/auth/scim/v2/Users`, { headers: { authorization: "Bearer x" } });
    expect(res.status).toBe(404);
  });

  it("is generated by an owner only, shown once, stored as a digest, and acts only while it is current", async () => {
    const org = await createOrganization(server);
    const admin = await joinAs(server, org.organizationId, "admin");
    const refused = await admin.browser.post("/scim/generate-token", {
      providerId: "p-admin",
      organizationId: org.organizationId,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_MANAGE_SCIM");
    const stranger = await signUp(server);
    expect(
      (await stranger.browser.post("/scim/generate-token", { providerId: "p-x", organizationId: org.organizationId }))
        .status,
    ).toBe(403);
    expect((await org.owner.browser.post("/scim/generate-token", { providerId: "a:b" })).body.code).toBe(
      "SCIM_PROVIDER_ID_INVALID",
    );

    // Without organizationId the active organization is meant.
    const first = await org.owner.browser.post("/scim/generate-token", { providerId: "okta-token" });
    expect(first.status).toBe(201);
    const token: string = first.body.scimToken;
    const row = await db()
      .selectFrom("scimProvider")
      .selectAll()
      .where("providerId", "=", "okta-token")
      .executeTakeFirstOrThrow();
    expect(row.organizationId).toBe(org.organizationId);
    expect(JSON.stringify(row)).not.toContain(token);
    expect((await scim(token, "GET", "/Users")).status).toBe(200);

    const listed = await org.owner.browser.get("/scim/list-provider-connections");
    expect(listed.body.providers.map((p: any) => p.providerId)).toContain("okta-token");
    expect(JSON.stringify(listed.body)).not.toContain(token);
    expect((await admin.browser.get("/scim/get-provider-connection?providerId=okta-token")).status).toBe(403);
    expect((await stranger.browser.get("/scim/get-provider-connection?providerId=okta-token")).body.code).toBe(
      "SCIM_PROVIDER_NOT_FOUND",
    );

    // Rotation: the old token stops at once.
    const second = await org.owner.browser.post("/scim/generate-token", { providerId: "okta-token" });
    expect(second.status).toBe(201);
    expectScimError(await scim(token, "GET", "/Users"), 401);
    expect((await scim(second.body.scimToken, "GET", "/Users")).status).toBe(200);

    // Another organization cannot take the provider id.
    const other = await createOrganization(server);
    expect((await other.owner.browser.post("/scim/generate-token", { providerId: "okta-token" })).body.code).toBe(
      "SCIM_PROVIDER_ID_TAKEN",
    );

    // Revocation.
    const deleted = await org.owner.browser.post("/scim/delete-provider-connection", { providerId: "okta-token" });
    expect(deleted.body).toEqual({ success: true });
    expectScimError(await scim(second.body.scimToken, "GET", "/Users"), 401);
    expectScimError(await scim(null, "GET", "/Users"), 401);
    expectScimError(await scim("not-a-token", "GET", "/ServiceProviderConfig"), 401);
  });
});

describe("Okta's sequence", () => {
  it("looks up, creates, deactivates, reactivates, replaces and deletes a user", async () => {
    const { organizationId, token } = await connectedOrganization("okta");
    const userName = "ada.okta@example.com";

    const lookup = await scim(
      token,
      "GET",
      `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}&startIndex=1&count=100`,
    );
    expect(lookup.status).toBe(200);
    expect(lookup.contentType).toContain("application/scim+json");
    expect(lookup.body).toMatchObject({ totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] });

    const created = await scim(token, "POST", "/Users", newUser(userName, { externalId: "00u1" }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      schemas: [USER],
      userName,
      externalId: "00u1",
      active: true,
      displayName: "Ada Lovelace",
    });
    const id: string = created.body.id;
    const user = await db().selectFrom("user").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(user.email).toBe(userName);
    // Outside the organization's verified domains (it has none): the directory does not vouch for it.
    expect(Boolean(user.emailVerified)).toBe(false);
    expect(await isMember(organizationId, id)).toBe(true);

    const again = await scim(token, "POST", "/Users", newUser(userName));
    expectScimError(again, 409, "uniqueness");

    const found = await scim(token, "GET", `/Users?filter=${encodeURIComponent(`userName eq "ADA.OKTA@example.com"`)}`);
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].id).toBe(id);

    const deactivated = await scim(token, "PATCH", `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "replace", value: { active: false } }],
    });
    expect(deactivated.status).toBe(200);
    expect(deactivated.body.active).toBe(false);
    expect(await isMember(organizationId, id)).toBe(false);
    expect((await scim(token, "GET", `/Users/${id}`)).body.active).toBe(false);

    const reactivated = await scim(token, "PATCH", `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "replace", value: { active: true } }],
    });
    expect(reactivated.body.active).toBe(true);
    expect(await isMember(organizationId, id)).toBe(true);

    const replaced = await scim(
      token,
      "PUT",
      `/Users/${id}`,
      newUser(userName, { externalId: "00u1", displayName: "Ada King" }),
    );
    expect(replaced.status).toBe(200);
    expect(replaced.body.displayName).toBe("Ada King");
    expect((await db().selectFrom("user").select("name").where("id", "=", id).executeTakeFirstOrThrow()).name).toBe(
      "Ada King",
    );

    const removed = await fetch(`${server.origin}/api/auth/scim/v2/Users/${id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(removed.status).toBe(204);
    expect(await isMember(organizationId, id)).toBe(false);
    expectScimError(await scim(token, "GET", `/Users/${id}`), 404);
  });
});

describe("a PATCH of part of the name", () => {
  it("replaces the given or family name, by path or by a partial name object, and keeps the other", async () => {
    const { token } = await connectedOrganization("name-parts");
    const id: string = (await scim(token, "POST", "/Users", newUser("ada.parts@example.com"))).body.id;
    const patch = async (Operations: unknown) => {
      const res = await scim(token, "PATCH", `/Users/${id}`, { schemas: [PATCH_OP], Operations });
      expect(res.status).toBe(200);
      return (await scim(token, "GET", `/Users/${id}`)).body.displayName;
    };
    expect(await patch([{ op: "replace", path: "name.givenName", value: "Augusta" }])).toBe("Augusta Lovelace");
    expect(await patch([{ op: "replace", value: { name: { givenName: "Ada" } } }])).toBe("Ada Lovelace");
    expect(await patch([{ op: "replace", path: "name.familyName", value: "King" }])).toBe("Ada King");
    expect(await patch([{ op: "add", path: "name", value: { familyName: "Byron" } }])).toBe("Ada Byron");
    expect(await patch([{ op: "replace", path: "name", value: { givenName: "Augusta", familyName: "King" } }])).toBe(
      "Augusta King",
    );
  });
});

describe("Entra ID's sequence", () => {
  it("creates with externalId, deactivates with a capitalised Replace and string booleans, patches by filtered path", async () => {
    const { organizationId, token } = await connectedOrganization("entra");
    const userName = "grace.entra@example.com";
    const lookup = await scim(token, "GET", `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`);
    expect(lookup.body.totalResults).toBe(0);

    const created = await scim(token, "POST", "/Users", {
      schemas: [USER, "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],
      externalId: "a1b2c3",
      userName,
      active: true,
      displayName: "Grace Hopper",
      emails: [{ primary: true, type: "work", value: userName }],
      name: { formatted: "Grace Hopper", familyName: "Hopper", givenName: "Grace" },
      title: "Rear Admiral",
      "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": { department: "Navy" },
    });
    expect(created.status).toBe(201);
    const id: string = created.body.id;

    const byExternalId = await scim(token, "GET", `/Users?filter=${encodeURIComponent('externalId eq "a1b2c3"')}`);
    expect(byExternalId.body.Resources.map((r: any) => r.id)).toEqual([id]);

    const patched = await scim(token, "PATCH", `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: "Replace", path: 'emails[type eq "work"].value', value: "grace.hopper@example.com" },
        { op: "Replace", path: "displayName", value: "Amazing Grace" },
        { op: "Replace", path: "name.givenName", value: "Amazing" },
        { op: "Add", path: "title", value: "Commodore" },
      ],
    });
    expect(patched.status).toBe(200);
    expect(patched.body.emails[0].value).toBe("grace.hopper@example.com");
    expect(patched.body.displayName).toBe("Amazing Grace");

    const deactivated = await scim(token, "PATCH", `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "Replace", path: "active", value: "False" }],
    });
    expect(deactivated.status).toBe(200);
    expect(deactivated.body.active).toBe(false);
    expect(await isMember(organizationId, id)).toBe(false);
  });
});

describe("a linked member's own account", () => {
  it("keeps its email: the directory may rename it but not move its address (a reset would follow)", async () => {
    const { organizationId, token } = await connectedOrganization("linked-email", { linkExistingMembers: true });
    const member = await joinAs(server, organizationId, "member", "Own Account");
    expect((await scim(token, "POST", "/Users", newUser(member.email))).status).toBe(201);
    const moved = await scim(token, "PATCH", `/Users/${member.user.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "replace", path: 'emails[type eq "work"].value', value: "directory@evil.example" }],
    });
    expectScimError(moved, 400, "mutability");
    const replaced = await scim(token, "PUT", `/Users/${member.user.id}`, newUser("directory@evil.example"));
    expectScimError(replaced, 400, "mutability");
    const user = await db().selectFrom("user").select(["email"]).where("id", "=", member.user.id).executeTakeFirst();
    expect(user?.email).toBe(member.email);
    // A user the directory created is the directory's to re-address.
    const created = await scim(token, "POST", "/Users", newUser("made.here@example.com"));
    const readdressed = await scim(token, "PATCH", `/Users/${created.body.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "replace", path: 'emails[type eq "work"].value', value: "moved.here@example.com" }],
    });
    expect(readdressed.status).toBe(200);
    expect(readdressed.body.emails[0].value).toBe("moved.here@example.com");
  });
});

describe("deprovisioning", () => {
  it("ends the user's sessions at once, cached copies too", async () => {
    const { organizationId, token } = await connectedOrganization("sessions", { linkExistingMembers: true });
    const member = await joinAs(server, organizationId, "member", "Linked");
    // A cached copy of the session first, as a busy app would hold.
    expect((await member.browser.get("/get-session")).body?.user?.id).toBe(member.user.id);

    const linked = await scim(token, "POST", "/Users", newUser(member.email));
    expect(linked.status).toBe(201);
    expect(linked.body.id).toBe(member.user.id);

    const deactivated = await scim(token, "PATCH", `/Users/${member.user.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "replace", path: "active", value: false }],
    });
    expect(deactivated.status).toBe(200);
    expect((await member.browser.get("/get-session")).body).toBeNull();
    expect(await db().selectFrom("session").select("id").where("userId", "=", member.user.id).execute()).toEqual([]);
  });
});

describe.skipIf(dialectUnderTest() !== "postgres")("deprovisioning on another instance", () => {
  let second: TestServer;
  beforeAll(async () => {
    second = await startTestServer({
      shareDatabaseWith: server,
      options: { scim: { enabled: true }, session: { cookieCache: { enabled: true, maxAge: 300 } } },
    });
  });
  afterAll(async () => {
    await second?.close();
  });

  it("ends a session whose cached copy another instance holds", async () => {
    const { organizationId, token } = await connectedOrganization("other-instance", { linkExistingMembers: true });
    const member = await joinAs(server, organizationId, "member", "Elsewhere");
    const elsewhere = second.browser();
    const signedIn = await elsewhere.post("/sign-in/email", { email: member.email, password: "correct horse battery" });
    expect(signedIn.status).toBe(200);
    expect((await elsewhere.get("/get-session")).body?.user?.id).toBe(member.user.id);
    expect((await scim(token, "POST", "/Users", newUser(member.email))).status).toBe(201);

    const deactivated = await scim(token, "PATCH", `/Users/${member.user.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: "replace", value: { active: false } }],
    });
    expect(deactivated.status).toBe(200);
    await expect.poll(async () => (await elsewhere.get("/get-session")).body, { timeout: 5000 }).toBeNull();
  });
});

describe("races", () => {
  it("two creates of one person at once: one 201, the others 409, never a 500", async () => {
    const { token } = await connectedOrganization("race");
    const answers = await Promise.all([1, 2, 3].map(() => scim(token, "POST", "/Users", newUser("twice@example.com"))));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
  });
});

describe("tenancy", () => {
  it("never shows or touches another organization's users, nor members it did not provision", async () => {
    const a = await connectedOrganization("tenant-a");
    const b = await connectedOrganization("tenant-b");
    const inA = await scim(a.token, "POST", "/Users", newUser("only.a@example.com"));
    const id: string = inA.body.id;

    expectScimError(await scim(b.token, "GET", `/Users/${id}`), 404);
    expectScimError(
      await scim(b.token, "PATCH", `/Users/${id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: "replace", path: "active", value: false }],
      }),
      404,
    );
    expectScimError(await scim(b.token, "PUT", `/Users/${id}`, newUser("only.a@example.com")), 404);
    expectScimError(await scim(b.token, "DELETE", `/Users/${id}`), 404);
    expect((await scim(b.token, "GET", "/Users")).body.totalResults).toBe(0);
    expect(await isMember(a.organizationId, id)).toBe(true);

    // The owner was never provisioned: the token cannot see or deactivate them.
    expectScimError(await scim(a.token, "GET", `/Users/${a.owner.user.id}`), 404);
    expectScimError(
      await scim(a.token, "PATCH", `/Users/${a.owner.user.id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: "replace", path: "active", value: false }],
      }),
      404,
    );
    // Nor take over an existing account, without the owner's linkExistingMembers.
    expectScimError(await scim(a.token, "POST", "/Users", newUser(a.owner.email)), 409, "uniqueness");
    expectScimError(await scim(b.token, "POST", "/Users", newUser("only.a@example.com")), 409, "uniqueness");
    expect(await isMember(b.organizationId, id)).toBe(false);
  });
});

describe("lists", () => {
  it("pages with startIndex and count, lowering an oversize count to the page limit", async () => {
    const { token } = await connectedOrganization("pages");
    const ids: string[] = [];
    for (const n of [1, 2, 3]) ids.push((await scim(token, "POST", "/Users", newUser(`page${n}@example.com`))).body.id);
    const second = await scim(token, "GET", "/Users?startIndex=2&count=1");
    expect(second.body).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 1 });
    expect(second.body.Resources[0].id).toBe(ids[1]);
    const huge = await scim(token, "GET", "/Users?count=1000000");
    expect(huge.status).toBe(200);
    expect(huge.body.itemsPerPage).toBe(3);
    const none = await scim(token, "GET", "/Users?count=0");
    expect(none.body).toMatchObject({ totalResults: 3, itemsPerPage: 0, Resources: [] });
  });
});

describe("discovery", () => {
  it("answers ServiceProviderConfig, ResourceTypes and Schemas", async () => {
    const { token } = await connectedOrganization("discovery");
    const config = await scim(token, "GET", "/ServiceProviderConfig");
    expect(config.body).toMatchObject({
      patch: { supported: true },
      filter: { supported: true, maxResults: 100 },
      bulk: { supported: false },
    });
    const types = await scim(token, "GET", "/ResourceTypes");
    expect(types.body.Resources.map((r: any) => r.endpoint)).toEqual(["/Users", "/Groups"]);
    expect((await scim(token, "GET", "/ResourceTypes/User")).body.schema).toBe(USER);
    const schemas = await scim(token, "GET", "/Schemas");
    expect(schemas.body.Resources[0].id).toBe(USER);
    expect((await scim(token, "GET", `/Schemas/${USER}`)).body.attributes.map((a: any) => a.name)).toContain(
      "userName",
    );
    expectScimError(await scim(token, "GET", "/Schemas/urn:nope"), 404);
  });
});

describe("bad requests answer SCIM errors and change nothing", () => {
  let token: string;
  let id: string;
  beforeAll(async () => {
    ({ token } = await connectedOrganization("bad-input"));
    id = (await scim(token, "POST", "/Users", newUser("steady@example.com"))).body.id;
  });
  const patch = (Operations: unknown) => scim(token, "PATCH", `/Users/${id}`, { schemas: [PATCH_OP], Operations });

  it.each([
    'userName co "x"',
    'nickName eq "x"',
    "userName eq x",
    'userName eq "a" and externalId eq "b"',
    'userName eq "\\q"',
  ])("filter %s", async (filter) => {
    expectScimError(await scim(token, "GET", `/Users?filter=${encodeURIComponent(filter)}`), 400, "invalidFilter");
  });

  it.each([["abc"], ["1e3"], ["99999999999999999999"]])("count=%s", async (count) => {
    expectScimError(await scim(token, "GET", `/Users?count=${count}`), 400, "invalidValue");
  });

  it.each([
    [[{ op: "replace", path: "favouriteColour", value: "red" }], "invalidPath"],
    [[{ op: "replace", path: "name.nickname", value: "x" }], "invalidPath"],
    [[{ op: "replace", path: "name.givenName", value: 7 }], "invalidValue"],
    [[{ op: "replace", path: "emails[type eq", value: "x" }], "invalidPath"],
    [[{ op: "replace", value: { shoeSize: 9 } }], "invalidPath"],
    [[{ op: "remove" }], "noTarget"],
    [[{ op: "remove", path: "userName" }], "mutability"],
    [[{ op: "move", path: "active", value: false }], "invalidSyntax"],
    [[{ op: "replace", path: "active", value: "maybe" }], "invalidValue"],
    [[{ op: "replace", path: 'emails[type eq "work"].value', value: "not-an-email" }], "invalidValue"],
    [[], "invalidSyntax"],
    ["nope", "invalidSyntax"],
  ])("PATCH %j", async (operations, scimType) => {
    expectScimError(await patch(operations), 400, scimType);
    const user = await scim(token, "GET", `/Users/${id}`);
    expect(user.body).toMatchObject({ userName: "steady@example.com", active: true });
  });

  it("a PATCH without the PatchOp schema", async () => {
    expectScimError(
      await scim(token, "PATCH", `/Users/${id}`, { Operations: [{ op: "replace", path: "active", value: false }] }),
      400,
      "invalidSyntax",
    );
  });

  it.each([
    [{ ...newUser("new1@example.com"), shoeSize: 9 }, "invalidSyntax"],
    [{ ...newUser("new2@example.com"), schemas: [] }, "invalidSyntax"],
    [{ schemas: [USER] }, "invalidValue"],
    [{ schemas: [USER], userName: "not-an-email" }, "invalidValue"],
    [{ ...newUser("new3@example.com"), name: { nickname: "x" } }, "invalidSyntax"],
    [[1, 2], "invalidSyntax"],
  ])("POST %j", async (body, scimType) => {
    expectScimError(await scim(token, "POST", "/Users", body), 400, scimType);
    expect((await scim(token, "GET", "/Users")).body.totalResults).toBe(1);
  });

  it("malformed JSON, a wrong media type, and a bad PUT", async () => {
    expectScimError(await scim(token, "POST", "/Users", "{not json"), 400, "invalidSyntax");
    expectScimError(await scim(token, "PATCH", `/Users/${id}`, '{"schemas": ['), 400, "invalidSyntax");
    expectScimError(
      await scim(token, "POST", "/Users", "userName=x", { "content-type": "application/x-www-form-urlencoded" }),
      415,
    );
    expectScimError(await scim(token, "PUT", `/Users/${id}`, { schemas: [USER], userName: 5 }), 400, "invalidValue");
    expect(
      (await scim(token, "POST", "/Users", newUser("json@example.com"), { "content-type": "application/json" })).status,
    ).toBe(201);
  });
});

describe("the SCIM routes are routes of the endpoint table (issue 51.1)", () => {
  it("are rate-limited, answering SCIM's 429 with Retry-After, and listed in the OpenAPI document", async () => {
    const limited = await startTestServer({
      options: {
        scim: { enabled: true },
        rateLimit: { enabled: true, customRules: { "/scim/v2/*": { window: 60, max: 2 } } },
      },
    });
    try {
      const org = await createOrganization(limited);
      const res = await org.owner.browser.post("/scim/generate-token", {
        providerId: "limited",
        organizationId: org.organizationId,
      });
      const call = () =>
        fetch(`${limited.origin}/api/auth/scim/v2/Users`, {
          headers: { authorization: `Bearer ${res.body.scimToken}` },
        });
      expect((await call()).status).toBe(200);
      expect((await call()).status).toBe(200);
      const refused = await call();
      expect(refused.status).toBe(429);
      expect(refused.headers.get("content-type")).toContain("application/scim+json");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await refused.json()).toMatchObject({ schemas: [ERROR], status: "429" });

      const document = (await limited.browser().get("/openapi.json")).body;
      expect(Object.keys(document.paths["/scim/v2/Users/{id}"]).sort()).toEqual(["delete", "get", "patch", "put"]);
      expect(document.paths["/scim/v2/Users"].post.security).toEqual([{ scimBearer: [] }]);
    } finally {
      await limited.close();
    }
  });
});

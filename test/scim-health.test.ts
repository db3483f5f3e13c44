import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SCIM_RECENT_ERRORS } from "../src/contract/scim.js";
import { scimCall, scimConnectedOrganization } from "./helpers/scim.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

/**
 * Issue 54, directory sync health: real SCIM calls as a directory makes them, good and refused, then
 * what the owner (and a setup link's holder) reads: the last call, what the connection provisioned,
 * its latest refusals with the SCIM messages the directory got, at most SCIM_RECENT_ERRORS kept.
 */
const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ options: { scim: { enabled: true } } });
});
afterAll(async () => {
  await server?.close();
});
afterEach(() => expect(server.loggedErrors).toEqual([]));

const db = () => server.auth.database.db;

const scim = (token: string, method: string, path: string, body?: unknown) =>
  scimCall(server.origin, token, method, path, body);

const newUser = (userName: string) => ({
  schemas: [USER],
  userName,
  name: { givenName: "Ada", familyName: "Lovelace" },
  emails: [{ primary: true, value: userName, type: "work" }],
  active: true,
});

const connected = (providerId: string) => scimConnectedOrganization(server, providerId);

const keptErrors = async (providerId: string) =>
  (await db().selectFrom("scimError").select("id").where("providerId", "=", providerId).execute()).length;

describe("a directory connection's sync health", () => {
  it("counts what the directory provisioned; a successful call writes no refusal", async () => {
    const org = await connected("health-ok");
    const health = () => org.owner.browser.get("/scim/connection-health?providerId=health-ok");
    const before = await health();
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    expect(before.body).toEqual({ providerId: "health-ok", lastUsedAt: null, users: 0, groups: 0, recentErrors: [] });

    expect((await scim(org.token, "POST", "/Users", newUser("ann@health-ok.test"))).status).toBe(201);
    expect((await scim(org.token, "POST", "/Users", newUser("bob@health-ok.test"))).status).toBe(201);
    const group = await scim(org.token, "POST", "/Groups", { schemas: [GROUP], displayName: "Staff", members: [] });
    expect(group.status).toBe(201);
    expect((await scim(org.token, "GET", "/Users?count=10")).status).toBe(200);

    const after = await health();
    expect(after.body).toMatchObject({ users: 2, groups: 1, recentErrors: [] });
    expect(new Date(after.body.lastUsedAt).getTime()).toBeGreaterThan(0);
    expect(await keptErrors("health-ok")).toBe(0);
  });

  it("shows refused calls newest first with the SCIM message the directory got", async () => {
    const org = await connected("health-bad");
    expect((await scim(org.token, "POST", "/Users", newUser("cy@health-bad.test"))).status).toBe(201);
    const duplicate = await scim(org.token, "POST", "/Users", newUser("cy@health-bad.test"));
    expect(duplicate.status).toBe(409);
    const broken = await scim(org.token, "POST", "/Users", "{not json");
    expect(broken.status).toBe(400);
    const missing = await scim(org.token, "GET", "/Users/no-such-user?attributes=userName");
    expect(missing.status).toBe(404);

    const health = await org.owner.browser.get("/scim/connection-health?providerId=health-bad");
    expect(health.status).toBe(200);
    expect(health.body.users).toBe(1);
    expect(health.body.recentErrors.map((e: any) => [e.method, e.path, e.status, e.scimType, e.detail])).toEqual([
      ["GET", "/Users/no-such-user", 404, null, missing.body.detail],
      ["POST", "/Users", 400, "invalidSyntax", broken.body.detail],
      ["POST", "/Users", 409, "uniqueness", duplicate.body.detail],
    ]);
    // A call with a token nobody holds is nobody's health.
    expect((await scim("not-a-token", "GET", "/Users")).status).toBe(401);
    expect(await keptErrors("health-bad")).toBe(3);
  });

  it(`keeps only the latest ${SCIM_RECENT_ERRORS} refusals per connection, and forgets them with the connection`, async () => {
    const org = await connected("health-many");
    const other = await connected("health-other");
    expect((await scim(other.token, "GET", "/Users/missing")).status).toBe(404);
    for (let i = 0; i < SCIM_RECENT_ERRORS + 5; i++) {
      expect((await scim(org.token, "GET", `/Users/missing-${i}`)).status).toBe(404);
    }
    expect(await keptErrors("health-many")).toBe(SCIM_RECENT_ERRORS);
    const health = await org.owner.browser.get("/scim/connection-health?providerId=health-many");
    expect(health.body.recentErrors).toHaveLength(SCIM_RECENT_ERRORS);
    expect(health.body.recentErrors[0].path).toBe(`/Users/missing-${SCIM_RECENT_ERRORS + 4}`);
    expect(health.body.recentErrors.at(-1).path).toBe("/Users/missing-5");
    // Another connection's refusals are its own.
    expect(await keptErrors("health-other")).toBe(1);

    // Another organization's owner learns nothing about it.
    const stranger = await other.owner.browser.get("/scim/connection-health?providerId=health-many");
    expect(stranger.status).toBe(404);
    expect(stranger.body.code).toBe("SCIM_PROVIDER_NOT_FOUND");

    expect(
      (await org.owner.browser.post("/scim/delete-provider-connection", { providerId: "health-many" })).status,
    ).toBe(200);
    expect(await keptErrors("health-many")).toBe(0);
  });

  it("a setup link with the directory step reads its own organization's connections only", async () => {
    const org = await connected("health-link");
    const other = await connected("health-link-other");
    expect((await scim(org.token, "DELETE", "/Groups/nope")).status).toBe(404);
    const created = await org.owner.browser.post("/organization/create-setup-link", { scopes: ["directory"] });
    expect(created.status).toBe(200);
    const admin = server.browser();
    expect((await admin.post("/setup/open", { token: created.body.token })).status).toBe(200);

    const health = await admin.get("/setup/scim/connection-health?providerId=health-link");
    expect(health.status, JSON.stringify(health.body)).toBe(200);
    expect(health.body.recentErrors).toMatchObject([{ method: "DELETE", path: "/Groups/nope", status: 404 }]);
    const elsewhere = await admin.get("/setup/scim/connection-health?providerId=health-link-other");
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.code).toBe("SCIM_PROVIDER_NOT_FOUND");
    expect(other.organizationId).not.toBe(org.organizationId);
  });
});

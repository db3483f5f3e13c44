import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createOrganization, joinAs } from "./helpers/organization.js";
import { scimCall, scimConnectedOrganization } from "./helpers/scim.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

/**
 * What the Directory screen reads (issue 33): when a connection's token last made a directory call,
 * and the people it provisioned. One server per file.
 */
const USER = "urn:ietf:params:scim:schemas:core:2.0:User";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ options: { scim: { enabled: true } } });
});
afterAll(async () => {
  await server?.close();
});
afterEach(() => expect(server.loggedErrors).toEqual([]));

const db = () => server.auth.database.db;

const directory = (token: string, method: string, path: string, body?: unknown) =>
  scimCall(server.origin, token, method, path, body);

const connected = (providerId: string) => scimConnectedOrganization(server, providerId);

const lastUsedAt = async (providerId: string) =>
  (
    await db()
      .selectFrom("scimProvider")
      .select("lastUsedAt")
      .where("providerId", "=", providerId)
      .executeTakeFirstOrThrow()
  ).lastUsedAt;

describe("app-config", () => {
  it("tells the application that SCIM is on, so owners get the Directory screen", async () => {
    const res = await fetch(`${server.origin}/api/auth/app-config`);
    expect((await res.json()).scim).toBe(true);
  });
});

describe("the last sync", () => {
  it("is null until the token is used, then recorded at most once a minute", async () => {
    const { owner, token } = await connected("sync-okta");
    const before = await owner.browser.get("/scim/get-provider-connection?providerId=sync-okta");
    expect(before.status).toBe(200);
    expect(before.body.lastUsedAt).toBeNull();

    expect((await directory(token, "GET", "/Users")).status).toBe(200);
    const first = await owner.browser.get("/scim/get-provider-connection?providerId=sync-okta");
    expect(first.body.lastUsedAt).not.toBeNull();
    const recorded = new Date(first.body.lastUsedAt).getTime();
    expect(Math.abs(Date.now() - recorded)).toBeLessThan(60_000);

    // A second call within the minute writes nothing.
    const stored = await lastUsedAt("sync-okta");
    expect((await directory(token, "GET", "/Users")).status).toBe(200);
    expect(String(await lastUsedAt("sync-okta"))).toBe(String(stored));

    // Older than a minute: the next call records it again.
    const old = new Date(Date.now() - 5 * 60_000);
    await db().updateTable("scimProvider").set({ lastUsedAt: old }).where("providerId", "=", "sync-okta").execute();
    expect((await directory(token, "GET", "/Users")).status).toBe(200);
    const list = await owner.browser.get("/scim/list-provider-connections");
    const listed = list.body.providers.find((p: { providerId: string }) => p.providerId === "sync-okta");
    expect(new Date(listed.lastUsedAt).getTime()).toBeGreaterThan(old.getTime() + 60_000);
  });

  it("is not recorded for a wrong token, and starts again with a rotated one", async () => {
    const { owner, organizationId, token } = await connected("sync-rotate");
    expect((await directory(`${token}x`, "GET", "/Users")).status).toBe(401);
    expect(await lastUsedAt("sync-rotate")).toBeNull();
    expect((await directory(token, "GET", "/Users")).status).toBe(200);
    expect(await lastUsedAt("sync-rotate")).not.toBeNull();
    const rotated = await owner.browser.post("/scim/generate-token", { providerId: "sync-rotate", organizationId });
    expect(rotated.status).toBe(201);
    expect(await lastUsedAt("sync-rotate")).toBeNull();
  });
});

describe("the provisioned people", () => {
  it("are listed for owners with whether they are members now; others are refused", async () => {
    const { owner, organizationId, token } = await connected("people-okta");
    const created = await directory(token, "POST", "/Users", {
      schemas: [USER],
      userName: "grace@people.example",
      name: { givenName: "Grace", familyName: "Hopper" },
      emails: [{ primary: true, value: "grace@people.example" }],
      active: true,
    });
    expect(created.status).toBe(201);
    const second = await directory(token, "POST", "/Users", {
      schemas: [USER],
      userName: "alan@people.example",
      displayName: "Alan Turing",
      active: true,
    });
    expect(second.status).toBe(201);
    const off = await directory(token, "PATCH", `/Users/${second.body.id}`, {
      schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
      Operations: [{ op: "replace", value: { active: false } }],
    });
    expect(off.status).toBe(200);

    const res = await owner.browser.get("/scim/list-users?providerId=people-okta");
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    expect(res.body.users.map((u: any) => [u.email, u.name, u.active, u.createdUser])).toEqual([
      ["grace@people.example", "Grace Hopper", true, true],
      ["alan@people.example", "Alan Turing", false, true],
    ]);
    const paged = await owner.browser.get("/scim/list-users?providerId=people-okta&limit=1&offset=1");
    expect(paged.body).toMatchObject({ total: 2, users: [{ email: "alan@people.example" }] });

    const admin = await joinAs(server, organizationId, "admin");
    const refused = await admin.browser.get("/scim/list-users?providerId=people-okta");
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_MANAGE_SCIM");
    const stranger = await createOrganization(server);
    const hidden = await stranger.owner.browser.get("/scim/list-users?providerId=people-okta");
    expect(hidden.status).toBe(404);
    expect(hidden.body.code).toBe("SCIM_PROVIDER_NOT_FOUND");
  });

  it("answers bad queries with 400, never 500", async () => {
    const { owner } = await connected("people-bad");
    for (const query of ["", "?providerId=", "?providerId=people-bad&limit=-1", "?providerId=people-bad&limit=501"]) {
      const res = await owner.browser.get(`/scim/list-users${query}`);
      expect(res.status, query).toBe(400);
      expect(typeof res.body.code).toBe("string");
    }
  });
});

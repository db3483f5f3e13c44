import { apiKeyClient } from "@better-auth/api-key/client";
import { createAuthClient } from "better-auth/client";
import { organizationClient } from "better-auth/client/plugins";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sha256Base64Url } from "../src/server/crypto/digest.js";
import { randomString } from "../src/server/crypto/random.js";
import { RedisRateLimitStore } from "../src/server/store/redis-rate-limit-store.js";
import { PARALLEL_REQUESTS } from "./helpers/burst.js";
import { cookieFetch } from "./helpers/cookie-fetch.js";
import { dialectUnderTest } from "./helpers/database.js";
import { uniqueEmail } from "./helpers/mail-flows.js";
import { createOrganization, joinAs, verifyEmail } from "./helpers/organization.js";
import { redisUnavailable, TEST_REDIS_URL } from "./helpers/redis.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/**
 * Issue 53: API keys on better-auth's apiKey wire, driven by better-auth's own client in Node
 * (better-auth's organizationClient and @better-auth/api-key's apiKeyClient), on the real server
 * and database.
 */

let server: TestServer;

const ROLES = {
  // May make keys and read them, and holds member.update to hand on.
  developer: { apiKey: ["create", "read"], member: ["update"] },
};

beforeAll(async () => {
  server = await startTestServer({
    options: {
      organization: { enabled: true, roles: ROLES, teams: { enabled: true } },
      apiKey: { enabled: true, enableMetadata: true },
      audit: { enabled: true },
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

function betterAuthClient(target: TestServer = server) {
  const jar = cookieFetch();
  const client = createAuthClient({
    baseURL: target.origin,
    plugins: [organizationClient(), apiKeyClient()],
    fetchOptions: { customFetchImpl: jar, headers: { origin: target.origin } },
  });
  return client as typeof client & { apiKey: any };
}

/** A signed-in better-auth client whose user owns a new organization. */
async function ownerWithOrganization(target: TestServer = server) {
  const client = betterAuthClient(target);
  const email = uniqueEmail("keys");
  const signedUp = await client.signUp.email({ name: "Owner", email, password: "sturdy-pass-123" });
  expect(signedUp.error).toBeNull();
  const userId = signedUp.data?.user.id as string;
  await verifyEmail(target, userId);
  const slug = `keys-${Math.random().toString(36).slice(2, 10)}`;
  const created = await client.organization.create({ name: "Keys Inc", slug });
  expect(created.error).toBeNull();
  return { client, userId, organizationId: created.data?.id as string };
}

const KEY_SHAPE = /^gk_[A-Za-z0-9]{46}$/;

describe("managing keys with better-auth's client", () => {
  it("creates an organization's key shown once, kept only as a digest; lists, gets, updates and deletes it", async () => {
    const { client, userId, organizationId } = await ownerWithOrganization();
    const created = await client.apiKey.create({
      name: "ci",
      organizationId,
      expiresIn: 7 * 86400,
      metadata: { team: "platform" },
      permissions: { member: ["update"], invitation: ["create"] },
    });
    expect(created.error).toBeNull();
    const key = created.data;
    expect(key.key).toMatch(KEY_SHAPE);
    expect(key).toMatchObject({
      name: "ci",
      prefix: "gk_",
      start: key.key.slice(0, 7),
      referenceId: organizationId,
      organizationId,
      createdBy: userId,
      enabled: true,
      metadata: { team: "platform" },
      permissions: { member: ["update"], invitation: ["create"] },
      configId: "default",
    });
    expect(new Date(key.expiresAt).getTime() - server.clock.now().getTime()).toBeCloseTo(7 * 86400 * 1000, -4);

    // Stored as its digest only.
    const row = await server.auth.database.db
      .selectFrom("apiKey")
      .selectAll()
      .where("id", "=", key.id)
      .executeTakeFirstOrThrow();
    expect(row.keyHash).toBe(sha256Base64Url(key.key));
    expect(JSON.stringify(row)).not.toContain(key.key);

    // Never shown again.
    const listed = await client.apiKey.list({ query: { organizationId } });
    expect(listed.error).toBeNull();
    expect(listed.data.total).toBe(1);
    expect(listed.data.apiKeys.map((k: { id: string }) => k.id)).toEqual([key.id]);
    expect(listed.data.apiKeys[0]).not.toHaveProperty("key");
    const got = await client.apiKey.get({ query: { id: key.id } });
    expect(got.error).toBeNull();
    expect(got.data).not.toHaveProperty("key");
    expect(got.data.name).toBe("ci");

    // The owner's own (user) keys are another list.
    expect((await client.apiKey.list()).data.total).toBe(0);

    const updated = await client.apiKey.update({ keyId: key.id, name: "ci-2", enabled: false });
    expect(updated.error).toBeNull();
    expect(updated.data).toMatchObject({ id: key.id, name: "ci-2", enabled: false });

    const deleted = await client.apiKey.delete({ keyId: key.id });
    expect(deleted.error).toBeNull();
    expect(deleted.data).toEqual({ success: true });
    const gone = await client.apiKey.get({ query: { id: key.id } });
    expect(gone.error?.status).toBe(404);
    expect(gone.error?.code).toBe("KEY_NOT_FOUND");

    const trail = await server.auth.database.db
      .selectFrom("auditTrail")
      .select(["action", "organizationId"])
      .where("organizationId", "=", organizationId)
      .where("action", "like", "api_key.%")
      .orderBy("seq")
      .execute();
    expect(trail.map((e) => e.action)).toEqual(["api_key.created", "api_key.updated", "api_key.revoked"]);
  });

  it("gives a key only permissions its creator's role holds, and keys only to roles granted apiKey", async () => {
    const { client, organizationId } = await ownerWithOrganization();
    // Nothing in the built-in roles says `apiKey`: even an owner's key holds only what the owner's role does.
    const beyond = await client.apiKey.create({ organizationId, permissions: { billing: ["charge"] } });
    expect(beyond.error?.status).toBe(403);
    expect(beyond.error?.code).toBe("API_KEY_PERMISSIONS_EXCEED_ROLE");

    const developer = await joinAs(server, organizationId, "developer");
    const plain = await joinAs(server, organizationId, "member");
    const before = await server.auth.database.db.selectFrom("apiKey").select("id").execute();

    const refused = await plain.browser.post("/api-key/create", { organizationId });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("INSUFFICIENT_API_KEY_PERMISSIONS");
    const overreach = await developer.browser.post("/api-key/create", {
      organizationId,
      permissions: { member: ["update", "delete"] },
    });
    expect(overreach.status).toBe(403);
    expect(overreach.body.code).toBe("API_KEY_PERMISSIONS_EXCEED_ROLE");
    const stranger = await signUp(server);
    const outside = await stranger.browser.post("/api-key/create", { organizationId });
    expect(outside.status).toBe(403);
    expect(outside.body.code).toBe("USER_NOT_MEMBER_OF_ORGANIZATION");
    expect(await server.auth.database.db.selectFrom("apiKey").select("id").execute()).toEqual(before);

    const made = await developer.browser.post("/api-key/create", {
      organizationId,
      permissions: { member: ["update"] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    // The developer may read the organization's keys but not delete them.
    expect((await developer.browser.get(`/api-key/list?organizationId=${organizationId}`)).body.total).toBe(1);
    const notAllowed = await developer.browser.post("/api-key/delete", { keyId: made.body.id });
    expect(notAllowed.status).toBe(403);
    expect(notAllowed.body.code).toBe("INSUFFICIENT_API_KEY_PERMISSIONS");
    // A stranger cannot tell the key exists.
    expect((await stranger.browser.get(`/api-key/get?id=${made.body.id}`)).body.code).toBe("KEY_NOT_FOUND");
  });

  it("keeps server-only settings to auth.api, which may create a user's key by naming the user", async () => {
    const person = await signUp(server);
    for (const body of [{ rateLimitMax: 5 }, { permissions: { x: ["y"] } }, { remaining: 3 }, { userId: "other" }]) {
      const res = await person.browser.post("/api-key/create", body);
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(["SERVER_ONLY_PROPERTY", "UNAUTHORIZED_SESSION"]).toContain(res.body.code);
    }
    expect(
      await server.auth.database.db.selectFrom("apiKey").where("userId", "=", person.user.id).selectAll().execute(),
    ).toEqual([]);
    const signedOut = await server.browser().post("/api-key/create", {});
    expect(signedOut.status).toBe(401);
    expect(signedOut.body.code).toBe("UNAUTHORIZED_SESSION");

    const made = await server.auth.api.createApiKey({
      body: { userId: person.user.id, name: "server", rateLimitMax: 5, permissions: { files: ["read"] } },
    });
    expect(made).toMatchObject({ referenceId: person.user.id, rateLimitMax: 5, permissions: { files: ["read"] } });
    const mine = await person.browser.get("/api-key/list");
    expect(mine.body.apiKeys.map((k: { id: string }) => k.id)).toEqual([made.id]);
    // Quotas are not kept, so they are refused rather than ignored.
    await expect(
      server.auth.api.createApiKey({ body: { userId: person.user.id, remaining: 10 } }),
    ).rejects.toMatchObject({ code: "API_KEY_USAGE_QUOTA_UNSUPPORTED" });
  });
});

describe("owned and deprovisioned", () => {
  it("an organization's key outlives its creator's membership and account; a user's key does not", async () => {
    const { client, organizationId } = await ownerWithOrganization();
    const developer = await joinAs(server, organizationId, "developer");
    const made = await developer.browser.post("/api-key/create", {
      organizationId,
      permissions: { member: ["update"] },
    });
    expect(made.status).toBe(200);
    const own = await server.auth.api.createApiKey({
      body: { userId: developer.user.id, permissions: { member: ["update"] } },
    });
    const ask = (key: string) =>
      server.browser().request("/organization/has-permission", {
        body: { organizationId, permissions: { member: ["update"] } },
        headers: { "x-api-key": key },
      });
    expect((await ask(made.body.key)).body.success).toBe(true);
    expect((await ask(own.key)).body.success).toBe(true);

    // Removed from the organization: the organization's key stays, the user's key no longer answers there.
    const removed = await client.organization.removeMember({ memberIdOrEmail: developer.memberId, organizationId });
    expect(removed.error).toBeNull();
    expect((await ask(made.body.key)).body.success).toBe(true);
    const outside = await ask(own.key);
    expect(outside.status).toBe(403);
    expect(outside.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");

    // The account gone: its own key with it; the organization's key keeps working, its creator unnamed.
    await server.auth.database.db.deleteFrom("user").where("id", "=", developer.user.id).execute();
    expect((await ask(own.key)).body.code).toBe("INVALID_API_KEY");
    expect((await ask(made.body.key)).body.success).toBe(true);
    expect((await client.apiKey.get({ query: { id: made.body.id } })).data.createdBy).toBeNull();
  });
});

describe("rotating a key", () => {
  it("issues a new key for the same row and keeps the old one working for the grace period only", async () => {
    const { client, organizationId } = await ownerWithOrganization();
    const created = (await client.apiKey.create({ organizationId, permissions: { member: ["update"] } })).data;
    const valid = async (key: string) => (await server.auth.api.verifyApiKey({ body: { key } })).valid;
    expect(await valid(created.key)).toBe(true);

    const rotated = await client.$fetch("/api-key/rotate", {
      method: "POST",
      body: { keyId: created.id, gracePeriod: 60 },
    });
    expect(rotated.error).toBeNull();
    const next = rotated.data as { id: string; key: string; start: string };
    expect(next.id).toBe(created.id);
    expect(next.key).toMatch(KEY_SHAPE);
    expect(next.key).not.toBe(created.key);
    expect(await valid(next.key)).toBe(true);
    expect(await valid(created.key)).toBe(true);
    server.clock.advance(61);
    expect(await valid(created.key)).toBe(false);
    expect(await valid(next.key)).toBe(true);

    // Without a grace period the replaced key stops at once.
    const last = (
      await client.$fetch("/api-key/rotate", { method: "POST", body: { keyId: created.id, gracePeriod: 0 } })
    ).data as { key: string };
    expect(await valid(next.key)).toBe(false);
    expect(await valid(last.key)).toBe(true);

    const actions = await server.auth.database.db
      .selectFrom("auditTrail")
      .select("action")
      .where("organizationId", "=", organizationId)
      .where("action", "=", "api_key.rotated")
      .execute();
    expect(actions).toHaveLength(2);
  });
});

describe("verifying a key (auth.api.verifyApiKey)", () => {
  it("answers valid with the key, or the reason it is not", async () => {
    const person = await signUp(server);
    const made = await server.auth.api.createApiKey({
      body: { userId: person.user.id, expiresIn: 86400, permissions: { files: ["read"] } },
    });
    const ok = await server.auth.api.verifyApiKey({ body: { key: made.key } });
    expect(ok).toMatchObject({ valid: true, error: null, key: { id: made.id, permissions: { files: ["read"] } } });
    expect(ok.key).not.toHaveProperty("key");
    expect(
      await server.auth.api.verifyApiKey({ body: { key: made.key, permissions: { files: ["read"] } } }),
    ).toMatchObject({ valid: true });
    expect(
      await server.auth.api.verifyApiKey({ body: { key: made.key, permissions: { files: ["write"] } } }),
    ).toMatchObject({ valid: false, error: { code: "KEY_NOT_FOUND" }, key: null });
    // A wrong character breaks the checksum; a well-formed unknown key is simply invalid.
    const flipped = made.key.slice(0, -1) + (made.key.endsWith("A") ? "B" : "A");
    expect(await server.auth.api.verifyApiKey({ body: { key: flipped } })).toMatchObject({
      valid: false,
      error: { code: "INVALID_API_KEY" },
    });

    await server.auth.api.updateApiKey({ body: { userId: person.user.id, keyId: made.id, enabled: false } });
    expect(await server.auth.api.verifyApiKey({ body: { key: made.key } })).toMatchObject({
      valid: false,
      error: { code: "KEY_DISABLED" },
    });
    await server.auth.api.updateApiKey({ body: { userId: person.user.id, keyId: made.id, enabled: true } });
    server.clock.advance(86400 + 1);
    expect(await server.auth.api.verifyApiKey({ body: { key: made.key } })).toMatchObject({
      valid: false,
      error: { code: "KEY_EXPIRED" },
    });

    // A user's key stops while its user is banned.
    server.clock.advance(-(86400 + 1));
    const db = server.auth.database.db;
    await db.updateTable("user").set({ banned: true }).where("id", "=", person.user.id).execute();
    expect(await server.auth.api.verifyApiKey({ body: { key: made.key } })).toMatchObject({
      valid: false,
      error: { code: "BANNED_USER" },
    });
    await db.updateTable("user").set({ banned: false }).where("id", "=", person.user.id).execute();
    expect((await server.auth.api.verifyApiKey({ body: { key: made.key } })).valid).toBe(true);

    // Over HTTP it does not exist (better-auth: server only).
    const overHttp = await person.browser.post("/api-key/verify", { key: made.key });
    expect(overHttp.status).toBe(404);
  });
});

describe("a key as the caller (x-api-key)", () => {
  it("answers has-permission with the key's own permissions in its organization", async () => {
    const { client, organizationId } = await ownerWithOrganization();
    const created = await client.apiKey.create({ organizationId, permissions: { member: ["update"] } });
    const key = created.data.key as string;
    const caller = server.browser();
    // A program sends no Origin (and no cookie): nothing asks it for one.
    const ask = (body: object) =>
      caller.request("/organization/has-permission", { body, headers: { "x-api-key": key }, noOrigin: true });

    const yes = await ask({ permissions: { member: ["update"] } });
    expect(yes.status, JSON.stringify(yes.body)).toBe(200);
    expect(yes.body).toEqual({ error: null, success: true });
    expect((await ask({ permissions: { member: ["delete"] } })).body).toEqual({ error: null, success: false });
    expect((await ask({ organizationId, permissions: { member: ["update"] } })).body.success).toBe(true);
    const other = await createOrganization(server);
    const elsewhere = await ask({ organizationId: other.organizationId, permissions: { member: ["update"] } });
    expect(elsewhere.status).toBe(403);

    const bad = await caller.request("/organization/has-permission", {
      body: { permissions: { member: ["update"] } },
      headers: { "x-api-key": `${key.slice(0, -1)}${key.endsWith("x") ? "y" : "x"}` },
    });
    expect(bad.status).toBe(401);
    expect(bad.body.code).toBe("INVALID_API_KEY");
  });

  it("is taken from Authorization: Bearer only with apiKey.bearer, and only when it has a key's checksum", async () => {
    const bearer = await startTestServer({
      options: { organization: { enabled: true }, apiKey: { enabled: true, bearer: true } },
    });
    try {
      const { client, organizationId } = await ownerWithOrganization(bearer);
      const key = (await client.apiKey.create({ organizationId, permissions: { member: ["update"] } })).data.key;
      const ask = (target: TestServer, authorization: string) =>
        target.browser().request("/organization/has-permission", {
          body: { permissions: { member: ["update"] } },
          headers: { authorization },
        });
      expect((await ask(bearer, `Bearer ${key}`)).body).toEqual({ error: null, success: true });
      // Not a key: left to the session machinery, which knows no such session.
      expect((await ask(bearer, "Bearer not-a-key")).status).toBe(401);
      // Off by default: the header is not read for keys.
      expect((await ask(server, `Bearer ${key}`)).status).toBe(401);
      expect(bearer.loggedErrors).toEqual([]);
    } finally {
      await bearer.close();
    }
  });

  it("changes its organization on routes the table accepts keys on, checked with the key's permissions", async () => {
    const { client, organizationId } = await ownerWithOrganization();
    const updater = (await client.apiKey.create({ organizationId, permissions: { organization: ["update"] } })).data;
    const teamMaker = (await client.apiKey.create({ organizationId, permissions: { team: ["create"] } })).data;
    const as = (key: string, path: string, body: object) =>
      server.browser().request(path, { body, headers: { "x-api-key": key } });

    const renamed = await as(updater.key, "/organization/update", { data: { name: "Renamed by a key" } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.name).toBe("Renamed by a key");
    const noTeams = await as(updater.key, "/organization/create-team", { name: "Robots" });
    expect(noTeams.status).toBe(403);
    expect(noTeams.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION");
    const team = await as(teamMaker.key, "/organization/create-team", { name: "Robots" });
    expect(team.status, JSON.stringify(team.body)).toBe(200);
    expect(team.body).toMatchObject({ name: "Robots", organizationId });

    // Another organization does not know the key.
    const other = await createOrganization(server);
    const elsewhere = await as(updater.key, "/organization/update", {
      organizationId: other.organizationId,
      data: { name: "Taken over" },
    });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
    const untouched = await server.auth.database.db
      .selectFrom("organization")
      .select("name")
      .where("id", "=", other.organizationId)
      .executeTakeFirstOrThrow();
    expect(untouched.name).not.toBe("Taken over");

    // The trail names the key as the actor.
    const entry = await server.auth.database.db
      .selectFrom("auditTrail")
      .select(["actorType", "actorId", "outcome"])
      .where("organizationId", "=", organizationId)
      .where("action", "=", "organization.updated")
      .executeTakeFirstOrThrow();
    expect(entry).toEqual({ actorType: "key", actorId: updater.id, outcome: "success" });
  });

  it("is audited when used from an address it has not been used from lately, once per address", async () => {
    const { client, organizationId } = await ownerWithOrganization();
    const made = (await client.apiKey.create({ organizationId, permissions: { member: ["update"] } })).data;
    const from = (address: string) =>
      server.browser().request("/organization/has-permission", {
        body: { permissions: { member: ["update"] } },
        headers: { "x-api-key": made.key, "x-forwarded-for": address },
      });
    for (const address of ["192.0.2.1", "192.0.2.1", "198.51.100.7", "192.0.2.1", "198.51.100.7"]) {
      expect((await from(address)).status).toBe(200);
    }
    const entries = await server.auth.database.db
      .selectFrom("auditTrail")
      .select(["actorType", "actorId", "details"])
      .where("organizationId", "=", organizationId)
      .where("action", "=", "api_key.used_from_new_address")
      .orderBy("seq")
      .execute();
    expect(entries.map((e) => [e.actorType, e.actorId])).toEqual([
      ["key", made.id],
      ["key", made.id],
    ]);
    expect(entries.map((e) => (typeof e.details === "string" ? JSON.parse(e.details) : e.details).ipAddress)).toEqual([
      "192.0.2.1",
      "198.51.100.7",
    ]);
  });

  it("is refused on account, credential and key-management routes", async () => {
    const { client, organizationId } = await ownerWithOrganization();
    const key = (await client.apiKey.create({ organizationId, permissions: { member: ["update"] } })).data
      .key as string;
    const caller = server.browser();
    const headers = { "x-api-key": key };
    for (const [path, body] of [
      ["/list-sessions", undefined],
      ["/change-password", { currentPassword: "x", newPassword: "sturdy-pass-456" }],
      ["/api-key/create", { organizationId }],
      ["/organization/leave", { organizationId }],
      ["/organization/get-active-member", undefined],
      ["/organization/delete", { organizationId }],
      ["/sign-in/email", { email: "a@example.com", password: "whatever-123" }],
    ] as const) {
      const res = await caller.request(path, { body, headers });
      expect(res.status, path).toBe(403);
      expect(res.body.code, path).toBe("API_KEY_NOT_ACCEPTED");
    }
  });

  it(`lets exactly the key's limit through of ${PARALLEL_REQUESTS} parallel requests, then 429 with Retry-After`, async () => {
    const { userId, organizationId } = await ownerWithOrganization();
    const limit = Math.floor(PARALLEL_REQUESTS / 3);
    const made = await server.auth.api.createApiKey({
      body: {
        userId,
        organizationId,
        rateLimitMax: limit,
        rateLimitTimeWindow: 60_000,
        permissions: { member: ["update"] },
      },
    });
    const caller = server.browser();
    const results = await Promise.all(
      Array.from({ length: PARALLEL_REQUESTS }, () =>
        caller.request("/organization/has-permission", {
          body: { permissions: { member: ["update"] } },
          headers: { "x-api-key": made.key },
        }),
      ),
    );
    const passed = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    expect(passed.length).toBe(limit);
    expect(limited.length).toBe(PARALLEL_REQUESTS - limit);
    expect(limited[0]?.body.code).toBe("RATE_LIMITED");
    expect(Number(limited[0]?.headers.get("retry-after"))).toBeGreaterThan(0);
    // The window ends: the key works again.
    server.clock.advance(61);
    const again = await caller.request("/organization/has-permission", {
      body: { permissions: { member: ["update"] } },
      headers: { "x-api-key": made.key },
    });
    expect(again.status).toBe(200);
  });
});

describe("verification from memory, revoked everywhere at once", () => {
  const OPTIONS = {
    organization: { enabled: true },
    apiKey: { enabled: true },
    // The revocation feed between instances runs with the cookie cache (services/revocations.ts).
    session: { cookieCache: { enabled: true, maxAge: 300 } },
  };

  async function keyFor(target: TestServer) {
    const { userId, organizationId } = await ownerWithOrganization(target);
    const made = await target.auth.api.createApiKey({
      body: { userId, organizationId, permissions: { member: ["update"] } },
    });
    return { userId, organizationId, key: made.key as string, id: made.id as string };
  }

  const ask = (target: TestServer, key: string) =>
    target.browser().request("/organization/has-permission", {
      body: { permissions: { member: ["update"] } },
      headers: { "x-api-key": key },
    });

  it("answers a known key without reading the database, and stops the moment it is revoked", async () => {
    const one = await startTestServer({ options: OPTIONS });
    try {
      const { key, id, userId } = await keyFor(one);
      expect((await ask(one, key)).status).toBe(200);
      const before = one.queryCount();
      expect((await ask(one, key)).status).toBe(200);
      expect(one.queryCount()).toBe(before);
      await one.auth.api.updateApiKey({ body: { userId, keyId: id, enabled: false } });
      const refused = await ask(one, key);
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe("KEY_DISABLED");
    } finally {
      await one.close();
    }
  });

  it.runIf(dialectUnderTest() === "postgres")(
    "a key revoked or whose organization is deleted on one instance is refused on another within a second",
    async () => {
      const a = await startTestServer({ options: OPTIONS });
      const b = await startTestServer({ options: OPTIONS, shareDatabaseWith: a });
      try {
        const first = await keyFor(a);
        const second = await keyFor(a);
        // B holds both keys in memory.
        for (const key of [first.key, second.key]) {
          expect((await ask(b, key)).status).toBe(200);
          expect((await ask(b, key)).status).toBe(200);
        }
        await a.auth.api.deleteApiKey({
          body: { keyId: first.id },
          headers: await sessionHeaders(a, first.userId),
        });
        await expectRefusedWithin(b, first.key, 1000);
        const owner = await sessionHeaders(a, second.userId);
        await a.auth.api.deleteOrganization({ body: { organizationId: second.organizationId }, headers: owner });
        await expectRefusedWithin(b, second.key, 1000);
        expect(b.loggedErrors).toEqual([]);
      } finally {
        await b.close();
        await a.close();
      }
    },
  );

  async function expectRefusedWithin(target: TestServer, key: string, ms: number) {
    const started = Date.now();
    for (;;) {
      const res = await ask(target, key);
      if (res.status === 401) return;
      expect(res.status).toBe(200);
      if (Date.now() - started > ms) throw new Error(`still accepted after ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Headers carrying a fresh session of the user (for auth.api calls that need one). */
  async function sessionHeaders(target: TestServer, userId: string): Promise<Headers> {
    const email = (
      await target.auth.database.db
        .selectFrom("user")
        .select("email")
        .where("id", "=", userId)
        .executeTakeFirstOrThrow()
    ).email;
    const browser = target.browser();
    const res = await browser.post("/sign-in/email", { email, password: "sturdy-pass-123" });
    expect(res.status).toBe(200);
    return new Headers({ cookie: res.setCookies.map((c) => c.split(";")[0]).join("; ") });
  }
});

const noRedis = await redisUnavailable();

describe.skipIf(noRedis)("a key's limit shared by two instances through Redis", () => {
  it(`lets exactly the limit through of ${PARALLEL_REQUESTS} parallel requests spread over both`, async () => {
    const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    const keyPrefix = `gatehouse-test:${randomString(8)}:`;
    const options = { organization: { enabled: true }, apiKey: { enabled: true } };
    const a = await startTestServer({
      options,
      shareable: true,
      extra: { rateLimitStore: new RedisRateLimitStore(redis, { keyPrefix }) },
    });
    const b = await startTestServer({
      options,
      shareDatabaseWith: a,
      extra: { rateLimitStore: new RedisRateLimitStore(redis, { keyPrefix }) },
    });
    try {
      const { userId, organizationId } = await ownerWithOrganization(a);
      const limit = Math.floor(PARALLEL_REQUESTS / 3);
      const made = await a.auth.api.createApiKey({
        body: { userId, organizationId, rateLimitMax: limit, permissions: { member: ["update"] } },
      });
      const results = await Promise.all(
        Array.from({ length: PARALLEL_REQUESTS }, (_, i) =>
          (i % 2 === 0 ? a : b).browser().request("/organization/has-permission", {
            body: { permissions: { member: ["update"] } },
            headers: { "x-api-key": made.key },
          }),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(limit);
      expect(results.filter((r) => r.status === 429)).toHaveLength(PARALLEL_REQUESTS - limit);
      expect([...a.loggedErrors, ...b.loggedErrors]).toEqual([]);
    } finally {
      await b.close();
      await a.close();
      const keys = await redis.keys(`${keyPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
  });
});

import { createHash } from "node:crypto";
import * as oauth from "oauth4webapi";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { dialectUnderTest } from "./helpers/database.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/*
 * Clients as admin-managed objects (/admin/oauth2/*) and RFC 7592 client management with the
 * registration access token /oauth2/register hands out.
 */

const REDIRECT = "https://rp.example/callback";
const insecure = { [oauth.allowInsecureRequests]: true };

describe(`OAuth clients in the admin area (${dialectUnderTest()})`, () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      shareable: true,
      options: {
        organization: { enabled: true },
        audit: { enabled: true },
        admin: { allowImpersonatingAdmins: true, roles: { support: { oauthClient: ["list"] } } },
        oauthProvider: { enabled: true, consentPage: "/consent" },
      },
    });
  });
  afterAll(() => server.close());
  afterEach(() => expect(server.loggedErrors).toEqual([]));

  async function withRole(role: string) {
    const account = await signUp(server);
    await server.auth.database.db.updateTable("user").set({ role }).where("id", "=", account.user.id).execute();
    return account;
  }

  it("an admin creates, lists, disables and deletes any client; a plain user cannot", async () => {
    const admin = await withRole("admin");
    const owner = await signUp(server);
    const owned = await owner.browser.post("/oauth2/create-client", {
      client_name: "Owner's app",
      redirect_uris: [REDIRECT],
    });
    expect(owned.status).toBe(201);

    const created = await admin.browser.post("/admin/oauth2/create-client", {
      client_name: "Platform app",
      redirect_uris: [REDIRECT],
      grant_types: ["client_credentials"],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ userId: null, organizationId: null, createdBy: admin.user.id });
    expect(created.body.client_secret).toEqual(expect.any(String));
    // First-party stays a server call's: an admin over HTTP cannot skip consent either.
    const trusted = await admin.browser.post("/admin/oauth2/create-client", {
      client_name: "Trusted",
      redirect_uris: [REDIRECT],
      skip_consent: true,
    });
    expect([trusted.status, trusted.body.code]).toEqual([403, "OAUTH_TRUSTED_CLIENT_SERVER_ONLY"]);

    const listed = await admin.browser.get("/admin/oauth2/get-clients?limit=200");
    expect(listed.status).toBe(200);
    const ids = listed.body.clients.map((c: { client_id: string }) => c.client_id);
    expect(ids).toEqual(expect.arrayContaining([owned.body.client_id, created.body.client_id]));
    expect(listed.body.total).toBeGreaterThanOrEqual(2);
    expect(listed.body.clients.some((c: Record<string, unknown>) => "client_secret" in c)).toBe(false);

    // Disabling someone else's client stops it at once: client credentials are refused.
    const machine = (secret: string) =>
      server.browser().request("/oauth2/token", {
        form: { grant_type: "client_credentials", client_id: created.body.client_id, client_secret: secret },
      });
    expect((await machine(created.body.client_secret)).status).toBe(200);
    const disabled = await admin.browser.post("/admin/oauth2/update-client", {
      client_id: created.body.client_id,
      update: { disabled: true },
    });
    expect([disabled.status, disabled.body.disabled]).toEqual([200, true]);
    expect((await machine(created.body.client_secret)).status).toBe(401);
    const renamed = await admin.browser.post("/admin/oauth2/update-client", {
      client_id: owned.body.client_id,
      update: { client_name: "Renamed by an admin" },
    });
    expect(renamed.body.client_name).toBe("Renamed by an admin");

    const deleted = await admin.browser.post("/admin/oauth2/delete-client", { client_id: owned.body.client_id });
    expect(deleted.status).toBe(200);
    const gone = await owner.browser.get(`/oauth2/get-client?client_id=${owned.body.client_id}`);
    expect(gone.status).toBe(404);
    const again = await admin.browser.post("/admin/oauth2/delete-client", { client_id: owned.body.client_id });
    expect([again.status, again.body.code]).toEqual([404, "OAUTH_CLIENT_NOT_FOUND"]);

    const entries = await server.auth.database.db
      .selectFrom("auditTrail")
      .select(["action", "outcome"])
      .where("actorId", "=", admin.user.id)
      .where("outcome", "=", "success")
      .execute();
    expect(entries.map((e) => e.action)).toEqual(
      expect.arrayContaining(["oauth.client_created", "oauth.client_updated", "oauth.client_deleted"]),
    );

    // A plain user: refused everywhere, and changes nothing.
    const plain = await signUp(server);
    for (const [method, path, body] of [
      ["GET", "/admin/oauth2/get-clients", undefined],
      ["POST", "/admin/oauth2/create-client", { client_name: "x", redirect_uris: [REDIRECT] }],
      ["POST", "/admin/oauth2/update-client", { client_id: created.body.client_id, update: { disabled: false } }],
      ["POST", "/admin/oauth2/delete-client", { client_id: created.body.client_id }],
    ] as const) {
      const refused = await plain.browser.request(path, { method, body });
      expect([refused.status, refused.body.code], path).toEqual([403, "YOU_ARE_NOT_ALLOWED_TO_MANAGE_OAUTH_CLIENTS"]);
      const signedOut = await server.browser().request(path, { method, body });
      expect(signedOut.status, path).toBe(401);
    }
    const still = await admin.browser.get("/admin/oauth2/get-clients?limit=200");
    expect(still.body.clients.find((c: { client_id: string }) => c.client_id === created.body.client_id).disabled).toBe(
      true,
    );
  });

  it("a role granted only oauthClient:list reads the list and changes nothing", async () => {
    const support = await withRole("support");
    expect((await support.browser.get("/admin/oauth2/get-clients")).status).toBe(200);
    for (const query of ["limit=201", "offset=-1", "limit=abc"]) {
      expect((await support.browser.get(`/admin/oauth2/get-clients?${query}`)).status, query).toBe(400);
    }
    const paged = await support.browser.get("/admin/oauth2/get-clients?limit=1&offset=0");
    expect(paged.body).toMatchObject({ limit: 1, offset: 0 });
    expect(paged.body.clients.length).toBeLessThanOrEqual(1);
    const refused = await support.browser.post("/admin/oauth2/create-client", {
      client_name: "x",
      redirect_uris: [REDIRECT],
    });
    expect([refused.status, refused.body.code]).toEqual([403, "YOU_ARE_NOT_ALLOWED_TO_MANAGE_OAUTH_CLIENTS"]);
  });

  it("an admin impersonating another admin may list clients but not create, change or delete them", async () => {
    const admin = await withRole("admin");
    const other = await withRole("admin");
    const created = await admin.browser.post("/admin/oauth2/create-client", {
      client_name: "Kept",
      redirect_uris: [REDIRECT],
    });
    const started = await admin.browser.post("/admin/impersonate-user", { userId: other.user.id });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect((await admin.browser.get("/admin/oauth2/get-clients")).status).toBe(200);
    for (const [path, body] of [
      ["/admin/oauth2/create-client", { client_name: "x", redirect_uris: [REDIRECT] }],
      ["/admin/oauth2/update-client", { client_id: created.body.client_id, update: { disabled: true } }],
      ["/admin/oauth2/delete-client", { client_id: created.body.client_id }],
    ] as const) {
      const refused = await admin.browser.post(path, body);
      expect([refused.status, refused.body.code], path).toEqual([403, "IMPERSONATION_NOT_ALLOWED"]);
    }
    await admin.browser.post("/admin/stop-impersonating", {});
    const row = await server.auth.database.db
      .selectFrom("oauthClient")
      .select("disabled")
      .where("clientId", "=", created.body.client_id)
      .executeTakeFirstOrThrow();
    expect(Boolean(row.disabled)).toBe(false);
  });
});

describe(`RFC 7592 client management (${dialectUnderTest()})`, () => {
  let server: TestServer;
  let as: oauth.AuthorizationServer;

  beforeAll(async () => {
    server = await startTestServer({
      options: {
        audit: { enabled: true },
        oauthProvider: {
          enabled: true,
          allowDynamicClientRegistration: true,
          allowUnauthenticatedClientRegistration: true,
        },
      },
    });
    const issuer = new URL(`${server.origin}/api/auth`);
    as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...insecure }),
    );
  });
  afterAll(() => server.close());
  afterEach(() => expect(server.loggedErrors).toEqual([]));

  const call = (uri: string, method: string, token: string | null, body?: unknown) =>
    fetch(uri, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { "content-type": "application/json" } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });

  it("registration hands out a token and a URI to read, replace and delete the client with", async () => {
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        { redirect_uris: [REDIRECT], client_name: "Tool", grant_types: ["authorization_code", "refresh_token"] },
        insecure,
      ),
    );
    const token = registered.registration_access_token as string;
    const uri = registered.registration_client_uri as string;
    expect(uri).toBe(`${as.issuer}/oauth2/register/${registered.client_id}`);
    expect(token).toEqual(expect.any(String));
    // At rest only its digest.
    const row = await server.auth.database.db
      .selectFrom("oauthClient")
      .select("registrationAccessTokenHash")
      .where("clientId", "=", registered.client_id)
      .executeTakeFirstOrThrow();
    expect(row.registrationAccessTokenHash).toBe(createHash("sha256").update(token).digest("base64url"));

    const read = await call(uri, "GET", token);
    expect(read.status).toBe(200);
    expect(read.headers.get("cache-control")).toBe("no-store");
    const config = await read.json();
    expect(config).toMatchObject({
      client_id: registered.client_id,
      client_name: "Tool",
      registration_client_uri: uri,
    });
    expect(config.client_secret).toBeUndefined();
    expect(config.registration_access_token).toBeUndefined();

    // Wrong token, no token, another client's URI: the same 401.
    for (const [target, presented] of [
      [uri, "wrong"],
      [uri, null],
      [`${as.issuer}/oauth2/register/unknown-client`, token],
    ] as const) {
      const refused = await call(target, "GET", presented);
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toContain("invalid_token");
      expect((await refused.json()).error).toBe("invalid_token");
    }

    // PUT replaces: the name changes, a field left out (scope) returns to the default.
    const replaced = await call(uri, "PUT", token, {
      ...config,
      client_name: "Tool, renamed",
      redirect_uris: [REDIRECT, "https://rp.example/other"],
      scope: undefined,
    });
    expect(replaced.status, await replaced.clone().text()).toBe(200);
    expect(await replaced.json()).toMatchObject({
      client_name: "Tool, renamed",
      redirect_uris: [REDIRECT, "https://rp.example/other"],
    });
    const badPut = [
      { ...config, client_id: "someone-else" },
      { ...config, client_secret: "not-its-secret" },
      { ...config, token_endpoint_auth_method: "none" },
      { ...config, redirect_uris: ["http://rp.example/cb"] },
    ];
    for (const body of badPut) {
      const refused = await call(uri, "PUT", token, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(["invalid_client_metadata", "invalid_redirect_uri"]).toContain((await refused.json()).error);
    }
    const withOwnSecret = await call(uri, "PUT", token, { ...config, client_secret: registered.client_secret });
    expect(withOwnSecret.status).toBe(200);
    // What registration cannot claim, replacement cannot either: first-party standing, an organization.
    const claims = await call(uri, "PUT", token, { ...config, skip_consent: true, organizationId: "org-x" });
    expect(claims.status).toBe(200);
    const kept = await server.auth.database.db
      .selectFrom("oauthClient")
      .select(["skipConsent", "organizationId"])
      .where("clientId", "=", registered.client_id)
      .executeTakeFirstOrThrow();
    expect([Boolean(kept.skipConsent), kept.organizationId]).toEqual([false, null]);
    // Bad input is a 4xx with an RFC error, never a 500.
    for (const body of [[1, 2], "not json", { ...config, grant_types: ["password"] }, { ...config, client_name: 7 }]) {
      const refused = await fetch(uri, {
        method: "PUT",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
      expect(refused.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(refused.status, JSON.stringify(body)).toBeLessThan(500);
    }

    // DELETE: 204, and the client and its token are gone.
    expect((await call(uri, "DELETE", "wrong")).status).toBe(401);
    const removed = await call(uri, "DELETE", token);
    expect(removed.status).toBe(204);
    expect((await call(uri, "GET", token)).status).toBe(401);
    const left = await server.auth.database.db
      .selectFrom("oauthClient")
      .select("id")
      .where("clientId", "=", registered.client_id)
      .execute();
    expect(left).toEqual([]);
    const entries = await server.auth.database.db
      .selectFrom("auditTrail")
      .select(["action", "details"])
      .where("action", "in", ["oauth.client_created", "oauth.client_updated", "oauth.client_deleted"])
      .where("outcome", "=", "success")
      .execute();
    const mine = entries.filter((e) => JSON.parse(e.details ?? "{}").clientId === registered.client_id);
    // The registration itself is an entry too; what the token changed says so.
    expect(mine.map((e) => e.action)).toEqual(expect.arrayContaining(["oauth.client_created", "oauth.client_deleted"]));
    const byToken = mine.filter((e) => e.action !== "oauth.client_created");
    expect(byToken.every((e) => JSON.parse(e.details!).via === "registration-token")).toBe(true);
  });

  it("a client made any other way has no registration token to be managed with", async () => {
    const { browser } = await signUp(server);
    const created = await browser.post("/oauth2/create-client", { client_name: "Owned", redirect_uris: [REDIRECT] });
    expect(created.body.registration_access_token).toBeUndefined();
    const uri = `${as.issuer}/oauth2/register/${created.body.client_id}`;
    expect((await call(uri, "GET", created.body.client_secret)).status).toBe(401);
  });
});

import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestBrowser } from "./helpers/browser.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/*
 * Client ID Metadata Documents: a client_id that is a URL, its document served by a real HTTP
 * server on loopback (allowed by oauthProvider.allowPrivateUrls), fetched, checked, cached in the
 * client's row for every instance, and refetched when stale.
 */

const REDIRECT = "https://rp.example/callback";

interface Served {
  status?: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** A loopback server answering each path with what the test put there, counting the fetches. */
async function startDocumentServer() {
  const documents = new Map<string, Served>();
  const fetches = new Map<string, number>();
  const http: Server = createServer((req, res) => {
    const path = req.url ?? "/";
    fetches.set(path, (fetches.get(path) ?? 0) + 1);
    const served = documents.get(path);
    if (!served) return void res.writeHead(404).end();
    const body = typeof served.body === "string" ? served.body : JSON.stringify(served.body);
    res.writeHead(served.status ?? 200, { "content-type": "application/json", ...served.headers }).end(body);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return { http, origin, documents, fetches };
}

const pkce = () => {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
};

describe("Client ID Metadata Documents", () => {
  let server: TestServer;
  let docs: Awaited<ReturnType<typeof startDocumentServer>>;
  const OPTIONS = {
    oauthProvider: {
      enabled: true,
      loginPage: "/sign-in",
      consentPage: "/consent",
      clientIdMetadataDocuments: true,
      allowPrivateUrls: true,
    },
  };

  beforeAll(async () => {
    docs = await startDocumentServer();
    server = await startTestServer({ shareable: true, options: OPTIONS });
  });
  afterAll(async () => {
    await new Promise((resolve) => docs?.http.close(resolve));
    await server?.close();
  });
  afterEach(() => expect(server.loggedErrors).toEqual([]));

  /** Serves a document at a fresh path and answers its URL (the client_id). */
  function serve(extra: Record<string, unknown> = {}, response: Omit<Served, "body"> = {}) {
    const path = `/clients/${randomBytes(6).toString("hex")}.json`;
    const clientId = `${docs.origin}${path}`;
    docs.documents.set(path, {
      ...response,
      body: {
        client_id: clientId,
        client_name: "Metadata client",
        redirect_uris: [REDIRECT],
        grant_types: ["authorization_code", "refresh_token"],
        token_endpoint_auth_method: "none",
        ...extra,
      },
    });
    return { clientId, path };
  }

  function authorizeURL(base: string, clientId: string, challenge: string, redirect = REDIRECT) {
    return `${base}/api/auth/oauth2/authorize?${new URLSearchParams({
      client_id: clientId,
      redirect_uri: redirect,
      response_type: "code",
      scope: "openid offline_access",
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "s1",
    })}`;
  }

  /** Authorize and consent: the callback URL, or the page the browser was sent to instead. */
  async function authorizeAndConsent(browser: TestBrowser, base: string, clientId: string, challenge: string) {
    const first = await browser.get(authorizeURL(base, clientId, challenge));
    const next = new URL(first.headers.get("location")!);
    if (next.pathname !== "/consent") return next;
    const answer = await browser.post("/oauth2/consent", { accept: true, oauth_query: next.search.slice(1) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return new URL(answer.body.url);
  }

  it("discovery says so; code + PKCE and refresh as the public client the document describes, fetched once", async () => {
    const discovery = await server.browser().get("/.well-known/openid-configuration");
    expect(discovery.body.client_id_metadata_document_supported).toBe(true);
    const { browser } = await signUp(server);
    const { clientId, path } = serve({}, { headers: { "cache-control": "max-age=300" } });
    const { verifier, challenge } = pkce();
    const callback = await authorizeAndConsent(browser, server.origin, clientId, challenge);
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
    const code = callback.searchParams.get("code")!;
    const token = await browser.request("/oauth2/token", {
      form: {
        grant_type: "authorization_code",
        code,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        client_id: clientId,
      },
    });
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    expect(token.body.refresh_token).toBeDefined();
    const refreshed = await browser.request("/oauth2/token", {
      form: { grant_type: "refresh_token", refresh_token: token.body.refresh_token, client_id: clientId },
    });
    expect(refreshed.status).toBe(200);
    // A secret is never accepted for such a client.
    const withSecret = await browser.request("/oauth2/token", {
      form: {
        grant_type: "refresh_token",
        refresh_token: refreshed.body.refresh_token,
        client_id: clientId,
        client_secret: "x",
      },
    });
    expect([withSecret.status, withSecret.body.error]).toEqual([401, "invalid_client"]);
    // Authorize, consent and two token requests: one fetch, the row served the rest.
    expect(docs.fetches.get(path)).toBe(1);
    const row = await server.auth.database.db
      .selectFrom("oauthClient")
      .select(["name", "tokenEndpointAuthMethod", "userId", "organizationId", "skipConsent"])
      .where("clientId", "=", clientId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      name: "Metadata client",
      tokenEndpointAuthMethod: "none",
      userId: null,
      organizationId: null,
    });
    expect(Boolean(row.skipConsent)).toBe(false);
  });

  it("a redirect URI only from the document; a stale copy is refetched, and another instance shares the fresh one", async () => {
    const { browser } = await signUp(server);
    const { clientId, path } = serve({}, { headers: { "cache-control": "max-age=120" } });
    const { challenge } = pkce();
    const elsewhere = await browser.get(authorizeURL(server.origin, clientId, challenge, "https://evil.example/cb"));
    const errorPage = new URL(elsewhere.headers.get("location")!);
    expect([errorPage.pathname, errorPage.searchParams.get("error")]).toEqual(["/api/auth/error", "invalid_request"]);
    expect(docs.fetches.get(path)).toBe(1);

    const second = await startTestServer({ shareDatabaseWith: server, options: OPTIONS });
    try {
      // Within the copy's lifetime the other instance reads the row and fetches nothing.
      const viaSecond = await second.browser().get(authorizeURL(second.origin, clientId, challenge));
      expect(new URL(viaSecond.headers.get("location")!).pathname).toBe("/sign-in");
      expect(docs.fetches.get(path)).toBe(1);

      // The client moves its callback; once the copy is stale the new document counts.
      const moved = "https://rp.example/moved";
      const served = docs.documents.get(path)!;
      docs.documents.set(path, { ...served, body: { ...(served.body as object), redirect_uris: [moved] } });
      server.clock.advance(121);
      const afterMove = await browser.get(authorizeURL(server.origin, clientId, challenge, moved));
      expect(new URL(afterMove.headers.get("location")!).pathname).toBe("/consent");
      expect(docs.fetches.get(path)).toBe(2);
      const old = await second.browser().get(authorizeURL(second.origin, clientId, challenge));
      expect(new URL(old.headers.get("location")!).searchParams.get("error")).toBe("invalid_request");
      expect(docs.fetches.get(path)).toBe(2);
    } finally {
      await second.close();
    }
  });

  it("refuses documents that lie about their URL, carry a secret, are too large, redirect or are not there", async () => {
    const { browser } = await signUp(server);
    const { challenge } = pkce();
    const refused = async (clientId: string) => {
      const answer = await browser.get(authorizeURL(server.origin, clientId, challenge));
      const page = new URL(answer.headers.get("location")!);
      return [page.pathname, page.searchParams.get("error")];
    };
    const invalid = ["/api/auth/error", "invalid_client"];
    expect(await refused(serve({ client_id: "https://other.example/client.json" }).clientId)).toEqual(invalid);
    expect(await refused(serve({ client_secret: "s" }).clientId)).toEqual(invalid);
    expect(await refused(serve({ token_endpoint_auth_method: "client_secret_basic" }).clientId)).toEqual(invalid);
    expect(await refused(serve({ grant_types: ["client_credentials"] }).clientId)).toEqual(invalid);
    expect(await refused(serve({ redirect_uris: ["http://rp.example/plain"] }).clientId)).toEqual(invalid);
    expect(await refused(serve({ padding: "x".repeat(6000) }).clientId)).toEqual(invalid);
    expect(await refused(serve({}, { status: 302, headers: { location: "/elsewhere" } }).clientId)).toEqual(invalid);
    expect(await refused(`${docs.origin}/clients/missing.json`)).toEqual(invalid);
    // A document that keeps failing is fetched at most 3 times a minute, however often it is named.
    for (let i = 0; i < 4; i++) expect(await refused(`${docs.origin}/clients/missing.json`)).toEqual(invalid);
    expect(docs.fetches.get("/clients/missing.json")).toBe(3);
    // Not a document URL at all (the root path): an unknown client, never fetched.
    expect(await refused(`${docs.origin}/`)).toEqual(invalid);
    expect(docs.fetches.get("/")).toBeUndefined();
    // Nothing refused was kept as a client.
    const kept = await server.auth.database.db
      .selectFrom("oauthClient")
      .select("clientId")
      .where("clientId", "like", `${docs.origin}%`)
      .execute();
    expect(kept.every((row) => docs.fetches.get(new URL(row.clientId).pathname) !== undefined)).toBe(true);
    expect(kept.length).toBe(2);
    server.loggedErrors.length = 0;
  });

  it("without the switch for private addresses, a loopback document is never fetched", async () => {
    const strict = await startTestServer({
      options: { oauthProvider: { ...OPTIONS.oauthProvider, allowPrivateUrls: false } },
    });
    try {
      const { clientId, path } = serve();
      const { browser } = await signUp(strict);
      const answer = await browser.get(authorizeURL(strict.origin, clientId, pkce().challenge));
      expect(new URL(answer.headers.get("location")!).searchParams.get("error")).toBe("invalid_client");
      expect(docs.fetches.get(path)).toBeUndefined();
      expect(strict.loggedErrors).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});

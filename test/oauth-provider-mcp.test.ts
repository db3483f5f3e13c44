import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BearerError, createResourceServer, type ResourceServer } from "../src/server/resource-server.js";
import type { TestBrowser } from "./helpers/browser.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/*
 * The official MCP TypeScript SDK's client against Gatehouse: it meets a 401 at an MCP server
 * guarded by gatehouse-auth/resource-server, finds the resource's RFC 9728 metadata from the
 * challenge, the authorization server from that, registers itself, runs code + PKCE (the browser
 * step is a signed-in session over HTTP), and calls a tool with the token it got.
 */

const CALLBACK = "http://127.0.0.1:1/mcp-client/callback";

/** An MCP server on its own origin whose endpoint is not at the root, guarded by the helper. */
async function startMcpServer(issuerFor: () => string) {
  let guard: ResourceServer | undefined;
  let resource = "";
  const http: Server = createServer(async (req, res) => {
    guard ??= createResourceServer({ resource, issuer: issuerFor(), scopesSupported: ["openid", "offline_access"] });
    if (req.method === "GET" && req.url === guard.metadataPath) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(guard.metadata()));
      return;
    }
    if (!req.url?.startsWith("/tools/mcp")) {
      res.writeHead(404).end();
      return;
    }
    try {
      const claims = await guard.verify({ headers: req.headers });
      (req as IncomingMessage & { auth?: unknown }).auth = {
        token: String(req.headers.authorization).slice("Bearer ".length),
        clientId: claims.client_id,
        scopes: claims.scope.split(" "),
        extra: { sub: claims.sub },
      };
    } catch (error) {
      if (!(error instanceof BearerError)) throw error;
      res.writeHead(error.status, { "www-authenticate": error.challenge }).end();
      return;
    }
    // Stateless: one MCP server and transport per request.
    const mcp = new McpServer({ name: "guarded", version: "1.0.0" });
    mcp.registerTool("whoami", { description: "The caller, as the token says" }, async (extra) => ({
      content: [{ type: "text", text: `${extra.authInfo?.extra?.sub} via ${extra.authInfo?.clientId}` }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  resource = `http://127.0.0.1:${(http.address() as AddressInfo).port}/tools/mcp`;
  return { http, resource };
}

/** The SDK's OAuth client provider, kept in memory; the browser step is a signed-in user consenting over HTTP. */
class TestProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  /** The code the redirect brought back, once the browser step ran. */
  code?: string;
  authorizationURLs: URL[] = [];
  constructor(private readonly browser: TestBrowser) {}
  get redirectUrl() {
    return CALLBACK;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "MCP SDK client",
      redirect_uris: [CALLBACK],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.client = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  async redirectToAuthorization(url: URL) {
    this.authorizationURLs.push(url);
    const toConsent = await this.browser.get(url.toString());
    if (toConsent.status !== 302) throw new Error(`authorize answered ${toConsent.status}`);
    const consent = new URL(toConsent.headers.get("location")!);
    const answer = await this.browser.post("/oauth2/consent", { accept: true, oauth_query: consent.search.slice(1) });
    if (answer.status !== 200) throw new Error(`consent answered ${answer.status} ${JSON.stringify(answer.body)}`);
    const callback = new URL(answer.body.url);
    if (`${callback.origin}${callback.pathname}` !== CALLBACK) throw new Error(`redirected to ${callback}`);
    this.code = callback.searchParams.get("code") ?? undefined;
  }
}

describe("MCP: the official TypeScript SDK's client signs in through Gatehouse and calls a guarded tool", () => {
  let server: TestServer;
  let mcp: Awaited<ReturnType<typeof startMcpServer>>;

  beforeAll(async () => {
    let issuer = "";
    mcp = await startMcpServer(() => issuer);
    server = await startTestServer({
      options: {
        oauthProvider: {
          enabled: true,
          loginPage: "/sign-in",
          consentPage: "/consent",
          allowDynamicClientRegistration: true,
          allowUnauthenticatedClientRegistration: true,
          validAudiences: [mcp.resource],
        },
      },
    });
    issuer = `${server.origin}/api/auth`;
  });
  afterAll(async () => {
    await new Promise((resolve) => mcp?.http.close(resolve));
    await server?.close();
  });
  afterEach(() => expect(server.loggedErrors).toEqual([]));

  it("discovery from the 401, registration, code + PKCE with the resource, then a tool call and a refresh", async () => {
    const { browser, user } = await signUp(server);
    const provider = new TestProvider(browser);
    const first = new StreamableHTTPClientTransport(new URL(mcp.resource), { authProvider: provider });
    const client = new Client({ name: "test-client", version: "1.0.0" });
    const refused = await client.connect(first).catch((error: unknown) => error);
    expect(refused, String(refused)).toBeInstanceOf(UnauthorizedError);
    expect(provider.code).toBeDefined();
    // The SDK asked for this resource (RFC 8707), with S256 PKCE, as the public client it registered.
    const asked = provider.authorizationURLs[0]!;
    expect(`${asked.origin}${asked.pathname}`).toBe(`${server.origin}/api/auth/oauth2/authorize`);
    expect(asked.searchParams.get("resource")).toBe(mcp.resource);
    expect(asked.searchParams.get("code_challenge_method")).toBe("S256");
    expect(asked.searchParams.get("client_id")).toBe(provider.client?.client_id);
    await first.finishAuth(provider.code!);
    expect(provider.saved?.access_token).toBeDefined();
    expect(provider.saved?.refresh_token).toBeDefined();

    const connected = new Client({ name: "test-client", version: "1.0.0" });
    await connected.connect(new StreamableHTTPClientTransport(new URL(mcp.resource), { authProvider: provider }));
    const tools = await connected.listTools();
    expect(tools.tools.map((tool) => tool.name)).toEqual(["whoami"]);
    const result = await connected.callTool({ name: "whoami", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: `${user.id} via ${provider.client?.client_id}` }]);
    await connected.close();

    // An expired or refused access token: the SDK refreshes with its refresh token, no browser step.
    const refreshBefore = provider.saved!.refresh_token;
    provider.saved = { ...provider.saved!, access_token: "not-a-token" };
    provider.authorizationURLs = [];
    const again = new Client({ name: "test-client", version: "1.0.0" });
    await again.connect(new StreamableHTTPClientTransport(new URL(mcp.resource), { authProvider: provider }));
    const second = await again.callTool({ name: "whoami", arguments: {} });
    expect(second.content).toEqual([{ type: "text", text: `${user.id} via ${provider.client?.client_id}` }]);
    expect(provider.authorizationURLs).toEqual([]);
    expect(provider.saved!.refresh_token).not.toBe(refreshBefore);
    await again.close();
  });
});

import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import Provider from "oidc-provider";

/**
 * A real OpenID Connect provider (oidc-provider) on loopback for tests: confidential clients, test
 * users, and an interaction endpoint a test drives over HTTP (the "login form" takes the user's
 * subject and grants whatever the client asked for, or denies).
 */
export interface OidcUser {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
  /** Sent for the `groups` scope (SSO role mapping). */
  groups?: string[];
}

export const CLIENT_ID = "gatehouse-test";
export const CLIENT_SECRET = "gatehouse-test-secret-0123456789abcdef";
/** A second client: its ID tokens carry another audience. */
export const OTHER_CLIENT_ID = "other-app";
export const OTHER_CLIENT_SECRET = "other-app-secret-0123456789abcdef";

/** Where the provider sent the browser at the end: a redirect, or an auto-submitting form_post page. */
export type AuthorizeResult =
  | { kind: "redirect"; location: string }
  | { kind: "form_post"; action: string; fields: Record<string, string> };

export interface TestOidcProvider {
  issuer: string;
  users: Map<string, OidcUser>;
  /** Adds a user; unspecified fields get unique values (email verified by default). */
  addUser(user?: Partial<OidcUser>): OidcUser;
  /** Creates the provider with the clients' redirect URIs (known once the app server is up). */
  configure(redirectUris: string[]): Promise<void>;
  /** Follows an authorization URL through the login and consent interaction as `sub` (or denies). */
  authorize(url: string, sub: string, options?: { deny?: boolean }): Promise<AuthorizeResult>;
  /** A real ID token for `sub`, from a code flow with the given client. */
  idToken(sub: string, options?: { nonce?: string; client?: "main" | "other"; redirectUri?: string }): Promise<string>;
  /** Requests made to the provider, by path (to see which endpoints were used). */
  requests: string[];
  close(): Promise<void>;
}

export async function startOidcProvider(): Promise<TestOidcProvider> {
  const users = new Map<string, OidcUser>();
  const requests: string[] = [];
  let provider: any = null;
  let redirectUris: string[] = [];

  const server: Server = createServer((req, res) => {
    requests.push((req.url ?? "").split("?")[0] ?? "");
    if (!provider) {
      res.statusCode = 503;
      res.end();
      return;
    }
    if (req.url?.startsWith("/interaction/")) {
      handleInteraction(provider, users, req, res).catch((error) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    provider.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fetchProvider = async (jar: Map<string, string>, url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (url.startsWith(issuer) && jar.size > 0) {
      headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
    }
    const response = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === "" || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  };

  const authorize: TestOidcProvider["authorize"] = async (startUrl, sub, options = {}) => {
    // Each flow is a fresh visitor at the provider, with cookies of its own: no remembered login
    // from an earlier test, and flows run at once (Promise.all) do not share a provider session.
    const jar = new Map<string, string>();
    let url = startUrl;
    for (let hop = 0; hop < 20; hop++) {
      if (!url.startsWith(issuer)) return { kind: "redirect", location: url };
      const isInteraction = new URL(url).pathname.startsWith("/interaction/");
      const response = isInteraction
        ? await fetchProvider(jar, `${url.replace(/\/$/, "")}/submit`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams(options.deny ? { deny: "1" } : { login: sub }).toString(),
          })
        : await fetchProvider(jar, url);
      const location = response.headers.get("location");
      if (location) {
        url = new URL(location, url).toString();
        await response.text();
        continue;
      }
      const html = await response.text();
      const form = /<form[^>]*method="post"[^>]*action="([^"]+)"/i.exec(html);
      if (form?.[1]) {
        const fields: Record<string, string> = {};
        for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
          fields[m[1] as string] = decodeHtml(m[2] as string);
        }
        return { kind: "form_post", action: decodeHtml(form[1]), fields };
      }
      throw new Error(`provider answered ${response.status} at ${url}: ${html.slice(0, 300)}`);
    }
    throw new Error("too many redirects at the provider");
  };

  return {
    issuer,
    users,
    requests,
    addUser(user = {}) {
      const id = randomBytes(6).toString("hex");
      const full: OidcUser = {
        sub: user.sub ?? `sub-${id}`,
        email: "email" in user ? user.email : `user-${id}@provider.example`,
        email_verified: user.email_verified ?? true,
        name: user.name ?? `User ${id}`,
        ...(user.picture ? { picture: user.picture } : {}),
        ...(user.groups ? { groups: user.groups } : {}),
      };
      users.set(full.sub, full);
      return full;
    },
    async configure(uris) {
      redirectUris = uris;
      provider = await createProvider(issuer, users, redirectUris);
    },
    authorize,
    async idToken(sub, options = {}) {
      const other = options.client === "other";
      const clientId = other ? OTHER_CLIENT_ID : CLIENT_ID;
      const clientSecret = other ? OTHER_CLIENT_SECRET : CLIENT_SECRET;
      const redirectUri = options.redirectUri ?? (redirectUris[0] as string);
      const verifier = randomBytes(48).toString("base64url");
      const url = new URL(`${issuer}/auth`);
      url.search = new URLSearchParams({
        response_type: "code",
        client_id: clientId,
        redirect_uri: redirectUri,
        scope: "openid email profile",
        state: randomBytes(8).toString("hex"),
        code_challenge: createHash("sha256").update(verifier).digest("base64url"),
        code_challenge_method: "S256",
        ...(options.nonce ? { nonce: options.nonce } : {}),
      }).toString();
      const result = await authorize(url.toString(), sub);
      if (result.kind !== "redirect") throw new Error("expected a redirect");
      const code = new URL(result.location).searchParams.get("code");
      if (!code) throw new Error(`no code in ${result.location}`);
      const token = await fetch(`${issuer}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code,
          redirect_uri: redirectUri,
          code_verifier: verifier,
          client_id: clientId,
          client_secret: clientSecret,
        }).toString(),
      });
      const body = (await token.json()) as { id_token?: string };
      if (!body.id_token) throw new Error(`no id_token: ${JSON.stringify(body)}`);
      return body.id_token;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function createProvider(issuer: string, users: Map<string, OidcUser>, redirectUris: string[]): Promise<any> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: "test-key", alg: "RS256", use: "sig" };
  const client = (client_id: string, client_secret: string) => ({
    client_id,
    client_secret,
    redirect_uris: redirectUris,
    response_types: ["code"],
    grant_types: ["authorization_code", "refresh_token"],
    token_endpoint_auth_method: "client_secret_post",
  });
  const provider = new Provider(issuer, {
    clients: [client(CLIENT_ID, CLIENT_SECRET), client(OTHER_CLIENT_ID, OTHER_CLIENT_SECRET)],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(16).toString("hex")] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "picture"], groups: ["groups"] },
    // Like Google, put the granted scopes' claims (email, name) in the ID token itself.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      RefreshToken: 86400,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx: unknown, sub: string) {
      const user = users.get(sub);
      if (!user) return undefined;
      return { accountId: sub, claims: async () => ({ ...user }) };
    },
  });
  // Quiet: errors surface to the test as HTTP answers.
  provider.on("server_error", () => {});
  return provider;
}

/** The provider's login and consent in one step: log in as the posted subject and grant what was asked. */
async function handleInteraction(
  provider: any,
  users: Map<string, OidcUser>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (req.method !== "POST") {
    res.setHeader("content-type", "text/html");
    res.end(`<form method="post" action="/interaction/${details.uid}/submit"><input name="login"></form>`);
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
  if (form.get("deny")) {
    await provider.interactionFinished(
      req,
      res,
      { error: "access_denied", error_description: "The user denied the request" },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  const accountId = details.prompt.name === "login" ? form.get("login") : details.session?.accountId;
  if (!accountId || !users.has(accountId)) throw new Error(`unknown test user ${accountId}`);
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId, clientId: details.params.client_id });
  grant.addOIDCScope(details.params.scope);
  const result: Record<string, unknown> = { consent: { grantId: await grant.save() } };
  if (details.prompt.name === "login") result.login = { accountId };
  await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: true });
}

function decodeHtml(value: string): string {
  return value
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x2F;/g, "/")
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");
}

/**
 * A token endpoint on loopback in front of the real provider's: it forwards each request and,
 * while `tamper` is on, breaks the signature of the ID token in the provider's answer (one bit of
 * the signature flipped; header and claims untouched). Configure a provider with
 * `tokenEndpoint: proxy.url` to see what a server makes of such a token.
 */
export interface TamperingTokenEndpoint {
  url: string;
  tamper: boolean;
  /** ID tokens whose signature was broken so far. */
  tampered: number;
  close(): Promise<void>;
}

export async function startTamperingTokenEndpoint(oidc: TestOidcProvider): Promise<TamperingTokenEndpoint> {
  const endpoint: TamperingTokenEndpoint = { url: "", tamper: true, tampered: 0, close: async () => {} };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    for (const name of ["content-type", "authorization", "accept"]) {
      const value = req.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    const upstream = await fetch(`${oidc.issuer}/token`, { method: "POST", headers, body: Buffer.concat(chunks) });
    const body = (await upstream.json()) as Record<string, unknown>;
    if (endpoint.tamper && typeof body.id_token === "string") {
      body.id_token = breakSignature(body.id_token);
      endpoint.tampered++;
    }
    res.statusCode = upstream.status;
    res.setHeader("content-type", "application/json");
    res.setHeader("cache-control", "no-store");
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`;
  endpoint.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return endpoint;
}

function breakSignature(jwt: string): string {
  const [header, payload, signature = ""] = jwt.split(".");
  const bytes = Buffer.from(signature, "base64url");
  bytes[0] = (bytes[0] ?? 0) ^ 0x01;
  return `${header}.${payload}.${bytes.toString("base64url")}`;
}

import { createRemoteJWKSet, type JWTPayload, jwtVerify } from "jose";
import { JWT_SIGNING_ALGORITHMS } from "../contract/jwt.js";

/**
 * For a resource server (an API, an MCP server) that accepts Gatehouse's access tokens:
 * `import { createResourceServer } from "gatehouse-auth/resource-server"`. It publishes the
 * resource's metadata (RFC 9728), verifies bearer tokens offline against the issuer's key set
 * (signature, issuer, audience = this resource, type `at+jwt`, expiry, scopes) and, when given a
 * client's credentials, also asks the introspection endpoint, which sees a revocation at once (and
 * reads opaque access tokens, which only it can).
 * It imports jose and one list of algorithms (contract/jwt.ts): nothing of the server comes with it.
 */

export interface ResourceServerOptions {
  /** This resource's identifier: the RFC 8707 `resource` clients ask tokens for (the tokens' `aud`). */
  resource: string;
  /** The Gatehouse issuer, e.g. `https://auth.example.com/api/auth`. */
  issuer: string;
  /** Scopes this resource understands (published in its metadata). */
  scopesSupported?: string[];
  /** A name people see. */
  resourceName?: string;
  /** The issuer's key set; `<issuer>/jwks` by default. */
  jwksUri?: string;
  /**
   * A confidential client of the issuer this server authenticates as to introspect each token, so a
   * revoked grant is refused at once rather than when its access token expires.
   */
  introspection?: { clientId: string; clientSecret: string };
  fetch?: typeof fetch;
}

/** The claims of a verified access token. */
export interface AccessTokenClaims extends JWTPayload {
  sub: string;
  client_id: string;
  scope: string;
}

/** A refused token: the status and the WWW-Authenticate challenge to answer with (RFC 6750 3, RFC 9728 5.1). */
export class BearerError extends Error {
  override name = "BearerError";
  constructor(
    readonly status: 401 | 403,
    readonly error: "invalid_token" | "insufficient_scope" | null,
    readonly challenge: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ResourceServer {
  /** Where the metadata is served (RFC 9728 3.1: the well-known name before the resource's path). */
  readonly metadataPath: string;
  /** The metadata document's URL, as the 401 challenge names it. */
  readonly metadataURL: string;
  metadata(): Record<string, unknown>;
  /** The token's claims, or a BearerError to answer with. */
  verify(
    request: Request | { headers: Headers | Record<string, string | string[] | undefined> },
    need?: { scopes?: string[] },
  ): Promise<AccessTokenClaims>;
  /** A 401/403 Response for a BearerError (a fetch-style server's answer). */
  refusal(error: BearerError): Response;
}

function headerOf(request: Parameters<ResourceServer["verify"]>[0], name: string): string | undefined {
  const { headers } = request;
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export function createResourceServer(options: ResourceServerOptions): ResourceServer {
  const resourceUrl = new URL(options.resource);
  const path = resourceUrl.pathname === "/" ? "" : resourceUrl.pathname.replace(/\/$/, "");
  const metadataPath = `/.well-known/oauth-protected-resource${path}`;
  const metadataURL = `${resourceUrl.origin}${metadataPath}`;
  const jwks = createRemoteJWKSet(new URL(options.jwksUri ?? `${options.issuer}/jwks`));
  const doFetch = options.fetch ?? fetch;
  const challenge = (error?: string, description?: string, scope?: string) =>
    [
      `Bearer resource_metadata="${metadataURL}"`,
      ...(error ? [`error="${error}"`] : []),
      ...(description ? [`error_description="${description.replace(/"/g, "'")}"`] : []),
      ...(scope ? [`scope="${scope}"`] : []),
    ].join(", ");
  const invalid = (description: string) =>
    new BearerError(401, "invalid_token", challenge("invalid_token", description), description);

  /** The introspection answer (RFC 7662): `active` and, when active, the token's claims. */
  async function introspect(token: string): Promise<JWTPayload & { active?: unknown }> {
    const { clientId, clientSecret } = options.introspection!;
    const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString("base64");
    const response = await doFetch(`${options.issuer}/oauth2/introspect`, {
      method: "POST",
      headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token, token_type_hint: "access_token" }),
    });
    if (!response.ok) throw new Error(`introspection failed with ${response.status}`);
    return (await response.json()) as JWTPayload & { active?: unknown };
  }

  return {
    metadataPath,
    metadataURL,
    metadata: () => ({
      resource: options.resource,
      authorization_servers: [options.issuer],
      bearer_methods_supported: ["header"],
      ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
      ...(options.resourceName ? { resource_name: options.resourceName } : {}),
    }),
    async verify(request, need = {}) {
      const header = headerOf(request, "authorization");
      const token = header ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
      if (!token) throw new BearerError(401, null, challenge(), "A bearer token is required");
      let payload: JWTPayload;
      if (!token.includes(".") && options.introspection) {
        // An opaque token (a client's access_token_format): only introspection can read it.
        const answer = await introspect(token);
        const audience = ([] as unknown[]).concat(answer.aud ?? []);
        if (answer.active !== true || answer.iss !== options.issuer || !audience.includes(options.resource)) {
          throw invalid("The token is invalid, expired or not for this resource");
        }
        payload = answer;
      } else {
        try {
          ({ payload } = await jwtVerify(token, jwks, {
            issuer: options.issuer,
            audience: options.resource,
            typ: "at+jwt",
            algorithms: [...JWT_SIGNING_ALGORITHMS],
          }));
        } catch {
          throw invalid("The token is invalid, expired or not for this resource");
        }
        if (options.introspection && (await introspect(token)).active !== true) {
          throw invalid("The token has been revoked");
        }
      }
      const granted = typeof payload.scope === "string" ? payload.scope.split(" ") : [];
      const missing = (need.scopes ?? []).filter((scope) => !granted.includes(scope));
      if (missing.length > 0) {
        const scope = need.scopes!.join(" ");
        throw new BearerError(
          403,
          "insufficient_scope",
          challenge("insufficient_scope", undefined, scope),
          "Scope missing",
        );
      }
      return payload as AccessTokenClaims;
    },
    refusal(error) {
      return new Response(
        JSON.stringify({ error: error.error ?? "invalid_request", error_description: error.message }),
        {
          status: error.status,
          headers: { "content-type": "application/json", "www-authenticate": error.challenge },
        },
      );
    },
  };
}

import { compactVerify, createRemoteJWKSet, customFetch, type JWTPayload, jwtVerify } from "jose";
import type * as OAuth from "oauth4webapi";
import { isLoopbackHostname } from "../loopback.js";
import type { Fetch } from "./public-fetch.js";
import type { Claims, ProviderConfig, ProviderPreset, ProviderProfile, ProviderTokens } from "./types.js";

const REQUEST_TIMEOUT_MS = 10_000;

/** Plain http is refused except on loopback, where tests run a real provider. */
function isLoopbackHttp(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return protocol === "http:" && isLoopbackHostname(hostname);
}

// Loaded at the first request to a provider: an instance with no social provider or OIDC connection
// does without its memory (bench/README.md, lazy loads).
let oauthModule: Promise<typeof OAuth> | undefined;
function loadOAuth(): Promise<typeof OAuth> {
  oauthModule ??= import("oauth4webapi");
  return oauthModule;
}

function requestOptions(oauth: typeof OAuth, url: string | undefined, fetch: Fetch | undefined) {
  return {
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    [oauth.allowInsecureRequests]: url !== undefined && isLoopbackHttp(url),
    ...(fetch ? { [oauth.customFetch]: fetch } : {}),
  };
}

export interface AuthorizationRequest {
  state: string;
  codeVerifier: string;
  nonce: string | null;
  scopes: string[];
  loginHint?: string;
}

/** A token exchange's result: tokens plus the validated ID-token claims, when there was one. */
export interface CodeExchange {
  tokens: ProviderTokens;
  idTokenClaims: Claims | null;
}

/**
 * One configured provider: OAuth 2 / OpenID Connect steps through oauth4webapi, each request kept
 * apart from the processing of its response. Server metadata: the preset's endpoints, or the
 * discovery document of a configured `issuer` (fetched once and cached); an explicit endpoint
 * override always wins.
 */
export class SocialProvider {
  readonly #client: OAuth.Client;
  #metadata: Promise<OAuth.AuthorizationServer> | null = null;
  #jwks: ReturnType<typeof createRemoteJWKSet> | null = null;

  constructor(
    readonly id: string,
    readonly preset: ProviderPreset,
    readonly config: ProviderConfig,
    readonly redirectURI: string,
    private readonly now: () => Date = () => new Date(),
    /** Replaces the global fetch for every request to this provider (SSO connections: sso/oidc-client.service.ts). */
    private readonly fetch?: Fetch,
  ) {
    this.#client = { client_id: config.clientId };
  }

  #clientAuth(oauth: typeof OAuth): OAuth.ClientAuth {
    // No secret: a public client, protected by PKCE alone (and One Tap only verifies tokens).
    return this.config.clientSecret ? oauth.ClientSecretPost(this.config.clientSecret) : oauth.None();
  }

  /** Whether ID tokens can be verified (signature by JWKS): the idToken flow and one-tap need it. */
  get supportsIdToken(): boolean {
    return this.preset.openid;
  }

  get disableSignUp(): boolean {
    return this.config.disableSignUp;
  }

  get defaultScopes(): string[] {
    return this.config.scopes ?? this.preset.scopes;
  }

  /** The server metadata; discovery runs at most once (again only after a failure). */
  metadata(): Promise<OAuth.AuthorizationServer> {
    if (!this.#metadata) {
      this.#metadata = this.#resolveMetadata();
      this.#metadata.catch(() => {
        this.#metadata = null;
      });
    }
    return this.#metadata;
  }

  async #resolveMetadata(): Promise<OAuth.AuthorizationServer> {
    const oauth = await loadOAuth();
    const { config, preset } = this;
    const overrides = {
      authorization_endpoint: config.authorizationEndpoint,
      token_endpoint: config.tokenEndpoint,
      userinfo_endpoint: config.userInfoEndpoint,
      jwks_uri: config.jwksUri,
    };
    const clean = (o: Record<string, string | undefined>) =>
      Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Record<string, string>;
    if (config.issuer) {
      const issuer = new URL(config.issuer);
      const response = await oauth.discoveryRequest(issuer, {
        ...requestOptions(oauth, config.issuer, this.fetch),
        algorithm: "oidc",
      });
      const discovered = await oauth.processDiscoveryResponse(issuer, response);
      return { ...discovered, ...clean(overrides) };
    }
    const authorization = config.authorizationEndpoint ?? preset.authorizationEndpoint;
    return {
      issuer: preset.issuer ?? (authorization ? new URL(authorization).origin : this.id),
      ...clean({
        authorization_endpoint: preset.authorizationEndpoint,
        token_endpoint: preset.tokenEndpoint,
        userinfo_endpoint: preset.userInfoEndpoint,
        jwks_uri: preset.jwksUri,
      }),
      ...clean(overrides),
    };
  }

  // ---- authorization request ----------------------------------------------------------------------

  async authorizationURL(request: AuthorizationRequest): Promise<string> {
    const oauth = await loadOAuth();
    const as = await this.metadata();
    if (!as.authorization_endpoint) throw new Error(`provider ${this.id} has no authorization endpoint`);
    const url = new URL(as.authorization_endpoint);
    const params = url.searchParams;
    params.set("response_type", "code");
    params.set("client_id", this.config.clientId);
    params.set("redirect_uri", this.redirectURI);
    params.set("scope", request.scopes.join(" "));
    params.set("state", request.state);
    params.set("code_challenge", await oauth.calculatePKCECodeChallenge(request.codeVerifier));
    params.set("code_challenge_method", "S256");
    if (request.nonce) params.set("nonce", request.nonce);
    if (request.loginHint) params.set("login_hint", request.loginHint);
    if (this.config.prompt) params.set("prompt", this.config.prompt);
    const responseMode = this.config.responseMode ?? this.preset.responseMode;
    if (responseMode === "form_post") params.set("response_mode", "form_post");
    for (const [key, value] of Object.entries(this.preset.authorizationParams?.(this.config) ?? {})) {
      params.set(key, value);
    }
    return url.toString();
  }

  // ---- callback processing --------------------------------------------------------------------------

  /**
   * Checks the callback parameters (including the RFC 9207 `iss` when the provider sends it) and
   * returns them ready for the exchange; throws for a response that is not from this provider.
   */
  async validateCallback(params: URLSearchParams): Promise<URLSearchParams> {
    const oauth = await loadOAuth();
    const as = await this.metadata();
    return oauth.validateAuthResponse(as, this.#client, params, oauth.skipStateCheck);
  }

  async exchangeCode(validated: URLSearchParams, codeVerifier: string, nonce: string | null): Promise<CodeExchange> {
    const oauth = await loadOAuth();
    const as = await this.metadata();
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      this.#client,
      this.#clientAuth(oauth),
      validated,
      this.redirectURI,
      codeVerifier,
      requestOptions(oauth, as.token_endpoint, this.fetch),
    );
    const result = await oauth.processAuthorizationCodeResponse(as, this.#client, response, {
      expectedNonce: nonce ?? oauth.expectNoNonce,
      requireIdToken: false,
    });
    const claims = oauth.getValidatedIdTokenClaims(result);
    return { tokens: this.#tokens(result, null, null), idTokenClaims: claims ? { ...claims } : null };
  }

  async refresh(refreshToken: string, currentScopes: string[]): Promise<ProviderTokens> {
    const oauth = await loadOAuth();
    const as = await this.metadata();
    const response = await oauth.refreshTokenGrantRequest(
      as,
      this.#client,
      this.#clientAuth(oauth),
      refreshToken,
      requestOptions(oauth, as.token_endpoint, this.fetch),
    );
    const result = await oauth.processRefreshTokenResponse(as, this.#client, response);
    if (result.id_token) await this.verifyIdTokenSignature(result.id_token);
    // A provider may keep the old refresh token (no rotation): it stays valid then.
    return this.#tokens(result, refreshToken, currentScopes);
  }

  #tokens(result: OAuth.TokenEndpointResponse, previousRefresh: string | null, scopes: string[] | null) {
    const now = this.now().getTime();
    const refreshExpiresIn = result.refresh_token_expires_in;
    return {
      accessToken: result.access_token,
      refreshToken: result.refresh_token ?? previousRefresh,
      idToken: result.id_token ?? null,
      accessTokenExpiresAt: typeof result.expires_in === "number" ? new Date(now + result.expires_in * 1000) : null,
      refreshTokenExpiresAt: typeof refreshExpiresIn === "number" ? new Date(now + refreshExpiresIn * 1000) : null,
      scopes: result.scope ? result.scope.split(" ").filter(Boolean) : (scopes ?? []),
    } satisfies ProviderTokens;
  }

  /** The user's claims: the ID token's, merged with the user-info endpoint's when there is one. */
  async fetchUserInfo(accessToken: string, idTokenClaims: Claims | null): Promise<Claims> {
    const oauth = await loadOAuth();
    const as = await this.metadata();
    const endpoint = as.userinfo_endpoint;
    if (!endpoint) {
      if (!idTokenClaims) throw new Error(`provider ${this.id} has neither user-info nor an ID token`);
      return idTokenClaims;
    }
    if (this.preset.fetchUserInfo) {
      return this.preset.fetchUserInfo({
        accessToken,
        userInfoEndpoint: endpoint,
        getJson: (url) => this.#getJson(url, accessToken),
      });
    }
    if (!this.preset.openid) return (await this.#getJson(endpoint, accessToken)) as Claims;
    const response = await oauth.userInfoRequest(
      as,
      this.#client,
      accessToken,
      requestOptions(oauth, endpoint, this.fetch),
    );
    const expectedSubject = typeof idTokenClaims?.sub === "string" ? idTokenClaims.sub : oauth.skipSubjectCheck;
    const info = await oauth.processUserInfoResponse(as, this.#client, expectedSubject, response);
    return { ...idTokenClaims, ...info };
  }

  async #getJson(url: string, accessToken: string): Promise<unknown> {
    const oauth = await loadOAuth();
    const response = await oauth.protectedResourceRequest(
      accessToken,
      "GET",
      new URL(url),
      new Headers({ accept: "application/json" }),
      null,
      requestOptions(oauth, url, this.fetch),
    );
    if (!response.ok) throw new Error(`provider ${this.id} answered ${response.status} from ${new URL(url).pathname}`);
    return response.json();
  }

  mapProfile(claims: Claims): ProviderProfile | null {
    return this.preset.mapProfile(claims);
  }

  /** The provider's key set, fetched when first needed (jose caches it and refetches for an unknown kid). */
  async #keySet(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    const as = await this.metadata();
    if (!as.jwks_uri) throw new Error(`provider ${this.id} has no JWKS`);
    this.#jwks ??= createRemoteJWKSet(new URL(as.jwks_uri), {
      timeoutDuration: REQUEST_TIMEOUT_MS,
      ...(this.fetch ? { [customFetch]: this.fetch } : {}),
    });
    return this.#jwks;
  }

  /**
   * Checks the signature of an ID token the token endpoint sent (its claims were already checked by
   * oauth4webapi, which leaves the signature to TLS as OpenID Connect Core allows). Defence in
   * depth: a token that does not verify against the provider's JWKS is not used. Throws then.
   */
  async verifyIdTokenSignature(token: string): Promise<void> {
    await compactVerify(token, await this.#keySet());
  }

  // ---- ID tokens handed to us by a client (idToken sign-in, one-tap) ----------------------------

  /**
   * Verifies an ID token's signature against the provider's JWKS, its issuer, audience (the client
   * id), expiry and, when given, nonce. Throws when any check fails.
   */
  async verifyIdToken(
    token: string,
    check: { nonce?: string; now: Date; maxAgeSeconds?: number; audience?: string },
  ): Promise<JWTPayload> {
    const as = await this.metadata();
    const keySet = await this.#keySet();
    const issuers = this.config.issuer ? [as.issuer] : (this.preset.idTokenIssuers ?? [as.issuer]);
    const { payload } = await jwtVerify(token, keySet, {
      issuer: issuers,
      audience: check.audience ?? this.config.clientId,
      currentDate: check.now,
      requiredClaims: ["sub", "exp", "iat"],
      ...(check.maxAgeSeconds ? { maxTokenAge: check.maxAgeSeconds } : {}),
    });
    if (check.nonce !== undefined && payload.nonce !== check.nonce) throw new Error("ID token nonce mismatch");
    return payload;
  }
}

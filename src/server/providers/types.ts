/** What Gatehouse needs from a provider's user: the provider's subject, email and display data. */
export interface ProviderProfile {
  /** The provider's stable user id (`sub`): becomes account.accountId. */
  id: string;
  email: string | null;
  /** Whether the provider vouches for the email; implicit account linking depends on it. */
  emailVerified: boolean;
  name: string;
  image: string | null;
}

/** Tokens from a code exchange or a refresh, in plain text (they are encrypted before storage). */
export interface ProviderTokens {
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: Date | null;
  refreshTokenExpiresAt: Date | null;
  scopes: string[];
}

export type Claims = Record<string, unknown>;

/**
 * A preset: only endpoints, scopes and profile mapping (one file per provider, quirks commented
 * where they are handled). Endpoints left out come from the issuer's discovery document.
 */
export interface ProviderPreset {
  /** OpenID Connect: ask for a nonce, read the ID token, allow idToken sign-in. */
  openid: boolean;
  issuer?: string;
  /** Issuers accepted in ID tokens when they differ from `issuer` (Google signs with two spellings). */
  idTokenIssuers?: string[];
  authorizationEndpoint?: string;
  tokenEndpoint?: string;
  userInfoEndpoint?: string;
  jwksUri?: string;
  scopes: string[];
  /** Extra authorization parameters (e.g. Google's include_granted_scopes). */
  authorizationParams?: (config: ProviderConfig) => Record<string, string>;
  /** Providers that post the callback (Apple) instead of redirecting with a query. */
  responseMode?: "form_post";
  /** Maps ID-token claims merged with the user-info response; null when the data has no usable subject. */
  mapProfile(claims: Claims): ProviderProfile | null;
  /** A provider whose user-info needs more than one call (GitHub's emails). */
  fetchUserInfo?: (request: UserInfoFetch) => Promise<Claims>;
}

export interface UserInfoFetch {
  accessToken: string;
  userInfoEndpoint: string;
  /** An authenticated GET returning JSON (oauth4webapi's protected-resource request). */
  getJson(url: string): Promise<unknown>;
}

/** One entry of options.socialProviders after parsing (docs/configuration.md). */
export interface ProviderConfig {
  clientId: string;
  clientSecret: string;
  issuer?: string;
  scopes?: string[];
  disableSignUp: boolean;
  authorizationEndpoint?: string;
  tokenEndpoint?: string;
  userInfoEndpoint?: string;
  jwksUri?: string;
  redirectURI?: string;
  prompt?: string;
  accessType?: string;
  responseMode?: "query" | "form_post";
  tenantId?: string;
  [key: string]: unknown;
}

/** Reads a claim as a non-empty string. */
export function claimString(claims: Claims, key: string): string | null {
  const value = claims[key];
  if (typeof value === "number") return String(value);
  return typeof value === "string" && value.length > 0 ? value : null;
}

/** Providers send email_verified as a boolean, or (some) as the string "true". */
export function claimTrue(claims: Claims, key: string): boolean {
  const value = claims[key];
  return value === true || value === "true";
}

/** The standard OpenID Connect claims mapping, used by the generic provider and most presets. */
export function mapOpenIdClaims(claims: Claims): ProviderProfile | null {
  const id = claimString(claims, "sub");
  if (!id) return null;
  const email = claimString(claims, "email");
  return {
    id,
    email,
    emailVerified: claimTrue(claims, "email_verified"),
    name: claimString(claims, "name") ?? claimString(claims, "preferred_username") ?? email?.split("@")[0] ?? "",
    image: claimString(claims, "picture"),
  };
}

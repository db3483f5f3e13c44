import type { AuthContext } from "../context.js";
import { createTokenCipher, type TokenCipher } from "../crypto/token-cipher.js";
import { AuthError } from "../errors.js";
import { type Fetch, PrivateAddressError, publicFetch } from "../providers/public-fetch.js";
import { SocialProvider } from "../providers/social-provider.js";
import { type Claims, claimString, claimTrue, type ProviderProfile } from "../providers/types.js";
import type { SsoProviderRecord } from "./providers.store.js";

/**
 * A connection's OpenID Connect client is the social sign-in one (providers/social-provider.ts,
 * oauth4webapi): one OAuth client in the codebase. Its id is `sso:<providerId>`, which no social
 * provider can have, so a state started here is refused by /callback/:id and the other way round.
 */
export const SSO_STATE_PREFIX = "sso:";

/** Client secrets of connections are sealed under a key of their own (crypto/token-cipher.ts). */
export const SSO_CLIENT_SECRETS_PURPOSE = "sso-client-secrets";

const ciphers = new WeakMap<object, TokenCipher>();
export function ssoSecretCipher(ctx: AuthContext): TokenCipher {
  let cipher = ciphers.get(ctx.instance);
  if (!cipher) {
    cipher = createTokenCipher(ctx.secret, SSO_CLIENT_SECRETS_PURPOSE);
    ciphers.set(ctx.instance, cipher);
  }
  return cipher;
}

/** A tenant names the issuer, so the server dials public addresses only unless the operator allows more. */
function issuerFetch(ctx: AuthContext): Fetch | undefined {
  return ctx.options.sso.allowPrivateIssuers ? undefined : publicFetch;
}

export function discoveryEndpointOf(issuer: string): string {
  return `${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`;
}

/** The claims each user field is read from, the standard ones unless the connection maps others. */
export interface ClaimMapping {
  id?: string;
  email?: string;
  emailVerified?: string;
  name?: string;
  image?: string;
}

export function mapClaims(claims: Claims, mapping: ClaimMapping): ProviderProfile | null {
  const id = claimString(claims, mapping.id ?? "sub");
  if (!id) return null;
  const email = claimString(claims, mapping.email ?? "email");
  return {
    id,
    email,
    emailVerified: claimTrue(claims, mapping.emailVerified ?? "email_verified"),
    name: claimString(claims, mapping.name ?? "name") ?? email?.split("@")[0] ?? "",
    image: claimString(claims, mapping.image ?? "picture"),
  };
}

const clients = new WeakMap<object, Map<string, { version: string; client: SocialProvider }>>();

/**
 * The client of a connection, kept while the connection is unchanged (its discovery document is
 * read once); null when its secret no longer opens (AUTH_SECRET changed) or it is a SAML connection.
 */
export function ssoClient(ctx: AuthContext, p: SsoProviderRecord, redirectURI: string): SocialProvider | null {
  if (p.type !== "oidc") return null;
  let cache = clients.get(ctx.instance);
  if (!cache) {
    cache = new Map();
    clients.set(ctx.instance, cache);
  }
  // Every field the client is built from: an update within the same millisecond still shows.
  const version = JSON.stringify([p.issuer, p.clientId, p.clientSecret, p.scopes, p.mapping, p.updatedAt.getTime()]);
  const kept = cache.get(p.providerId);
  if (kept && kept.version === version) return kept.client;
  const clientSecret = ssoSecretCipher(ctx).decrypt(p.clientSecret);
  if (clientSecret === null) return null;
  const mapping = JSON.parse(p.mapping) as ClaimMapping;
  const client = new SocialProvider(
    `${SSO_STATE_PREFIX}${p.providerId}`,
    { openid: true, scopes: p.scopes, mapProfile: (claims) => mapClaims(claims, mapping) },
    { clientId: p.clientId, clientSecret, issuer: p.issuer, scopes: p.scopes, disableSignUp: false },
    redirectURI,
    ctx.now,
    issuerFetch(ctx),
  );
  cache.set(p.providerId, { version, client });
  return client;
}

/** Reads the issuer's discovery document before a connection is saved: a typo is a 400 now, not a failed sign-in later. */
export async function probeDiscovery(ctx: AuthContext, issuer: string): Promise<void> {
  const probe = new SocialProvider(
    "sso:probe",
    { openid: true, scopes: [], mapProfile: () => null },
    { clientId: "probe", clientSecret: "", issuer, disableSignUp: false },
    "http://localhost/",
    ctx.now,
    issuerFetch(ctx),
  );
  try {
    await probe.metadata();
  } catch (error) {
    ctx.logger.warn("sso discovery failed", { issuer, error: String(error) });
    if (hasCause(error, PrivateAddressError)) throw new AuthError("ISSUER_NOT_PUBLIC");
    throw new AuthError("DISCOVERY_FAILED");
  }
}

/** undici wraps a connection failure (TypeError "fetch failed", its cause the lookup's error). */
function hasCause(error: unknown, kind: typeof PrivateAddressError): boolean {
  let e: unknown = error;
  while (e instanceof Error) {
    if (e instanceof kind) return true;
    e = e.cause;
  }
  return false;
}

import type { AuthContext } from "../../context.js";
import { sha256Base64Url } from "../../crypto/digest.js";
import { newId } from "../../crypto/random.js";
import { AuthError } from "../../errors.js";
import { isLoopbackHostname } from "../../loopback.js";
import { type Fetch, publicFetch } from "../../providers/public-fetch.js";
import { findClient, type OAuthClient, upsertMetadataDocumentClient } from "../../store/oauth-provider.js";
import { checkMetadata } from "./client-metadata.js";

/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): a `client_id` that
 * is an https URL names a public client whose metadata the server reads from that URL. Whoever
 * controls the URL's host is the client; what the document may assert is a name, links and its
 * redirect URIs, never a secret, first-party standing or an organization. The fetched copy is kept
 * in the client's row, fresh until `metadataDocumentExpiresAt`: every instance reads the same row,
 * so a refresh by one is seen by all, and two instances refreshing at once write the same upsert.
 */

const MAX_DOCUMENT_BYTES = 5 * 1024;
const FETCH_TIMEOUT_MS = 5_000;
const MAX_URL_LENGTH = 1000;
/** How long a copy is kept: the document's max-age within these bounds, the default without one. */
const MIN_TTL_S = 60;
const MAX_TTL_S = 86_400;
const DEFAULT_TTL_S = 3_600;
const ALLOWED_GRANTS = new Set(["authorization_code", "refresh_token"]);
/**
 * Fetches of one document URL per minute: anyone can name a URL, and a document that fails is not
 * kept, so without a bound each request naming it would be a fetch. Counted in the rate-limit
 * store (Redis when instances share one).
 */
const FETCHES_PER_MINUTE = 3;

/** Whether this client_id is a metadata document's URL the server would fetch (the draft's rules). */
export function isMetadataDocumentId(ctx: AuthContext, clientId: string): boolean {
  if (!ctx.options.oauthProvider.clientIdMetadataDocuments) return false;
  if (clientId.length > MAX_URL_LENGTH || !/^https?:\/\//.test(clientId)) return false;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return false;
  }
  const plainAllowed = ctx.options.oauthProvider.allowPrivateUrls && isLoopbackHostname(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && plainAllowed)) return false;
  // A path is required; no fragment, credentials or dot segments (URL would have resolved them away).
  if (url.pathname === "/" || url.hash || url.username || url.password) return false;
  return url.href === clientId && !/\/\.\.?(\/|$)/.test(clientId.slice(url.origin.length));
}

/**
 * The client a request names: a registered one, or (when switched on) the one a metadata document
 * describes, fetched when no fresh copy is kept. Null when there is none or the document cannot be
 * read or is refused: a stale copy is not used (the client may have changed its redirect URIs).
 */
export async function resolveClient(ctx: AuthContext, clientId: string): Promise<OAuthClient | null> {
  if (!isMetadataDocumentId(ctx, clientId)) return clientId.length <= 200 ? findClient(ctx.db, clientId) : null;
  const kept = await findClient(ctx.db, clientId);
  const now = ctx.now();
  if (kept && (kept.metadataDocumentExpiresAt === null || kept.metadataDocumentExpiresAt > now)) return kept;
  const budget = await ctx.rateLimitStore.hit(
    `client-metadata:${sha256Base64Url(clientId)}`,
    60,
    FETCHES_PER_MINUTE,
    now.getTime(),
  );
  if (!budget.allowed) return null;
  let fetched: { document: unknown; ttlSeconds: number };
  try {
    fetched = await fetchDocument(ctx, clientId);
  } catch (error) {
    ctx.logger.warn("client metadata document not read", { clientId, error: String(error) });
    return null;
  }
  let client: OAuthClient;
  try {
    client = clientFromDocument(ctx, clientId, fetched.document, kept);
  } catch (error) {
    ctx.logger.warn("client metadata document refused", { clientId, error: String(error) });
    return null;
  }
  client.metadataDocumentExpiresAt = new Date(now.getTime() + fetched.ttlSeconds * 1000);
  await upsertMetadataDocumentClient(ctx.db, client);
  return (await findClient(ctx.db, clientId)) ?? null;
}

function ttlOf(cacheControl: string | null): number {
  if (!cacheControl) return DEFAULT_TTL_S;
  if (/(^|,)\s*(no-store|no-cache)\s*(,|$)/i.test(cacheControl)) return MIN_TTL_S;
  const maxAge = /(?:^|,)\s*max-age\s*=\s*"?(\d{1,10})"?\s*(?:,|$)/i.exec(cacheControl);
  if (!maxAge) return DEFAULT_TTL_S;
  return Math.min(MAX_TTL_S, Math.max(MIN_TTL_S, Number(maxAge[1])));
}

/** GET the document: no redirects, public addresses only (unless allowed), 5 seconds, 5 KiB. */
async function fetchDocument(ctx: AuthContext, url: string): Promise<{ document: unknown; ttlSeconds: number }> {
  const doFetch: Fetch = ctx.options.oauthProvider.allowPrivateUrls
    ? (input, init) => fetch(input, { ...(init as RequestInit), redirect: "manual" })
    : publicFetch;
  const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  const response = await doFetch(url, { headers: { accept: "application/json" }, signal });
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new Error(`answered ${response.status}`);
  }
  if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(response.headers.get("content-type") ?? "")) {
    await response.body?.cancel();
    throw new Error("not JSON");
  }
  const declared = Number(response.headers.get("content-length") ?? 0);
  if (declared > MAX_DOCUMENT_BYTES) {
    await response.body?.cancel();
    throw new Error("too large");
  }
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_DOCUMENT_BYTES) {
      await reader.cancel();
      throw new Error("too large");
    }
    chunks.push(value);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  return { document: JSON.parse(text), ttlSeconds: ttlOf(response.headers.get("cache-control")) };
}

const stringOr = (value: unknown, fallback: string | null): string | null =>
  typeof value === "string" && value.length > 0 && value.length <= 2000 ? value : fallback;

const stringList = (value: unknown, field: string): string[] => {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > 20 || value.some((v) => typeof v !== "string" || v.length > 2000)) {
    throw new AuthError("OAUTH_INVALID_CLIENT_METADATA", { message: `${field} must be a list of URIs` });
  }
  return [...new Set(value as string[])];
};

/** The client a document describes, checked as a registration's metadata would be, public always. */
function clientFromDocument(
  ctx: AuthContext,
  clientId: string,
  document: unknown,
  kept: OAuthClient | null,
): OAuthClient {
  const refuse = (message: string) => new AuthError("OAUTH_INVALID_CLIENT_METADATA", { message });
  if (typeof document !== "object" || document === null || Array.isArray(document)) throw refuse("not an object");
  const doc = document as Record<string, unknown>;
  if (doc.client_id !== clientId) throw refuse("client_id differs from the document's URL");
  if ("client_secret" in doc || "client_secret_expires_at" in doc) throw refuse("a document carries no secret");
  if (doc.token_endpoint_auth_method !== undefined && doc.token_endpoint_auth_method !== "none") {
    throw refuse("token_endpoint_auth_method must be none");
  }
  const grantTypes =
    doc.grant_types === undefined ? ["authorization_code"] : stringList(doc.grant_types, "grant_types");
  if (grantTypes.some((grant) => !ALLOWED_GRANTS.has(grant))) throw refuse("only authorization_code and refresh_token");
  const redirectUris = stringList(doc.redirect_uris, "redirect_uris");
  const postLogoutRedirectUris = stringList(doc.post_logout_redirect_uris, "post_logout_redirect_uris");
  if (doc.scope !== undefined && typeof doc.scope !== "string") throw refuse("scope must be text");
  const checked = checkMetadata(ctx, {
    scope: doc.scope as string | undefined,
    grantTypes,
    isPublic: true,
    redirectUris,
    postLogoutRedirectUris,
  });
  const now = ctx.now();
  return {
    id: kept?.id ?? newId(),
    clientId,
    clientSecretHash: null,
    name: (stringOr(doc.client_name, null) ?? new URL(clientId).host).slice(0, 200),
    tokenEndpointAuthMethod: "none",
    redirectUris,
    postLogoutRedirectUris,
    grantTypes: checked.grantTypes,
    scopes: checked.scopes,
    clientUri: stringOr(doc.client_uri, null),
    logoUri: stringOr(doc.logo_uri, null),
    skipConsent: false,
    disabled: kept?.disabled ?? false,
    organizationId: null,
    userId: null,
    createdBy: null,
    createdAt: kept?.createdAt ?? now,
    updatedAt: now,
    lastUsedAt: kept?.lastUsedAt ?? null,
    metadataDocumentExpiresAt: null,
    backchannelLogoutUri: null,
    frontchannelLogoutUri: null,
    accessTokenFormat: kept?.accessTokenFormat ?? "jwt",
    registrationAccessTokenHash: null,
  };
}

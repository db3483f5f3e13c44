import type { AuthContext } from "../../context.js";
import { hmacSha256, safeEqual } from "../../crypto/digest.js";
import { deriveKey } from "../../crypto/encryption.js";

/**
 * The authorization request handed to the app's login and consent pages, signed so the pages (and
 * anyone who edits the URL) cannot change it on the way back. better-auth's names: `ba_iat` (when it
 * was signed, ms), `ba_param` (the signed parameter names; its client sends back only those) and
 * `sig`. Older than QUERY_LIFETIME_MS it is refused: the user starts again from the application.
 */
const ISSUED_AT = "ba_iat";
const SIGNED_NAMES = "ba_param";
const SIGNATURE = "sig";
const QUERY_LIFETIME_MS = 30 * 60_000;

function signingSecret(ctx: AuthContext): string {
  return deriveKey(ctx.secret, "oauth-provider-query").toString("base64url");
}

/** Parameters sorted by name then value, so the signature does not depend on their order. */
function canonical(params: URLSearchParams): string {
  const entries = [...params.entries()].filter(([key]) => key !== SIGNATURE);
  entries.sort(([ka, va], [kb, vb]) => (ka < kb ? -1 : ka > kb ? 1 : va < vb ? -1 : va > vb ? 1 : 0));
  return new URLSearchParams(entries).toString();
}

/** The request's parameters with ba_iat, ba_param and sig added (any old ones replaced). */
export function signQuery(ctx: AuthContext, request: URLSearchParams): string {
  const params = new URLSearchParams();
  for (const [key, value] of request) {
    if (key !== ISSUED_AT && key !== SIGNED_NAMES && key !== SIGNATURE) params.append(key, value);
  }
  params.set(ISSUED_AT, String(ctx.now().getTime()));
  for (const name of [...new Set([...params.keys(), SIGNED_NAMES])].sort()) params.append(SIGNED_NAMES, name);
  params.set(SIGNATURE, hmacSha256(signingSecret(ctx), canonical(params), "base64url"));
  return params.toString();
}

/**
 * The request a signed query carries and when it was signed, or null when the signature does not
 * hold, a parameter was added, or it has expired. Unsigned parameters are dropped.
 */
export function verifySignedQuery(
  ctx: AuthContext,
  query: string | URLSearchParams,
): { request: URLSearchParams; signedAt: Date } | null {
  const params = new URLSearchParams(query);
  const signature = params.get(SIGNATURE);
  const names = new Set(params.getAll(SIGNED_NAMES));
  if (!signature || names.size === 0) return null;
  const signed = new URLSearchParams();
  for (const [key, value] of params) if (key !== SIGNATURE && names.has(key)) signed.append(key, value);
  // Every signed name must be there: dropping one (a prompt=login, say) would change the request.
  for (const name of names) if (!signed.has(name)) return null;
  const expected = hmacSha256(signingSecret(ctx), canonical(signed), "base64url");
  if (!safeEqual(signature, expected)) return null;
  const signedAtMs = Number(signed.get(ISSUED_AT));
  const nowMs = ctx.now().getTime();
  if (!Number.isFinite(signedAtMs) || signedAtMs > nowMs + 60_000 || nowMs - signedAtMs > QUERY_LIFETIME_MS) {
    return null;
  }
  const request = new URLSearchParams();
  for (const [key, value] of signed) if (key !== ISSUED_AT && key !== SIGNED_NAMES) request.append(key, value);
  return { request, signedAt: new Date(signedAtMs) };
}

import type { SessionWithUser } from "../../contract/models.js";
import type { AuthContext } from "../context.js";
import { unsignValue } from "../crypto/signed-value.js";
import { lookupSession } from "../services/sessions.js";
import { readCookie } from "./cookie-header.js";
import { cookieName, parseSessionJson, verifyCookieCache } from "./cookies.js";

/** A request's headers: a `Headers`, anything `new Headers()` takes, or a read-only view (Next.js `headers()`). */
export type RequestHeaders = HeadersInit | { get(name: string): string | null };

export interface HeaderSessionOptions {
  /** Read the database even when a valid cookie cache is present (as `?disableCookieCache=true`). */
  disableCookieCache?: boolean;
}

/**
 * What GET /get-session answers for these request headers, read the same way (signed session cookie,
 * then the cookie cache when it verifies and no revocation refuses it, else the database), without a
 * request. It never writes: there is no response to carry a cookie, so a session is not slid forward
 * here (the browser's own get-session does that) and a dead one is only reported as null.
 */
export async function sessionFromHeaders(
  ctx: AuthContext,
  headers: RequestHeaders,
  options: HeaderSessionOptions = {},
): Promise<SessionWithUser | null> {
  const cookieHeader =
    "get" in headers && typeof headers.get === "function"
      ? headers.get("cookie")
      : new Headers(headers as HeadersInit).get("cookie");
  if (!cookieHeader) return null;
  const signedToken = readCookie(cookieHeader, cookieName(ctx, "session_token"));
  const token = signedToken ? unsignValue(signedToken, ctx.secret) : null;
  if (!token) return null;
  if (!options.disableCookieCache) {
    const cached = verifyCookieCache(ctx, readCookie(cookieHeader, cookieName(ctx, "session_data")), token);
    if (cached !== null) return parseSessionJson(cached);
  }
  const lookup = await lookupSession(ctx, token, { refresh: false });
  return lookup.status === "active" ? lookup.data : null;
}

import type { Context } from "hono";
import type { SessionWithUser } from "../../contract/models.js";
import { type Locale, localeFromAcceptLanguage } from "../../i18n/index.js";
import type { AuthContext } from "../context.js";
import { AuthError } from "../errors.js";
import { isSessionFresh, lookupSession, type RequestMeta, type SessionLookup } from "../services/sessions.js";
import { proxiedClientIp } from "./client-ip.js";
import { readSignedCookie, readSignedCookieFromHeader } from "./cookies.js";
import type { AuthEnv } from "./env.js";

/**
 * The caller's session, read from the database, or null. Read at most once per request. The cookie
 * cache is never used here: whatever a route does with the session (write, sign a token, re-send a
 * cookie) must come from the database, so that a revoked or banned session cannot act. Only
 * get-session answers from the cache.
 *
 * A dead session does not clear the cookies here: a request still in flight with an old cookie
 * (after change-password or revoke-sessions handed out a new one) would otherwise overwrite the new
 * cookie with a deletion. get-session, the client's own probe, clears them.
 */
export async function getRequestSession(c: Context<AuthEnv>): Promise<SessionWithUser | null> {
  const known = c.get("session");
  if (known !== undefined) return known;
  const token = readSignedCookie(c, "session_token");
  if (!token) {
    c.set("session", null);
    return null;
  }
  const lookup = await readSessionFromDatabase(c, token, { refresh: false });
  const data = lookup.status === "active" ? lookup.data : null;
  c.set("session", data);
  return data;
}

/**
 * The session for a token, from the database, noting when it was read: a cookie cache written
 * from it carries that instant, so a revocation that lands meanwhile still refuses the copy.
 */
export function readSessionFromDatabase(
  c: Context<AuthEnv>,
  token: string,
  options: { refresh: boolean },
): Promise<SessionLookup> {
  const ctx = c.get("auth");
  c.set("sessionReadAt", ctx.now().getTime());
  return lookupSession(ctx, token, options);
}

/** The caller's session, or 401 UNAUTHORIZED. With `fresh`, also SESSION_NOT_FRESH for an old sign-in. */
export async function requireSession(c: Context<AuthEnv>, options: { fresh?: boolean } = {}): Promise<SessionWithUser> {
  const data = await getRequestSession(c);
  if (!data) throw new AuthError("UNAUTHORIZED");
  if (options.fresh && !isSessionFresh(c.get("auth"), data.session)) throw new AuthError("SESSION_NOT_FRESH");
  return data;
}

export function requestMeta(c: Context<AuthEnv>): RequestMeta {
  const ctx = c.get("auth");
  const ipAddress = ctx.options.advanced.ipAddress.disableIpTracking ? null : c.get("clientIp");
  return {
    ipAddress,
    userAgent: c.req.header("user-agent") ?? null,
    trustedDeviceToken: ctx.options.twoFactor.enabled ? readSignedCookie(c, "trust_device") : null,
    locale: requestLocale(c),
  };
}

/** The language the request asked for (Accept-Language), for the mail it causes; English by default. */
export function requestLocale(c: Context<AuthEnv>): Locale {
  return localeFromAcceptLanguage(c.req.header("accept-language"));
}

// The same from a request's headers, for auth.api calls (their session: header-session.ts).

/** requestMeta for headers: the IP only from the configured proxy headers (there is no socket). */
export function requestMetaFromHeaders(ctx: AuthContext, headers: Headers): RequestMeta {
  const { ipAddressHeaders, disableIpTracking } = ctx.options.advanced.ipAddress;
  return {
    ipAddress: disableIpTracking ? null : proxiedClientIp((name) => headers.get(name), ipAddressHeaders),
    userAgent: headers.get("user-agent"),
    trustedDeviceToken: ctx.options.twoFactor.enabled
      ? readSignedCookieFromHeader(ctx, headers.get("cookie"), "trust_device")
      : null,
    locale: localeFromAcceptLanguage(headers.get("accept-language")),
  };
}

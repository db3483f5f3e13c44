import type { Context } from "hono";
import type { SessionWithUser } from "../../contract/models.js";
import { type Locale, localeFromAcceptLanguage } from "../../i18n/index.js";
import type { AuthContext } from "../context.js";
import { randomString } from "../crypto/random.js";
import { AuthError } from "../errors.js";
import {
  type CallerRead,
  type CallerRulesRows,
  isSessionFresh,
  lookupSessionWith,
  type RequestMeta,
  type RowsOf,
  type SessionLookup,
} from "../services/sessions.js";
import { proxiedClientIp } from "./client-ip.js";
import { readSignedCookie, readSignedCookieFromHeader, writeSignedCookie } from "./cookies.js";
import type { AuthEnv } from "./env.js";

/**
 * The caller's session, read from the database (never the cookie cache, so a revoked session cannot
 * act), or null; at most once per request. A dead session's cookies are cleared only by get-session:
 * a request in flight with an old cookie would otherwise delete a newly issued one.
 */
export async function getRequestSession(c: Context<AuthEnv>): Promise<SessionWithUser | null> {
  const known = c.get("session");
  if (known !== undefined) return known;
  return (await readRequestSession(c, { rows: "none" })).caller;
}

/** getRequestSession's read, with the rows `read` names: the session (or null) is remembered for the request. */
async function readRequestSession<R extends CallerRead>(
  c: Context<AuthEnv>,
  read: R,
  rules = false,
): Promise<{ caller: SessionWithUser | null; rows: RowsOf<R> | undefined; rules?: CallerRulesRows }> {
  const token = readSignedCookie(c, "session_token");
  let caller: SessionWithUser | null = null;
  let rows: RowsOf<R> | undefined;
  let callerRules: CallerRulesRows | undefined;
  if (token) {
    const found = await lookupNotingReadAt(c, token, read, { refresh: false, rules });
    if (found.lookup.status === "active") ({ data: caller } = found.lookup);
    rows = found.rows;
    callerRules = found.rules;
  }
  c.set("session", caller);
  return { caller, rows, rules: callerRules };
}

/**
 * The session for a token, from the database, noting when it was read: a cookie cache written
 * from it carries that instant, so a revocation that lands meanwhile still refuses the copy.
 */
export async function readSessionFromDatabase(
  c: Context<AuthEnv>,
  token: string,
  options: { refresh: boolean },
): Promise<SessionLookup> {
  return (await lookupNotingReadAt(c, token, { rows: "none" }, options)).lookup;
}

/** lookupSessionWith, noting when the session was read (readSessionFromDatabase says why). */
function lookupNotingReadAt<R extends CallerRead>(
  c: Context<AuthEnv>,
  token: string,
  read: R,
  options: { refresh: boolean; rules?: boolean },
): ReturnType<typeof lookupSessionWith<R>> {
  const ctx = c.get("auth");
  // One clock reading for the stamp and the session's expiry check: a Date each cost more than the checks.
  const now = ctx.now();
  c.set("sessionReadAt", now.getTime());
  return lookupSessionWith(ctx, token, read, options, now);
}

/** The caller's session, or 401 UNAUTHORIZED. With `fresh`, also SESSION_NOT_FRESH for an old sign-in. */
export async function requireSession(c: Context<AuthEnv>, options: { fresh?: boolean } = {}): Promise<SessionWithUser> {
  return checkRequired(c, await getRequestSession(c), options);
}

function checkRequired(c: Context<AuthEnv>, caller: SessionWithUser | null, options: { fresh?: boolean }) {
  if (!caller) throw new AuthError("UNAUTHORIZED");
  if (options.fresh && !isSessionFresh(c.get("auth"), caller.session)) throw new AuthError("SESSION_NOT_FRESH");
  return caller;
}

/**
 * requireSession with the rows `read` names, read in the session lookup's statement: one round
 * trip where two were. The same lookup and rules as getRequestSession's. With `rules`, the same
 * statement reads what organization policy needs of the caller (undefined when it could not).
 */
export async function requireSessionWith<R extends CallerRead>(
  c: Context<AuthEnv>,
  read: R,
  options: { fresh?: boolean; rules?: boolean } = {},
): Promise<{ caller: SessionWithUser; rows: RowsOf<R>; rules?: CallerRulesRows }> {
  const found = await readRequestSession(c, read, options.rules === true);
  return { caller: checkRequired(c, found.caller, options), rows: found.rows as RowsOf<R>, rules: found.rules };
}

export function requestMeta(c: Context<AuthEnv>): RequestMeta {
  const ctx = c.get("auth");
  const ipAddress = ctx.options.advanced.ipAddress.disableIpTracking ? null : c.get("clientIp");
  return {
    ipAddress,
    userAgent: c.req.header("user-agent") ?? null,
    trustedDeviceToken: ctx.options.twoFactor.enabled ? readSignedCookie(c, "trust_device") : null,
    locale: requestLocale(c),
    deviceId: ctx.options.securityActivity.enabled ? deviceIdOf(c) : null,
  };
}

/** Two years: as long as browsers keep a cookie (they cap it at 400 days and it is renewed on sign-in). */
const DEVICE_COOKIE_SECONDS = 400 * 86400;

/**
 * The browser's device id (docs/security-activity.md): a random id in a signed, HttpOnly cookie,
 * given on the first request that may sign in and renewed each time, so a sign-in can tell a browser
 * the account has used before from one it has not.
 */
function deviceIdOf(c: Context<AuthEnv>): string {
  const id = readSignedCookie(c, "device") ?? randomString(32);
  writeSignedCookie(c, "device", id, DEVICE_COOKIE_SECONDS);
  return id;
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

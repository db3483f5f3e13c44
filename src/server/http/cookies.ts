import type { Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import type { CookieOptions } from "hono/utils/cookie";
import type { SessionWithUser } from "../../contract/models.js";
import type { AuthContext } from "../context.js";
import { hmacSha256, safeEqual } from "../crypto/digest.js";
import { signValue, unsignValue } from "../crypto/signed-value.js";
import { isLoopbackHostname } from "../loopback.js";
import { readCookie } from "./cookie-header.js";
import type { AuthEnv } from "./env.js";

/** Browsers refuse cookies over this size (SPEC 9: 4093 characters for name, value and attributes). */
const COOKIE_SIZE_LIMIT = 4093;

export type CookieName =
  | "session_token"
  | "session_data"
  | "dont_remember"
  | "state"
  | "admin_session"
  | "two_factor"
  | "trust_device"
  | "passkey_challenge"
  | "link_requester"
  | "device"
  | "saml_flow"
  | "setup_link";

/**
 * `[__Host-]<prefix>.<name>`. Secure cookies take the `__Host-` prefix (Gatehouse never sets a
 * Domain and always Path=/): browsers then refuse the name from a sibling subdomain or over http, so
 * nobody can plant a session cookie (login CSRF, session fixation). docs/wire-decisions.md says why
 * not `__Secure-`.
 */
export function cookieName(ctx: AuthContext, name: CookieName): string {
  const base = `${ctx.options.advanced.cookiePrefix}.${name}`;
  return ctx.options.advanced.useSecureCookies ? `__Host-${base}` : base;
}

/** `crossSite`: SameSite=None, which browsers take only with Secure (the SAML flow cookie). */
function attributes(ctx: AuthContext, maxAge?: number, crossSite = false): CookieOptions {
  return {
    path: "/",
    httpOnly: true,
    sameSite: crossSite ? "None" : "Lax",
    secure: crossSite || ctx.options.advanced.useSecureCookies,
    ...(maxAge === undefined ? {} : { maxAge }),
  };
}

/** One cookie of the request, as Hono's getCookie reads it, without parsing every other cookie. */
function requestCookie(c: Context<AuthEnv>, name: CookieName): string | undefined {
  const header = c.req.raw.headers.get("cookie");
  return header ? readCookie(header, cookieName(c.get("auth"), name)) : undefined;
}

/** Reads a signed cookie's value; a forged or malformed one reads as absent. */
export function readSignedCookie(c: Context<AuthEnv>, name: CookieName): string | null {
  const raw = requestCookie(c, name);
  return raw ? unsignValue(raw, c.get("auth").secret) : null;
}

/** The same, from a raw Cookie header: for auth.api calls, which get a request's headers, not a request. */
export function readSignedCookieFromHeader(
  ctx: AuthContext,
  cookieHeader: string | null,
  name: CookieName,
): string | null {
  if (!cookieHeader) return null;
  const raw = readCookie(cookieHeader, cookieName(ctx, name));
  return raw ? unsignValue(raw, ctx.secret) : null;
}

export function writeSignedCookie(c: Context<AuthEnv>, name: CookieName, value: string, maxAge?: number): void {
  const ctx = c.get("auth");
  setCookie(c, cookieName(ctx, name), signValue(value, ctx.secret), attributes(ctx, maxAge));
}

/**
 * The SAML flow cookie binds an IdP's response to the browser that started the flow. The IdP posts
 * cross-site, which Lax cookies do not survive, so this one is SameSite=None, which browsers accept
 * only with Secure: over https, or on a loopback host (browsers count it as secure). Elsewhere (plain
 * http on a network name) it would be dropped, so the flow is not bound there (docs/sso.md).
 */
export function samlFlowBinding(ctx: AuthContext): boolean {
  if (ctx.options.advanced.useSecureCookies) return true;
  const host = new URL(ctx.baseURL).hostname;
  // Browsers count the whole 127.0.0.0/8 as loopback.
  return isLoopbackHostname(host) || host.startsWith("127.");
}

export function writeSamlFlowCookie(c: Context<AuthEnv>, state: string, maxAge: number): void {
  const ctx = c.get("auth");
  setCookie(c, cookieName(ctx, "saml_flow"), signValue(state, ctx.secret), attributes(ctx, maxAge, true));
}

/**
 * The cookies a flow to an identity provider starts with: the signed `state`, and for SAML (whose
 * response comes back as a cross-site POST) the SameSite=None flow cookie where one can be set.
 */
export function writeFlowCookies(c: Context<AuthEnv>, flow: { state: string; saml?: true }, maxAge: number): void {
  writeSignedCookie(c, "state", flow.state, maxAge);
  if (flow.saml && samlFlowBinding(c.get("auth"))) writeSamlFlowCookie(c, flow.state, maxAge);
}

export function expireSamlFlowCookie(c: Context<AuthEnv>): void {
  const ctx = c.get("auth");
  deleteCookie(c, cookieName(ctx, "saml_flow"), attributes(ctx, undefined, true));
}

export function expireCookie(c: Context<AuthEnv>, name: CookieName): void {
  const ctx = c.get("auth");
  deleteCookie(c, cookieName(ctx, name), attributes(ctx));
}

/**
 * Sets the session cookie (and the cookie cache when enabled). A browser-session cookie, with the
 * `dont_remember` marker, when the user chose not to be remembered.
 */
export function writeSessionCookies(
  c: Context<AuthEnv>,
  data: SessionWithUser,
  options: { rememberMe: boolean },
): void {
  const ctx = c.get("auth");
  // The cookie lives as long as the session: never past its absolute lifetime.
  const maxAge = options.rememberMe
    ? Math.max(0, Math.ceil((data.session.expiresAt.getTime() - ctx.now().getTime()) / 1000))
    : undefined;
  writeSignedCookie(c, "session_token", data.session.token, maxAge);
  if (options.rememberMe) {
    if (requestCookie(c, "dont_remember")) expireCookie(c, "dont_remember");
  } else {
    writeSignedCookie(c, "dont_remember", "true");
  }
  writeCookieCache(c, data, options);
}

/** Expires every cookie the session uses (sign-out, revocation, expiry, deletion). */
export function clearSessionCookies(c: Context<AuthEnv>): void {
  expireCookie(c, "session_token");
  expireCookie(c, "session_data");
  expireCookie(c, "dont_remember");
}

/** Whether the browser asked not to be remembered (a valid signed `dont_remember` cookie). */
export function isDontRemember(c: Context<AuthEnv>): boolean {
  return readSignedCookie(c, "dont_remember") === "true";
}

// ---- cookie cache -------------------------------------------------------------------------------
// `<base64url(JSON of {session, user})>.<user id>.<read at ms>.<session expiry ms>.<signature>`, signed
// with the session token bound in, so a copy only verifies beside its own session cookie and its JSON
// is answered as it is. "Read at" dates the copy for maxAge and for revocations (user id outside the JSON).

function cacheSignature(ctx: AuthContext, token: string, fields: string) {
  return hmacSha256(ctx.secret, `session_data:${token}:${fields}`, "base64url");
}

/**
 * A short-lived signed copy of the session and user, so get-session can answer without the database.
 * Only ever written from a session this request read (or created) in the database.
 */
export function writeCookieCache(c: Context<AuthEnv>, data: SessionWithUser, options: { rememberMe: boolean }): void {
  const ctx = c.get("auth");
  const cache = ctx.options.session.cookieCache;
  if (!cache.enabled) return;
  const json = JSON.stringify(data);
  const readAt = c.get("sessionReadAt") ?? ctx.now().getTime();
  const fields = `${Buffer.from(json).toString("base64url")}.${data.user.id}.${readAt}.${data.session.expiresAt.getTime()}`;
  const value = `${fields}.${cacheSignature(ctx, data.session.token, fields)}`;
  const name = cookieName(ctx, "session_data");
  if (name.length + value.length + 100 > COOKIE_SIZE_LIMIT) {
    // Too large for a browser to keep: answer from the database instead of sending a cookie that is dropped.
    expireCookie(c, "session_data");
    return;
  }
  setCookie(c, name, value, attributes(ctx, options.rememberMe ? cache.maxAge : undefined));
}

/**
 * The cached `{session, user}` JSON, exactly as get-session answers it, when the signature holds for
 * this session token, neither the copy nor the session has expired, no revocation since the copy was
 * read refuses it, and the user in it is not banned.
 */
export function readCookieCacheJson(c: Context<AuthEnv>, sessionToken: string): string | null {
  const ctx = c.get("auth");
  if (!ctx.options.session.cookieCache.enabled) return null;
  return verifyCookieCache(ctx, requestCookie(c, "session_data"), sessionToken);
}

/** readCookieCacheJson on a cookie value already read (the server API reads it from plain headers). */
export function verifyCookieCache(ctx: AuthContext, raw: string | undefined, sessionToken: string): string | null {
  const { enabled, maxAge } = ctx.options.session.cookieCache;
  if (!enabled || !raw) return null;
  const cut = raw.lastIndexOf(".");
  const fields = raw.slice(0, cut);
  const [encoded, userId, readAt, sessionExpires, extra] = fields.split(".");
  if (cut < 0 || !encoded || !userId || !readAt || !sessionExpires || extra !== undefined) return null;
  const nowMs = ctx.now().getTime();
  const readAtMs = Number(readAt);
  // A stamp from the future (another instance's clock, beyond the allowed skew) is not trusted either.
  if (!(readAtMs + maxAge * 1000 > nowMs) || !(readAtMs <= nowMs + 1000) || !(Number(sessionExpires) > nowMs))
    return null;
  if (!safeEqual(raw.slice(cut + 1), cacheSignature(ctx, sessionToken, fields))) return null;
  if (!ctx.revocations.trusts(userId, readAtMs)) return null;
  const json = Buffer.from(encoded, "base64url").toString("utf8");
  // A banned user never gets a copy; should one appear, the database decides. The pattern can only
  // over-match (a name containing it), which costs a database read, never a wrong answer.
  return json.includes('"banned":true') ? null : json;
}

/** `{session, user}` JSON back into objects with their Date fields. */
export function parseSessionJson(json: string): SessionWithUser {
  const { session, user } = JSON.parse(json) as SessionWithUser;
  return {
    session: { ...session, ...dates(session, ["expiresAt", "createdAt", "updatedAt"]) },
    user: { ...user, ...dates(user, ["createdAt", "updatedAt", "banExpires"]) },
  };
}

function dates<T extends object>(value: T, keys: (keyof T)[]): Partial<T> {
  const revived: Partial<T> = {};
  for (const key of keys) {
    const raw = value[key] as unknown;
    if (typeof raw === "string") revived[key] = new Date(raw) as T[keyof T];
  }
  return revived;
}

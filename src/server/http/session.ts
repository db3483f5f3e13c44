import type { Context } from "hono";
import type { SessionWithUser } from "../../contract/models.js";
import { AuthError } from "../errors.js";
import { isSessionFresh, lookupSession, type RequestMeta } from "../services/sessions.js";
import { readCookieCache, readSignedCookie } from "./cookies.js";
import type { AuthEnv } from "./env.js";

export interface SessionReadOptions {
  /** Sensitive routes read the database and ignore the cookie cache (a revoked session must not act). */
  sensitive?: boolean;
}

/**
 * The caller's session, or null. Read at most once per request. A dead session does not clear the
 * cookies here: a request still in flight with an old cookie (after change-password or
 * revoke-sessions handed out a new one) would otherwise overwrite the new cookie with a deletion.
 * get-session, the client's own probe, clears them.
 */
export async function getRequestSession(
  c: Context<AuthEnv>,
  options: SessionReadOptions = {},
): Promise<SessionWithUser | null> {
  const known = c.get("session");
  if (known !== undefined && !(options.sensitive && known)) return known;
  const token = readSignedCookie(c, "session_token");
  if (!token) {
    c.set("session", null);
    return null;
  }
  if (!options.sensitive) {
    const cached = readCookieCache(c, token);
    if (cached) {
      c.set("session", cached);
      return cached;
    }
  }
  const lookup = await lookupSession(c.get("auth"), token, { refresh: false });
  if (lookup.status !== "active") {
    c.set("session", null);
    return null;
  }
  c.set("session", lookup.data);
  return lookup.data;
}

/** The caller's session, or 401 UNAUTHORIZED. With `fresh`, also SESSION_NOT_FRESH for an old sign-in. */
export async function requireSession(
  c: Context<AuthEnv>,
  options: SessionReadOptions & { fresh?: boolean } = {},
): Promise<SessionWithUser> {
  const data = await getRequestSession(c, options);
  if (!data) throw new AuthError("UNAUTHORIZED");
  if (options.fresh && !isSessionFresh(c.get("auth"), data.session)) throw new AuthError("SESSION_NOT_FRESH");
  return data;
}

export function requestMeta(c: Context<AuthEnv>): RequestMeta {
  const ctx = c.get("auth");
  if (ctx.options.advanced.ipAddress.disableIpTracking)
    return { ipAddress: null, userAgent: c.req.header("user-agent") ?? null };
  return { ipAddress: c.get("clientIp"), userAgent: c.req.header("user-agent") ?? null };
}

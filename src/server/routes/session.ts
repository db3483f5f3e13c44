import type { Context } from "hono";
import { accountEndpoints } from "../../contract/endpoints/index.js";
import type { SessionWithUser } from "../../contract/models.js";
import {
  clearSessionCookies,
  isDontRemember,
  readCookieCacheJson,
  readSignedCookie,
  writeCookieCache,
  writeSessionCookies,
} from "../http/cookies.js";
import type { AuthEnv } from "../http/env.js";
import { JsonReply, type Route } from "../http/route.js";
import { fieldSource } from "../http/server-call.js";
import { readSessionFromDatabase } from "../http/session.js";
import { issueSessionToken } from "../services/jwt.js";
import { updateSession } from "../services/session-fields.js";
import {
  listedSessions,
  liveSessionsRead,
  revokeOtherSessions,
  revokeSession,
  sessionReply,
  signOut,
  signOutEverywhere,
} from "../services/sessions.js";
import { updateUser } from "../services/users.js";

/** With jwt.setAuthJwtHeader, get-session also hands out a fresh JWT in `set-auth-jwt`. */
async function attachSessionJwt(c: Context<AuthEnv>, data: SessionWithUser): Promise<void> {
  c.header("set-auth-jwt", await issueSessionToken(c.get("auth"), data));
  c.header("Access-Control-Expose-Headers", "set-auth-jwt");
}

export function sessionRoutes(route: Route): void {
  route(accountEndpoints.getSession, async (c, { query }) => {
    c.header("Cache-Control", "no-store");
    c.header("Pragma", "no-cache");
    const token = readSignedCookie(c, "session_token");
    if (!token) return null;
    const ctx = c.get("auth");
    // A JWT is only ever signed for a session read from the database, so set-auth-jwt skips the cache.
    const { jwt } = ctx.options;
    const withJwt = jwt.enabled && jwt.setAuthJwtHeader;
    if (!query.disableCookieCache && !withJwt) {
      const cachedJson = readCookieCacheJson(c, token);
      if (ctx.options.session.cookieCache.enabled) ctx.cacheCounts.cookieCache[cachedJson ? "hits" : "misses"] += 1;
      if (cachedJson !== null) return new JsonReply(cachedJson);
    }
    const dontRemember = isDontRemember(c);
    const lookup = await readSessionFromDatabase(c, token, { refresh: !dontRemember && !query.disableRefresh });
    if (lookup.status !== "active") {
      clearSessionCookies(c);
      return null;
    }
    if (lookup.refreshed) writeSessionCookies(c, lookup.data, { rememberMe: true });
    else writeCookieCache(c, lookup.data, { rememberMe: !dontRemember });
    // Awaited only when there is a JWT to sign: a turn per request otherwise.
    if (withJwt) await attachSessionJwt(c, lookup.data);
    return sessionReply(ctx, lookup, token);
  });

  route(accountEndpoints.signOut, async (c) => {
    const token = readSignedCookie(c, "session_token");
    if (token) await signOut(c.get("auth"), token);
    clearSessionCookies(c);
    return { success: true };
  });

  route(accountEndpoints.updateUser, async (c, { body, caller: { session } }) => {
    const user = await updateUser(c.get("auth"), session.userId, body, fieldSource(c));
    writeSessionCookies(c, { session, user }, { rememberMe: !isDontRemember(c) });
    return { status: true };
  });

  route(accountEndpoints.updateSession, async (c, { body, caller }) => {
    const { session } = await updateSession(c.get("auth"), caller, body);
    // A cookie cache copy must carry the new values.
    writeSessionCookies(c, { session, user: caller.user }, { rememberMe: !isDontRemember(c) });
    return { session };
  });

  route(accountEndpoints.listSessions, (_c, { caller, rows }) => listedSessions(rows, caller.session), {
    reads: liveSessionsRead,
  });

  route(accountEndpoints.revokeSession, async (c, { body: { token }, caller: { session } }) => {
    await revokeSession(c.get("auth"), session.userId, token);
    if (token === session.token || token === session.id) clearSessionCookies(c);
    return { status: true };
  });

  route(accountEndpoints.revokeSessions, async (c, { caller: { session } }) => {
    await signOutEverywhere(c.get("auth"), session.userId);
    clearSessionCookies(c);
    return { status: true };
  });

  route(accountEndpoints.revokeOtherSessions, async (c, { caller: { session } }) => {
    await revokeOtherSessions(c.get("auth"), session);
    return { status: true };
  });
}

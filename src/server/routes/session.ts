import type { Context, Hono } from "hono";
import { getSessionQuery, revokeSessionBody, updateSessionBody, updateUserBody } from "../../contract/account.js";
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
import { readBody, readQuery } from "../http/input.js";
import { readSessionFromDatabase, requireSession } from "../http/session.js";
import { issueSessionToken } from "../services/jwt.js";
import { refuseSessionUpdate } from "../services/session-fields.js";
import { listSessions, revokeOtherSessions, revokeSession, signOut, signOutEverywhere } from "../services/sessions.js";
import { updateUser } from "../services/users.js";

/** With jwt.setAuthJwtHeader, get-session also hands out a fresh JWT in `set-auth-jwt`. */
async function attachSessionJwt(c: Context<AuthEnv>, data: SessionWithUser): Promise<void> {
  const { jwt } = c.get("auth").options;
  if (!jwt.enabled || !jwt.setAuthJwtHeader) return;
  c.header("set-auth-jwt", await issueSessionToken(c.get("auth"), data));
  c.header("Access-Control-Expose-Headers", "set-auth-jwt");
}

export function sessionRoutes(app: Hono<AuthEnv>): void {
  app.get("/get-session", async (c) => {
    c.header("Cache-Control", "no-store");
    c.header("Pragma", "no-cache");
    const query = readQuery(c, getSessionQuery);
    const token = readSignedCookie(c, "session_token");
    if (!token) return c.json(null);
    const ctx = c.get("auth");
    // A JWT is only ever signed for a session read from the database, so set-auth-jwt skips the cache.
    if (!query.disableCookieCache && !(ctx.options.jwt.enabled && ctx.options.jwt.setAuthJwtHeader)) {
      const cachedJson = readCookieCacheJson(c, token);
      if (cachedJson !== null) return c.body(cachedJson, 200, { "Content-Type": "application/json" });
    }
    const dontRemember = isDontRemember(c);
    const lookup = await readSessionFromDatabase(c, token, { refresh: !dontRemember && !query.disableRefresh });
    if (lookup.status !== "active") {
      clearSessionCookies(c);
      return c.json(null);
    }
    if (lookup.refreshed) writeSessionCookies(c, lookup.data, { rememberMe: true });
    else writeCookieCache(c, lookup.data, { rememberMe: !dontRemember });
    await attachSessionJwt(c, lookup.data);
    return c.json(lookup.data);
  });

  app.post("/sign-out", async (c) => {
    const token = readSignedCookie(c, "session_token");
    if (token) await signOut(c.get("auth"), token);
    clearSessionCookies(c);
    return c.json({ success: true });
  });

  app.post("/update-user", async (c) => {
    const body = readBody(c, updateUserBody);
    const { session } = await requireSession(c);
    const user = await updateUser(c.get("auth"), session.userId, body);
    writeSessionCookies(c, { session, user }, { rememberMe: !isDontRemember(c) });
    return c.json({ status: true });
  });

  app.post("/update-session", async (c) => {
    const body = readBody(c, updateSessionBody);
    await requireSession(c);
    refuseSessionUpdate(body);
  });

  app.get("/list-sessions", async (c) => {
    const { session } = await requireSession(c);
    return c.json(await listSessions(c.get("auth"), session));
  });

  app.post("/revoke-session", async (c) => {
    const { token } = readBody(c, revokeSessionBody);
    const { session } = await requireSession(c);
    await revokeSession(c.get("auth"), session.userId, token);
    if (token === session.token || token === session.id) clearSessionCookies(c);
    return c.json({ status: true });
  });

  app.post("/revoke-sessions", async (c) => {
    const { session } = await requireSession(c);
    await signOutEverywhere(c.get("auth"), session.userId);
    clearSessionCookies(c);
    return c.json({ status: true });
  });

  app.post("/revoke-other-sessions", async (c) => {
    const { session } = await requireSession(c);
    await revokeOtherSessions(c.get("auth"), session);
    return c.json({ status: true });
  });
}

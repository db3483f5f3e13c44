import type { Context } from "hono";
import type { SessionWithUser } from "../../contract/models.js";
import type { ActiveChange } from "../services/organization-access.js";
import { isDontRemember, writeSessionCookies } from "./cookies.js";
import type { AuthEnv } from "./env.js";

/**
 * After a route changed the caller's active organization or team, re-sends the session cookie (and
 * the cookie cache) so that a cached session never shows the old values.
 */
export function applyActiveChange(c: Context<AuthEnv>, data: SessionWithUser, change: ActiveChange | null): void {
  if (!change) return;
  const updated: SessionWithUser = { session: { ...data.session, ...change }, user: data.user };
  c.set("session", updated);
  writeSessionCookies(c, updated, { rememberMe: !isDontRemember(c) });
}

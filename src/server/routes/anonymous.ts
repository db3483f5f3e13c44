import type { Hono } from "hono";
import { clearSessionCookies, writeSessionCookies } from "../http/cookies.js";
import type { AuthEnv } from "../http/env.js";
import { getRequestSession, requestMeta, requireSession } from "../http/session.js";
import { deleteAnonymousUser, signInAnonymously } from "../services/anonymous.js";

export function anonymousRoutes(app: Hono<AuthEnv>): void {
  app.post("/sign-in/anonymous", async (c) => {
    const ctx = c.get("auth");
    if (!ctx.options.anonymous.enabled) return c.body(null, 404);
    const data = await signInAnonymously(ctx, await getRequestSession(c), requestMeta(c));
    writeSessionCookies(c, data, { rememberMe: true });
    return c.json({ token: data.session.token, user: data.user });
  });

  app.post("/delete-anonymous-user", async (c) => {
    const ctx = c.get("auth");
    if (!ctx.options.anonymous.enabled) return c.body(null, 404);
    await deleteAnonymousUser(ctx, await requireSession(c));
    clearSessionCookies(c);
    return c.json({ success: true });
  });
}

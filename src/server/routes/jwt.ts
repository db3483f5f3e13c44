import type { Hono } from "hono";
import { AuthError } from "../errors.js";
import type { AuthEnv } from "../http/env.js";
import { requireSession } from "../http/session.js";
import { issueSessionToken, publicKeySet } from "../services/jwt.js";

export function jwtRoutes(app: Hono<AuthEnv>): void {
  app.get("/jwks", async (c) => {
    const ctx = c.get("auth");
    if (!ctx.options.jwt.enabled) throw new AuthError("NOT_FOUND");
    c.header("Cache-Control", "public, max-age=300");
    return c.json(await publicKeySet(ctx));
  });

  app.get("/token", async (c) => {
    const ctx = c.get("auth");
    if (!ctx.options.jwt.enabled) throw new AuthError("NOT_FOUND");
    const data = await requireSession(c);
    c.header("Cache-Control", "no-store");
    return c.json({ token: await issueSessionToken(ctx, data) });
  });
}

import type { Hono } from "hono";
import { cors } from "hono/cors";
import type { AuthContext } from "../context.js";
import type { AuthEnv } from "./env.js";

/**
 * CORS for browser-based OAuth clients on other origins (oauthProvider.corsOrigins): the token,
 * UserInfo and revocation endpoints, and discovery and the key set they start from. Only the listed
 * origins are named in Access-Control-Allow-Origin, never with credentials: these endpoints take a
 * client's own credentials or a bearer token, never the user's cookie.
 */
const PATHS = [
  "/oauth2/token",
  "/oauth2/userinfo",
  "/oauth2/revoke",
  "/.well-known/openid-configuration",
  "/.well-known/oauth-authorization-server",
  "/jwks",
];

export function applyOAuthCors(app: Hono<AuthEnv>, ctx: AuthContext): void {
  const { enabled, corsOrigins } = ctx.options.oauthProvider;
  if (!enabled || corsOrigins.length === 0) return;
  const allow = cors({
    origin: [...corsOrigins],
    allowMethods: ["GET", "POST"],
    allowHeaders: ["authorization", "content-type", "dpop"],
    exposeHeaders: ["www-authenticate"],
    maxAge: 600,
  });
  for (const path of PATHS) app.use(path, allow);
}

import { existsSync } from "node:fs";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import type { Auth } from "./server/auth.js";
import { applicationPageHeaders } from "./server/http/security-headers.js";

/**
 * One origin for everything: the API under its base path, the built application (dist/app) for
 * every other GET, with client-side routes falling back to the application shell.
 */
export function createServiceApp(auth: Auth, appDir = "./dist/app"): Hono {
  const basePath = auth.context.basePath;
  const root = new Hono();
  root.all(`${basePath}/*`, (c) => auth.handler(c.req.raw, c.env));
  root.all(basePath, () => new Response(null, { status: 404 }));
  // After the API routes, so only the application's pages and files carry the page policy.
  root.use("/*", applicationPageHeaders(auth.context));
  if (existsSync(appDir)) {
    root.use("/*", serveStatic({ root: appDir }));
    root.get("*", serveStatic({ path: `${appDir}/index.html` }));
  }
  return root;
}

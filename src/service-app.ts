import { existsSync } from "node:fs";
import { serveStatic } from "@hono/node-server/serve-static";
import { type Context, Hono } from "hono";
import type { Auth } from "./server/auth.js";
import { applicationPageHeaders } from "./server/http/security-headers.js";

/** Where `npm run build` puts the application, from the working directory; the npm package has none. */
export const APPLICATION_DIR = "./dist/app";

/** Whether the service will serve the application's pages (else it serves the API alone). */
export function servesApplication(appDir = APPLICATION_DIR): boolean {
  return existsSync(appDir);
}

/**
 * Vite names what it puts under assets/ by content hash, so a deploy never changes such a file: the
 * browser may keep it for a year without asking. Everything else (the shell, theme.js) is asked
 * about every time, so a deploy reaches every visitor's next page load.
 */
function cacheFor(path: string, c: Context): void {
  c.header("Cache-Control", /(^|\/)assets\//.test(path) ? "public, max-age=31536000, immutable" : "no-cache");
}

/**
 * One origin for everything: the API under its base path, the metrics when on, the built
 * application (dist/app) for every other GET, with client-side routes falling back to the application shell.
 */
export function createServiceApp(auth: Auth, appDir = APPLICATION_DIR): Hono {
  const basePath = auth.context.basePath;
  const root = new Hono();
  root.all(`${basePath}/*`, (c) => auth.handler(c.req.raw, c.env));
  root.all(basePath, () => new Response(null, { status: 404 }));
  // The metrics (options.metrics) on the service's port; the auth handler answers them, token and all.
  const metrics = auth.context.options.metrics;
  if (metrics.enabled && !metrics.path.startsWith(`${basePath}/`)) {
    root.on(["GET", "HEAD"], metrics.path, (c) => auth.handler(c.req.raw, c.env));
  }
  // After the API routes, so only the application's pages and files carry the page policy.
  root.use("/*", applicationPageHeaders(auth.context));
  if (servesApplication(appDir)) {
    root.use("/*", serveStatic({ root: appDir, onFound: cacheFor }));
    // A chunk this build does not have (a tab from an older build asks for one) is missing, not a
    // page: a 404 fails its import plainly, where the shell as JavaScript would fail on its type.
    root.get("/assets/*", (c) => c.notFound());
    root.get("*", serveStatic({ path: `${appDir}/index.html`, onFound: cacheFor }));
  }
  return root;
}

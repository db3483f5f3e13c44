import { randomUUID } from "node:crypto";
import { Hono } from "hono";
import type { AuthContext } from "../context.js";
import { registerRoutes } from "../routes/index.js";
import { parseBody } from "./body.js";
import { resolveClientIp } from "./client-ip.js";
import type { AuthEnv } from "./env.js";
import { checkInputBounds } from "./input-bounds.js";
import { originCheck } from "./origin-check.js";
import { createRateLimit } from "./rate-limit.js";
import { respondWithError } from "./respond-error.js";

/**
 * 12 random hex characters naming a request in logs and 500 answers. randomUUID draws from a
 * buffered entropy pool, so this costs no system call on most requests.
 */
function newRequestId(): string {
  const uuid = randomUUID();
  return uuid.slice(0, 8) + uuid.slice(9, 13);
}

/**
 * The auth API as a Hono app mounted at the base path. The middleware order is written here once:
 * context -> rate limit -> body -> input bounds -> origin and redirect checks -> route.
 */
export function createHttpApp(ctx: AuthContext): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>({ strict: true }).basePath(ctx.basePath);
  const routePath = (path: string) => path.slice(ctx.basePath.length) || "/";

  const rateLimit = createRateLimit(ctx.options.rateLimit, routePath);
  const readBody = parseBody(routePath);
  const checkOrigin = originCheck(routePath);
  // One middleware runs the steps in order; one dispatch per request instead of four.
  app.use(async (c, next) => {
    c.set("auth", ctx);
    c.set("requestId", newRequestId());
    c.set("clientIp", resolveClientIp(c, ctx.options.advanced.ipAddress.ipAddressHeaders));
    // JSON is never to be sniffed as anything else; HTML routes add their own page policy.
    c.header("X-Content-Type-Options", "nosniff");
    await rateLimit(c);
    await readBody(c);
    checkInputBounds(c);
    await checkOrigin(c);
    await next();
  });

  registerRoutes(app, ctx);

  // Unknown path or method: 404 with an empty body, as the reference server answers.
  app.notFound(() => new Response(null, { status: 404 }));
  app.onError(respondWithError);
  return app;
}

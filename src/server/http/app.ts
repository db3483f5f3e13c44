import { Hono } from "hono";
import type { AuthContext } from "../context.js";
import { newId } from "../crypto/random.js";
import { registerRoutes } from "../routes/index.js";
import { parseBody } from "./body.js";
import { resolveClientIp } from "./client-ip.js";
import type { AuthEnv } from "./env.js";
import { originCheck } from "./origin-check.js";
import { createRateLimit } from "./rate-limit.js";
import { respondWithError } from "./respond-error.js";

/**
 * The auth API as a Hono app mounted at the base path. The middleware order is written here once:
 * context -> rate limit -> body -> origin and redirect checks -> route.
 */
export function createHttpApp(ctx: AuthContext): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>({ strict: true }).basePath(ctx.basePath);
  const routePath = (path: string) => path.slice(ctx.basePath.length) || "/";

  app.use(async (c, next) => {
    c.set("auth", ctx);
    c.set("requestId", newId().slice(0, 12));
    c.set("clientIp", resolveClientIp(c, ctx.options.advanced.ipAddress.ipAddressHeaders));
    await next();
  });
  app.use(createRateLimit(ctx.options.rateLimit, routePath));
  app.use(parseBody(routePath));
  app.use(originCheck(routePath));

  registerRoutes(app, ctx);

  // Unknown path or method: 404 with an empty body, as the reference server answers.
  app.notFound(() => new Response(null, { status: 404 }));
  app.onError(respondWithError);
  return app;
}

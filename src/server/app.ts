import { randomUUID } from "node:crypto";
import { Hono } from "hono";
import type { AuthContext } from "./context.js";
import { resolveClientIp } from "./http/client-ip.js";
import type { AuthEnv } from "./http/env.js";
import { createRateLimit } from "./http/rate-limit.js";
import { respondWithError } from "./http/respond-error.js";
import { createRoute } from "./http/route.js";
import { registerRoutes } from "./routes/index.js";

/** The rate-limit identity every unrouted request shares. */
const UNKNOWN_PATH = { method: "GET", path: "(unknown)", summary: "", reply: null, policy: {} } as const;

/**
 * 12 random hex characters naming a request in logs and 500 answers. randomUUID draws from a
 * buffered entropy pool, so this costs no system call on most requests.
 */
function newRequestId(): string {
  const uuid = randomUUID();
  return uuid.slice(0, 8) + uuid.slice(9, 13);
}

/**
 * The auth API as a Hono app mounted at the base path, assembled here above http/ and routes/: the
 * request's context, then each endpoint's own prelude and handler (http/route.ts), registered from
 * the endpoint table.
 */
export function createHttpApp(ctx: AuthContext): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>({ strict: true }).basePath(ctx.basePath);
  app.use(async (c, next) => {
    c.set("auth", ctx);
    c.set("requestId", newRequestId());
    c.set("clientIp", resolveClientIp(c, ctx.options.advanced.ipAddress.ipAddressHeaders));
    // JSON is never to be sniffed as anything else; HTML routes add their own page policy.
    c.header("X-Content-Type-Options", "nosniff");
    await next();
    // The handler's transactions have committed: webhooks it queued can go now.
    ctx.webhooks.wakeIfQueued();
  });

  registerRoutes(createRoute(app, ctx), ctx);

  // Unknown path or method: 404 with an empty body, as the reference server answers. Such requests
  // share one rate-limit window per client, so a scan of random paths is slowed like any other.
  const limitUnknown = createRateLimit(UNKNOWN_PATH, ctx.options.rateLimit);
  app.notFound(async (c) => {
    try {
      await limitUnknown?.(c);
    } catch (error) {
      return respondWithError(error, c);
    }
    return new Response(null, { status: 404 });
  });
  app.onError(respondWithError);
  return app;
}

import { Hono } from "hono";
import type { AuthContext } from "./context.js";
import { AuthError } from "./errors.js";
import type { AuthEnv } from "./http/env.js";
import { applyOAuthCors } from "./http/oauth-cors.js";
import { createRateLimit } from "./http/rate-limit.js";
import { finishRequest, startingRequest } from "./http/request-start.js";
import { respondWithError } from "./http/respond-error.js";
import { createRoute } from "./http/route.js";
import { registerRoutes } from "./routes/index.js";
import { isDatabaseUnavailable } from "./store/database.js";

/** How long a client should wait before retrying while the database does not answer. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The rate-limit identity (and metrics route) every unrouted request shares, whatever its method. */
const UNKNOWN_PATH = { method: "GET", path: "(unknown)", summary: "", reply: null, policy: {} } as const;
const UNKNOWN_ROUTE = { method: "*", path: "(unknown)" };

/**
 * The auth API as a Hono app mounted at the base path, assembled here above http/ and routes/: each
 * endpoint's own prelude and handler (http/route.ts), registered from the endpoint table, each
 * starting its request itself (http/request-start.ts), as the not-found handler does.
 */
export function createHttpApp(ctx: AuthContext): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>({ strict: true }).basePath(ctx.basePath);

  applyOAuthCors(app, ctx);
  registerRoutes(createRoute(app, ctx), ctx);

  // Unknown path or method: 404 with an empty body, as the reference server answers. Such requests
  // share one rate-limit window per client, so a scan of random paths is slowed like any other.
  const limitUnknown = createRateLimit(UNKNOWN_PATH, ctx.options.rateLimit);
  app.notFound(
    startingRequest(ctx, UNKNOWN_ROUTE, async (c) => {
      try {
        await limitUnknown?.(c);
      } catch (error) {
        return respondWithError(error, c);
      }
      // c.body, not a bare Response: the request id and nosniff set at the start go with it.
      return c.body(null, 404);
    }),
  );
  // A database that cannot answer is a moment's outage, not a bug: 503 with Retry-After, as /ready says.
  app.onError((error, c) => {
    const response = respondWithError(
      isDatabaseUnavailable(error)
        ? new AuthError("SERVICE_UNAVAILABLE", { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS })
        : error,
      c,
    );
    finishRequest(c, response);
    return response;
  });
  return app;
}

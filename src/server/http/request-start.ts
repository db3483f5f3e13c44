import { randomFillSync } from "node:crypto";
import type { Context } from "hono";
import type { AuthContext } from "../context.js";
import { endRequestSpan, routeSpan, startRequestSpan, withinSpan } from "../observability/tracing.js";
import { resolveClientIp } from "./client-ip.js";
import type { AuthEnv, RequestTiming } from "./env.js";

export type { RequestTiming };

/** A route as the endpoint table names it: method and path template (`/callback/:id`), never the raw URL. */
export interface RouteName {
  method: string;
  path: string;
}

/** An incoming `X-Request-Id` kept as the request's id: a proxy's or caller's, if short and plain. */
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * What every request starts with: the context, the client's IP (resolved while the socket is surely
 * open, before a slow password hash), nosniff, its request id (echoed in X-Request-Id), and its
 * timing and span. Called by each route's handler and the not-found handler, not a middleware: Hono
 * calls a route's only handler without composing a chain. The metrics and span name come from the
 * route, fixed at start-up, so a scan of random paths adds no series.
 */
function requestStart(ctx: AuthContext, route: RouteName): (c: Context<AuthEnv>) => void {
  const ipHeaders = ctx.options.advanced.ipAddress.ipAddressHeaders;
  const metrics = ctx.metrics?.route(route.method, route.path) ?? null;
  const span = routeSpan(route.method, route.path.startsWith("/") ? `${ctx.basePath}${route.path}` : null);
  return (c) => {
    c.set("auth", ctx);
    c.set("clientIp", resolveClientIp(c, ipHeaders));
    c.header("X-Content-Type-Options", "nosniff");
    const headers = c.req.raw.headers;
    const incoming = headers.get("x-request-id");
    const id = incoming !== null && WELL_FORMED_REQUEST_ID.test(incoming) ? incoming : newRequestId();
    c.set("requestId", id);
    c.header("X-Request-Id", id);
    c.set("timing", { startedAt: performance.now(), metrics, span: startRequestSpan(span, headers) });
  };
}

/**
 * `handler` with the request started first and, once it is done (answered or thrown), the webhooks
 * its committed transactions queued woken. Errors still reach app.onError, which finds the context
 * set and finishes the request (finishRequest) with the answer it makes.
 */
export function startingRequest<Rest extends unknown[], R>(
  ctx: AuthContext,
  route: RouteName,
  handler: (c: Context<AuthEnv>, ...rest: Rest) => R | Promise<R>,
): (c: Context<AuthEnv>, ...rest: Rest) => Promise<R> {
  const start = requestStart(ctx, route);
  return async (c, ...rest) => {
    start(c);
    try {
      const result = await withinSpan((c.get("timing") as RequestTiming).span, () => handler(c, ...rest));
      finishRequest(c, result instanceof Response ? result : c.res);
      return result;
    } finally {
      ctx.webhooks.wakeIfQueued();
      ctx.mail.wakeIfQueued();
    }
  };
}

/** Records the answer once (metrics, span): a page's inner error is finished by onError before its outer handler returns. */
export function finishRequest(c: Context<AuthEnv>, response: Response): void {
  const timing = c.get("timing");
  if (timing === undefined) return;
  c.set("timing", undefined);
  timing.metrics?.observe(response, (performance.now() - timing.startedAt) / 1000, c.get("errorCode"));
  endRequestSpan(timing.span, response.status, requestId(c));
}

/** Random bytes for request ids, refilled a batch at a time: a call into the CSPRNG per request cost more than the id. */
const idPool = Buffer.alloc(6 * 256);
let idOffset = idPool.length;

/** 12 random hex characters (48 bits), made in one step: slicing and joining a UUID built strings that each header then flattened. */
function newRequestId(): string {
  if (idOffset === idPool.length) {
    randomFillSync(idPool);
    idOffset = 0;
  }
  idOffset += 6;
  return idPool.toString("hex", idOffset - 6, idOffset);
}

/** The request's id (X-Request-Id), naming it in logs, 500 answers and its span. */
export function requestId(c: Context<AuthEnv>): string {
  let id = c.get("requestId");
  if (id === undefined) {
    id = newRequestId();
    c.set("requestId", id);
  }
  return id;
}

import { randomUUID } from "node:crypto";
import type { Context } from "hono";
import type { AuthContext } from "../context.js";
import { resolveClientIp } from "./client-ip.js";
import type { AuthEnv } from "./env.js";

/**
 * What every request starts with: the context, the client's IP (resolved while the socket is surely
 * open, before a slow password hash) and nosniff. Called by each route's handler and the not-found
 * handler, not a middleware: Hono calls a route's only handler without composing a chain.
 */
function requestStart(ctx: AuthContext): (c: Context<AuthEnv>) => void {
  const ipHeaders = ctx.options.advanced.ipAddress.ipAddressHeaders;
  return (c) => {
    c.set("auth", ctx);
    c.set("clientIp", resolveClientIp(c, ipHeaders));
    c.header("X-Content-Type-Options", "nosniff");
  };
}

/**
 * `handler` with the request started first and, once it is done (answered or thrown), the webhooks
 * its committed transactions queued woken. Errors still reach app.onError, which finds the context set.
 */
export function startingRequest<Rest extends unknown[], R>(
  ctx: AuthContext,
  handler: (c: Context<AuthEnv>, ...rest: Rest) => R | Promise<R>,
): (c: Context<AuthEnv>, ...rest: Rest) => Promise<R> {
  const start = requestStart(ctx);
  return async (c, ...rest) => {
    start(c);
    try {
      return await handler(c, ...rest);
    } finally {
      ctx.webhooks.wakeIfQueued();
    }
  };
}

/**
 * 12 random hex characters naming the request in logs and 500 answers, drawn when first asked for:
 * most requests never need one. randomUUID draws from a buffered entropy pool, so this costs no
 * system call on most requests.
 */
export function requestId(c: Context<AuthEnv>): string {
  let id = c.get("requestId");
  if (id === undefined) {
    const uuid = randomUUID();
    id = uuid.slice(0, 8) + uuid.slice(9, 13);
    c.set("requestId", id);
  }
  return id;
}

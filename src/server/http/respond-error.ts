import type { Context } from "hono";
import { AuthError } from "../errors.js";
import type { AuthEnv } from "./env.js";
import { requestId as requestIdOf } from "./request-start.js";

/** The single place that turns a thrown error into `{code, message}`; anything unknown is a logged 500. */
export function respondWithError(error: unknown, c: Context<AuthEnv>): Response {
  if (error instanceof AuthError) {
    c.set("errorCode", error.code);
    // The rest of an oversized body is never read: close the connection rather than leave it half-read.
    if (error.code === "PAYLOAD_TOO_LARGE") c.header("Connection", "close");
    if (error.retryAfterSeconds !== undefined) {
      c.header("Retry-After", String(error.retryAfterSeconds));
      c.header("X-Retry-After", String(error.retryAfterSeconds));
    }
    return c.json({ code: error.code, message: error.message, ...error.details }, error.status as 400);
  }
  const requestId = requestIdOf(c);
  c.set("errorCode", "INTERNAL_SERVER_ERROR");
  c.get("auth")?.logger.error("unhandled error", {
    requestId,
    method: c.req.method,
    path: c.req.path,
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
  return c.json({ code: "INTERNAL_SERVER_ERROR", message: `Internal server error (request ${requestId})` }, 500);
}

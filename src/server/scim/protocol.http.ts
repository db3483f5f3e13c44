import type { Context } from "hono";
import { AuthError } from "../errors.js";
import { MAX_BODY_BYTES, readLimited } from "../http/body.js";
import type { AuthEnv, RequestStep } from "../http/env.js";
import { authenticateScimToken, type ScimConnectionRow } from "./connections.service.js";
import { invalidSyntax, ScimError } from "./errors.js";
import { recordScimRefusal } from "./health.service.js";
import { ERROR_SCHEMA } from "./resources.service.js";

/**
 * The steps a SCIM protocol route (its table entry says `directory`) takes in place of a session and
 * JSON: the connection's bearer token, a body in SCIM's media type, and refusals in SCIM's error
 * format (RFC 7644 section 3.12). The rest of the pipeline (rate limit, hooks, audit) is the same.
 */
export const SCIM_JSON = "application/scim+json";
const ACCEPTED_TYPES = new Set([SCIM_JSON, "application/json"]);

export function scimJson(c: Context<AuthEnv>, body: unknown, status = 200): Response {
  return c.body(JSON.stringify(body), status as 200, { "Content-Type": SCIM_JSON });
}

/** The directory the request's bearer token belongs to (set by authenticateDirectory). */
export function directoryOf(c: Context<AuthEnv>): ScimConnectionRow {
  const directory = c.get("directory");
  if (!directory) throw new ScimError(401, "A valid SCIM bearer token is required");
  return directory;
}

/** The connection the Authorization header's bearer token belongs to, else a SCIM 401. */
export const authenticateDirectory: RequestStep = async (c) => {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "");
  const ctx = c.get("auth");
  const connection = match?.[1] ? await authenticateScimToken(ctx, match[1]) : null;
  if (!connection) throw new ScimError(401, "A valid SCIM bearer token is required");
  c.set("directory", connection);
  // The request's audit entry is the directory's, in its organization's trail.
  const scope = ctx.audit;
  if (scope) {
    scope.actorId = connection.providerId;
    scope.organizationId = connection.organizationId;
    scope.details.providerId = connection.providerId;
  }
};

/** The body of a POST, PUT or PATCH: SCIM's or plain JSON media type, within the body limit, an object. */
export const parseScimBody: RequestStep = async (c) => {
  c.set("body", {});
  const type = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (!ACCEPTED_TYPES.has(type)) throw new ScimError(415, `The body must be ${SCIM_JSON} or application/json`);
  if (Number(c.req.header("content-length") ?? "0") > MAX_BODY_BYTES) throw new ScimError(413, "The body is too large");
  let raw: string;
  try {
    raw = await readLimited(c.req.raw);
  } catch (error) {
    if (error instanceof AuthError) throw new ScimError(413, "The body is too large");
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw invalidSyntax("The body is not valid JSON");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw invalidSyntax("The body must be a JSON object");
  }
  c.set("body", parsed as Record<string, unknown>);
};

/** The request's path under the SCIM base URL, without its query (a filter may carry an address). */
function scimPathOf(c: Context<AuthEnv>): string {
  const path = new URL(c.req.url).pathname;
  const at = path.indexOf("/scim/v2");
  return (at >= 0 ? path.slice(at + "/scim/v2".length) || "/" : path).slice(0, 200);
}

/**
 * A refusal as SCIM's error answer: a SCIM error as it is, a catalogue error (a rate limit, a hook
 * refusing a write) with its status. Anything else is a bug, left to the service's error handler.
 */
export async function scimRefusal(c: Context<AuthEnv>, error: unknown): Promise<Response> {
  const refusal =
    error instanceof ScimError
      ? error
      : error instanceof AuthError && error.status < 500
        ? new ScimError(error.status, error.message)
        : null;
  if (!refusal) throw error;
  if (refusal.status === 401) c.header("WWW-Authenticate", 'Bearer realm="SCIM"');
  if (error instanceof AuthError) {
    c.set("errorCode", error.code);
    if (error.retryAfterSeconds !== undefined) c.header("Retry-After", String(error.retryAfterSeconds));
  }
  // A refusal of a known connection's call is part of its sync health (an unknown token has no owner).
  // Not a rate limit's: writing for each call refused for coming too fast would undo the limit.
  const directory = c.get("directory");
  if (directory && refusal.status !== 429) {
    await recordScimRefusal(c.get("auth"), directory, {
      method: c.req.method,
      path: scimPathOf(c),
      status: refusal.status,
      scimType: refusal.scimType ?? null,
      detail: refusal.message,
    });
  }
  const body = {
    schemas: [ERROR_SCHEMA],
    status: String(refusal.status),
    ...(refusal.scimType ? { scimType: refusal.scimType } : {}),
    detail: refusal.message,
  };
  return scimJson(c, body, refusal.status);
}

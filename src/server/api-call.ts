import type { Hono } from "hono";
import type { Endpoint } from "../contract/endpoints/define.js";
import type { ErrorCode } from "../contract/errors/index.js";
import { reviveDates } from "../contract/reply-dates.js";
import type { AuthContext } from "./context.js";
import { AuthError } from "./errors.js";
import type { AuthEnv } from "./http/env.js";
import type { RequestHeaders } from "./http/header-session.js";
import { isRouted } from "./http/route.js";
import { serverCallEnv } from "./http/server-call.js";
import { invalidInput } from "./validation.js";

/** A call's argument as it arrives at run time (the types in api-types.ts shape it for the editor). */
export interface CallInput {
  body?: unknown;
  query?: Record<string, unknown>;
  params?: Record<string, string>;
  headers?: RequestHeaders;
  asResponse?: boolean;
  returnHeaders?: boolean;
}

const CALL_KEYS = new Set(["body", "query", "params", "headers", "asResponse", "returnHeaders"]);

/** Headers that describe the caller's own request, not this call's: the call sets its own. */
const OWN_HEADERS = ["content-length", "content-type", "transfer-encoding", "host", "connection", "expect"];

/** What a read-only header view (one with only `get`) lends the call: what a route reads. */
const VIEW_HEADERS = ["cookie", "user-agent", "accept-language", "authorization"];

/**
 * Runs one call through the endpoint's route in process, as a request marked as a server call: the
 * same validation, session, policy, guards, handler and reply schema as HTTP, so the two cannot
 * drift. A server call is trusted: no rate limit, no browser origin check (route.ts).
 */
export function callThroughRoute(ctx: AuthContext, app: Hono<AuthEnv>, name: string, endpoint: Endpoint) {
  return async (input: CallInput = {}): Promise<unknown> => {
    checkShape(name, input);
    if (!isRouted(endpoint, ctx)) {
      if (input.asResponse) return new Response(null, { status: 404 });
      throw new AuthError("NOT_FOUND");
    }
    const response = await app.fetch(requestFor(ctx, endpoint, input), serverCallEnv);
    if (input.asResponse) return response;
    const reply = await replyOf(endpoint, response);
    return input.returnHeaders ? { headers: response.headers, response: reply } : reply;
  };
}

/** Refuses the old flat shape (`{ email, password }`) with words, not a validation error about `body`. */
export function checkShape(name: string, input: unknown): asserts input is CallInput {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw invalidInput([{ where: "input", message: `auth.api.${name} takes one object: { body, query, headers }` }]);
  }
  const stray = Object.keys(input).filter((key) => !CALL_KEYS.has(key));
  if (stray.length > 0) {
    throw invalidInput([
      {
        where: "input",
        message: `auth.api.${name} takes { body, query, params, headers, asResponse, returnHeaders }; put ${stray.join(", ")} in body (or query)`,
      },
    ]);
  }
}

function requestFor(ctx: AuthContext, endpoint: Endpoint, input: CallInput): Request {
  const url = new URL(`${ctx.baseURL}${ctx.basePath}${pathWith(endpoint.path, input.params)}`);
  for (const [key, value] of Object.entries(input.query ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    url.searchParams.set(key, typeof value === "object" ? JSON.stringify(value) : String(value));
  }
  const headers = headersFrom(ctx, input.headers);
  for (const name of OWN_HEADERS) headers.delete(name);
  if (endpoint.method === "GET" || endpoint.method === "DELETE") {
    if (input.body !== undefined)
      throw invalidInput([{ where: "body", message: `${endpoint.method} takes no body; use query` }]);
    return new Request(url, { method: endpoint.method, headers });
  }
  headers.set("content-type", "application/json");
  return new Request(url, { method: endpoint.method, headers, body: JSON.stringify(input.body ?? {}) });
}

/** The path with each `:name` filled from params. */
function pathWith(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_part, name: string) => {
    const value = params[name];
    if (typeof value !== "string" || value === "")
      throw invalidInput([{ where: `params.${name}`, message: "Required" }]);
    return encodeURIComponent(value);
  });
}

function headersFrom(ctx: AuthContext, given: RequestHeaders | undefined): Headers {
  if (given === undefined) return new Headers();
  const isView = "get" in given && typeof given.get === "function" && !(Symbol.iterator in given);
  if (!isView) return new Headers(given as HeadersInit);
  const headers = new Headers();
  for (const name of [...VIEW_HEADERS, ...ctx.options.advanced.ipAddress.ipAddressHeaders]) {
    const value = (given as { get(name: string): string | null }).get(name);
    if (value !== null && value !== undefined) headers.set(name, value);
  }
  return headers;
}

/** The route's JSON reply with its Dates, its error as a thrown AuthError, or the Response of a page or redirect. */
async function replyOf(endpoint: Endpoint, response: Response): Promise<unknown> {
  // A SCIM route answers in SCIM's own format, refusals too: the caller reads the Response.
  if (endpoint.policy.directory) return response;
  const isJson = (response.headers.get("content-type") ?? "").startsWith("application/json");
  if (response.status >= 400) {
    const error = isJson ? ((await response.json()) as { code?: string; message?: string }) : {};
    const { code, message, ...details } = error;
    if (!code) throw new AuthError(response.status === 404 ? "NOT_FOUND" : "INTERNAL_SERVER_ERROR");
    const retryAfter = response.headers.get("retry-after");
    throw new AuthError(code as ErrorCode, {
      status: response.status,
      message,
      details: Object.keys(details).length > 0 ? details : undefined,
      retryAfterSeconds: retryAfter ? Number(retryAfter) : undefined,
    });
  }
  if (!isJson) return response;
  const json: unknown = await response.json();
  return endpoint.reply ? reviveDates(endpoint.reply, json) : json;
}

import type { Context } from "hono";
import type { Endpoint } from "../../contract/endpoints/index.js";
import type { EndpointHookContext, EndpointHooks } from "../hooks.js";
import type { AuthEnv } from "./env.js";
import { getRequestSession } from "./session.js";

/**
 * The app's endpoint hooks (createAuth's `hooks`), run by http/route.ts around each handler. Only
 * an app that sets them pays for them: the session read here is the one the handler reuses.
 */

/** The request as a before hook sees it; remembered so the after hook sees the same. */
export async function hookContext(c: Context<AuthEnv>, endpoint: Endpoint): Promise<EndpointHookContext> {
  return {
    path: endpoint.path,
    method: endpoint.method,
    body: endpoint.method === "GET" || endpoint.method === "DELETE" ? undefined : c.get("body"),
    query: c.req.query(),
    headers: c.req.raw.headers,
    session: await getRequestSession(c),
  };
}

/**
 * Runs the before hook; its changed body replaces the parsed one (the endpoint's schema still
 * checks it). Answers the changed query, if any, for the route to read instead of the URL's.
 */
export async function runBeforeHook(
  c: Context<AuthEnv>,
  before: NonNullable<EndpointHooks["before"]>,
  hookCtx: EndpointHookContext,
): Promise<Record<string, string> | undefined> {
  const change = await before(hookCtx);
  if (!change) return undefined;
  if (change.body !== undefined) c.set("body", change.body);
  return change.query;
}

/** Runs the after hook on the reply; a `{ json }` it returns becomes the reply's body. */
export async function runAfterHook(
  after: NonNullable<EndpointHooks["after"]>,
  hookCtx: EndpointHookContext,
  response: Response,
): Promise<Response> {
  const isJson = response.headers.get("Content-Type")?.startsWith("application/json") ?? false;
  const json = isJson ? await response.clone().json() : undefined;
  const change = await after({
    ...hookCtx,
    reply: { status: response.status, json, headers: response.headers },
  });
  if (!change || !("json" in change)) return response;
  const headers = new Headers(response.headers);
  headers.set("Content-Type", "application/json");
  headers.delete("Content-Length");
  return new Response(JSON.stringify(change.json), { status: response.status, headers });
}

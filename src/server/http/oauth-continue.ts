import type { Context } from "hono";
import { continueAuthorization } from "../services/oauth-provider/authorize.js";
import { lookupSession } from "../services/sessions.js";
import type { AuthEnv } from "./env.js";

/**
 * better-auth's oauth-provider wire: a login page handed an authorization request posts its sign-in
 * with `oauth_query` (its client plugin adds it), and the sign-in's answer says where to go next:
 * `redirect: true` and the `url` of the consent page or the client. Only a sign-in that opened a
 * session continues; a query that does not verify leaves the sign-in's answer as it was (the user
 * is signed in either way, and the page can start again).
 */
export async function continueOAuthAfterSignIn(c: Context<AuthEnv>, response: Response): Promise<Response> {
  const query = (c.get("body") as Record<string, unknown> | undefined)?.oauth_query;
  if (typeof query !== "string" || response.status !== 200) return response;
  if (!response.headers.get("Content-Type")?.startsWith("application/json")) return response;
  const reply = (await response.clone().json()) as Record<string, unknown> | null;
  if (typeof reply?.token !== "string") return response;
  const ctx = c.get("auth");
  const lookup = await lookupSession(ctx, reply.token, { refresh: false });
  if (lookup.status !== "active") return response;
  let url: string;
  try {
    url = await continueAuthorization(ctx, lookup.data, query);
  } catch {
    return response;
  }
  const headers = new Headers(response.headers);
  headers.delete("Content-Length");
  return new Response(JSON.stringify({ ...reply, redirect: true, url }), { status: 200, headers });
}

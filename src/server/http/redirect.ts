import type { AuthContext } from "../context.js";

/**
 * An absolute redirect target: a relative callbackURL is resolved against BASE_URL, and `params`
 * are added to its query. The origin check has already refused untrusted targets.
 */
export function redirectTarget(ctx: AuthContext, callbackURL: string, params: Record<string, string> = {}): string {
  const url = new URL(callbackURL, `${ctx.baseURL}/`);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

import type { Auth } from "../auth.js";

type RouteHandler = (request: Request) => Promise<Response>;

/**
 * Route handlers for a Next.js App Router catch-all route (`app/api/auth/[...all]/route.ts`):
 * `export const { GET, POST } = toNextJsHandler(auth)`. Fetch-only, so any runtime that hands over a
 * `Request` can use it. There is no socket here: behind a proxy, name its client-IP header in
 * `advanced.ipAddress.ipAddressHeaders` or every caller shares one rate-limit bucket.
 *
 * @example
 * // app/api/auth/[...all]/route.ts
 * import { auth } from "@/lib/auth"; // what createAuth returned, or its promise
 * export const runtime = "nodejs";
 * export const { GET, POST } = toNextJsHandler(auth);
 */
export function toNextJsHandler(auth: Pick<Auth, "handler"> | Promise<Pick<Auth, "handler">>): {
  GET: RouteHandler;
  POST: RouteHandler;
} {
  const handler: RouteHandler = async (request) => (await auth).handler(request);
  return { GET: handler, POST: handler };
}

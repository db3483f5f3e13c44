/**
 * What the request path tells the metrics (observability/metrics.ts builds it with prom-client). A
 * leaf module, so http/ and context.ts depend on this shape, not on the metrics library.
 */

/** One route's instruments, made once at start-up so a request does no label lookup of its own. */
export interface RouteMetrics {
  /** An answered request: its response (status, cookies), how long it took, and the error code it answered, if any. */
  observe(response: Response, seconds: number, errorCode: string | undefined): void;
}

export interface RequestMetrics {
  /** The instruments of one endpoint: `path` is its template (`/callback/:id`), never a raw URL. */
  route(method: string, path: string): RouteMetrics;
}

/** Hits and misses of one cache, counted where it answers; read by the metrics at scrape time. */
export interface HitCount {
  hits: number;
  misses: number;
}

/** The caches an instance keeps. */
export interface CacheCounts {
  /** get-session answered from the signed cookie cache (session.cookieCache) rather than the database. */
  readonly cookieCache: HitCount;
  /** list-members' kept first pages (store/reads/member-pages.ts) answered again. */
  readonly memberPages: HitCount;
}

export function newCacheCounts(): CacheCounts {
  return { cookieCache: { hits: 0, misses: 0 }, memberPages: { hits: 0, misses: 0 } };
}

import type { Policy } from "../../contract/endpoints/index.js";
import type { ErrorCode } from "../../contract/errors/index.js";
import { AuthError } from "../errors.js";
import { isSafeRedirectTarget, normalizeOrigin } from "../trusted-origins.js";
import type { RequestStep } from "./env.js";

/** Body and query fields that name where the browser goes next, with the error each one gives. */
const REDIRECT_FIELDS: readonly [string, ErrorCode][] = [
  ["callbackURL", "INVALID_CALLBACK_URL"],
  ["redirectTo", "INVALID_REDIRECT_URL"],
  ["errorCallbackURL", "INVALID_ERROR_CALLBACK_URL"],
  ["newUserCallbackURL", "INVALID_NEW_USER_CALLBACK_URL"],
];

/**
 * Origin and redirect checks (WIRE 1.5), before any handler: cookie-carrying changes come from a
 * trusted Origin (or Referer); `login` endpoints refuse foreign origins even without cookies (a forged
 * login swaps the visitor's session); a provider's form_post only redirects to the GET; every
 * redirect target in the body or query is relative or on a trusted origin.
 */
export function originCheck(kind: Policy["origin"]): RequestStep {
  // Synchronous: nothing here waits, so no promise per request.
  return (c) => {
    const ctx = c.get("auth");
    const method = c.req.method;

    if (method !== "GET" && method !== "HEAD" && method !== "OPTIONS") {
      if (kind === "provider") return;
      if (kind === "login") checkLoginForm(c.req.raw.headers, ctx.isTrustedOrigin, c.req.url);
      else if (c.req.header("cookie")) requireTrustedOrigin(c.req.raw.headers, ctx.isTrustedOrigin, c.req.url);
    }
    checkRedirectTargets(c);
  };
}

/**
 * Every redirect target in the body or query must be relative or on a trusted origin. Server calls
 * (auth.api) skip the origin checks above but not this: their targets still end up in mails and links.
 */
export const checkRedirectTargets: RequestStep = (c) => {
  const ctx = c.get("auth");
  const body = c.get("body");
  // Most requests (get-session above all) carry no query: skip the four lookups then.
  const hasQuery = c.req.url.includes("?");
  for (const [field, code] of REDIRECT_FIELDS) {
    const value = body[field] ?? (hasQuery ? c.req.query(field) : undefined);
    if (value === undefined || value === null || value === "") continue;
    if (typeof value !== "string") {
      throw new AuthError(code, { message: `Invalid ${field}: expected a string` });
    }
    if (!isSafeRedirectTarget(value, ctx.isTrustedOrigin)) throw new AuthError(code);
  }
};

function requestOrigin(headers: Headers, requestUrl: string): string | null {
  const origin = headers.get("origin");
  if (origin === "null") {
    // A sandboxed or privacy-redirected page: trust it only when the browser says it is same-origin.
    return headers.get("sec-fetch-site") === "same-origin" ? new URL(requestUrl).origin : null;
  }
  if (origin) return origin;
  const referer = headers.get("referer");
  return referer ? normalizeOrigin(referer) : null;
}

function requireTrustedOrigin(headers: Headers, isTrusted: (o: string) => boolean, requestUrl: string): void {
  const origin = requestOrigin(headers, requestUrl);
  if (!origin) throw new AuthError("MISSING_OR_NULL_ORIGIN");
  if (!isTrusted(origin)) throw new AuthError("INVALID_ORIGIN");
}

function checkLoginForm(headers: Headers, isTrusted: (o: string) => boolean, requestUrl: string): void {
  const site = headers.get("sec-fetch-site");
  const mode = headers.get("sec-fetch-mode");
  const hasFetchMetadata = site !== null || mode !== null || headers.get("sec-fetch-dest") !== null;
  if (hasFetchMetadata) {
    if (site === "cross-site" && mode === "navigate") throw new AuthError("CROSS_SITE_NAVIGATION_LOGIN_BLOCKED");
    requireTrustedOrigin(headers, isTrusted, requestUrl);
    return;
  }
  // No fetch metadata: a non-browser caller. Check the origin when one is given.
  if (headers.get("origin") || headers.get("referer")) requireTrustedOrigin(headers, isTrusted, requestUrl);
}

/**
 * Whether a GET is a script's fetch from a trusted page (better-auth's client calls the link routes
 * so), not a navigation: links, redirects, forms and images can be aimed at any browser from any
 * site, so they never carry a sign-in without a confirmation (login CSRF). A navigating GET has no
 * Origin header, and only a script of this origin makes a same-origin cors request.
 */
export function isTrustedFetch(headers: Headers, isTrusted: (o: string) => boolean): boolean {
  const mode = headers.get("sec-fetch-mode");
  if (mode !== null && mode !== "cors" && mode !== "same-origin") return false;
  if (mode !== null && headers.get("sec-fetch-site") === "same-origin") return true;
  const origin = headers.get("origin");
  return origin !== null && origin !== "null" && isTrusted(origin);
}

import type { ErrorCode } from "../../contract/errors/index.js";
import { AuthError } from "../errors.js";
import type { RequestStep } from "./env.js";
import { isSafeRedirectTarget, normalizeOrigin } from "./trusted-origins.js";

/**
 * Every route that signs a browser in is checked even without cookies and without a body: a forged
 * login (login CSRF) replaces the visitor's session with one the attacker chose or can watch.
 */
function isLoginRoute(path: string): boolean {
  return path.startsWith("/sign-in/") || path.startsWith("/sign-up/") || path === "/one-tap/callback";
}

/** Body and query fields that name where the browser goes next, with the error each one gives. */
const REDIRECT_FIELDS: readonly [string, ErrorCode][] = [
  ["callbackURL", "INVALID_CALLBACK_URL"],
  ["redirectTo", "INVALID_REDIRECT_URL"],
  ["errorCallbackURL", "INVALID_ERROR_CALLBACK_URL"],
  ["newUserCallbackURL", "INVALID_NEW_USER_CALLBACK_URL"],
];

/**
 * Origin and redirect checks (WIRE 1.5), before any handler:
 * - a state-changing request that carries cookies must come from a trusted Origin (or Referer);
 * - the login forms refuse cross-site navigations and foreign origins even without cookies;
 * - every redirect target in the body or query must be relative or on a trusted origin.
 */
export function originCheck(routePath: (path: string) => string): RequestStep {
  return async (c) => {
    const ctx = c.get("auth");
    const method = c.req.method;
    const path = routePath(c.req.path);

    if (method !== "GET" && method !== "HEAD" && method !== "OPTIONS") {
      const hasCookies = Boolean(c.req.header("cookie"));
      const isLoginForm = isLoginRoute(path);
      // A provider's form_post comes from the provider's origin; that POST only redirects to the GET.
      if (path.startsWith("/callback/")) return;
      if (isLoginForm) checkLoginForm(c.req.raw.headers, ctx.isTrustedOrigin, c.req.url);
      else if (hasCookies) requireTrustedOrigin(c.req.raw.headers, ctx.isTrustedOrigin, c.req.url);
    }

    const body = c.get("body");
    for (const [field, code] of REDIRECT_FIELDS) {
      const value = body[field] ?? (field === "callbackURL" ? c.req.query("callbackURL") : undefined);
      if (value === undefined || value === null || value === "") continue;
      if (typeof value !== "string") {
        throw new AuthError(code, { message: `Invalid ${field}: expected a string` });
      }
      if (!isSafeRedirectTarget(value, ctx.isTrustedOrigin)) throw new AuthError(code);
    }
    return;
  };
}

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

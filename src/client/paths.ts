import { hasUnsafeUrlCharacters } from "./safe-redirect.js";
/**
 * How a call name becomes a request (WIRE 10): each camelCase segment of the property chain turns
 * into kebab-case and the segments join with `/`; a fixed table decides the method for calls that
 * must POST without a body or GET despite one, otherwise a body with keys means POST.
 */

/** `getFullOrganization` -> `get-full-organization`. */
export function toKebabCase(segment: string): string {
  return segment.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** `["signIn", "email"]` -> `/sign-in/email`. */
export function pathFor(segments: readonly string[]): string {
  return `/${segments.map(toKebabCase).join("/")}`;
}

export type HttpMethod = "GET" | "POST";

/** Calls whose method does not follow from the body. */
export const FIXED_METHODS: Readonly<Record<string, HttpMethod>> = {
  "/sign-out": "POST",
  "/revoke-sessions": "POST",
  "/revoke-other-sessions": "POST",
  "/delete-user": "POST",
  "/organization/get-organization": "GET",
  "/organization/get-full-organization": "GET",
  "/organization/list-user-teams": "GET",
  "/sign-in/anonymous": "POST",
  "/delete-anonymous-user": "POST",
  "/admin/stop-impersonating": "POST",
};

export function methodFor(path: string, body: Record<string, unknown>, explicit?: string): HttpMethod {
  const fixed = FIXED_METHODS[path];
  if (fixed) return fixed;
  if (explicit === "GET" || explicit === "POST") return explicit;
  return Object.keys(body).length > 0 ? "POST" : "GET";
}

/** Paths after whose success the session is read again (WIRE 10, plus the anonymous and organization plugins). */
const SESSION_CHANGING_PATHS = new Set([
  "/sign-out",
  "/update-user",
  "/update-session",
  "/sign-up/email",
  "/sign-in/email",
  "/delete-user",
  "/verify-email",
  "/revoke-sessions",
  "/revoke-session",
  "/revoke-other-sessions",
  "/change-email",
  "/change-password",
  "/sign-in/anonymous",
  "/delete-anonymous-user",
  "/one-tap/callback",
  "/organization/create",
  "/organization/delete",
  "/organization/remove-member",
  "/organization/leave",
  "/organization/accept-invitation",
  // Impersonation swaps the session cookie for another user's and back.
  "/admin/impersonate-user",
  "/admin/stop-impersonating",
]);

export function changesSession(path: string): boolean {
  return SESSION_CHANGING_PATHS.has(path) || path.startsWith("/organization/set-active");
}

/** The organization list changes after these. */
export function changesOrganizationList(path: string): boolean {
  return (
    path === "/organization/create" ||
    path === "/organization/delete" ||
    path === "/organization/update" ||
    path === "/organization/leave" ||
    path === "/organization/accept-invitation" ||
    path === "/sign-out" ||
    path.startsWith("/sign-in") ||
    path === "/sign-up/email" ||
    path === "/admin/impersonate-user" ||
    path === "/admin/stop-impersonating"
  );
}

/** The active member (and its role) changes after these. */
export function changesActiveMember(path: string): boolean {
  return path === "/organization/update-member-role" || changesSession(path);
}

/**
 * Only http(s) and same-site relative URLs are followed; `javascript:` and friends never, nor
 * anything with control characters or backslashes (the one rule of safe-redirect.ts: a browser
 * turns `/\t/evil.example` into `//evil.example`).
 */
export function isSafeRedirect(url: string): boolean {
  if (hasUnsafeUrlCharacters(url)) return false;
  if (url.startsWith("/") && !url.startsWith("//")) return true;
  try {
    const { protocol } = new URL(url);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

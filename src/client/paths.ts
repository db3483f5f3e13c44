import type { Refresh } from "../contract/endpoints/define.js";
import { ROUTES } from "./route-table.js";
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

/**
 * A path the table routes by one method is called by that method (`signOut()` POSTs without a body,
 * `getFullOrganization({query})` GETs); otherwise an explicit method, else a body with keys POSTs.
 */
export function methodFor(path: string, body: Record<string, unknown>, explicit?: string): HttpMethod {
  const methods = ROUTES[path]?.methods;
  if (methods?.length === 1) return methods[0] as HttpMethod;
  if (explicit === "GET" || explicit === "POST") return explicit;
  return Object.keys(body).length > 0 ? "POST" : "GET";
}

/** Whether a successful call to `path` makes `state` stale; a new session makes everything stale. */
export function makesStale(path: string, state: Refresh): boolean {
  const refreshes = ROUTES[path]?.refreshes;
  if (!refreshes) return false;
  if (refreshes.includes(state)) return true;
  return refreshes.includes("session") && (state === "activeOrganization" || state === "activeMember");
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

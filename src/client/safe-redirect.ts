/** Tab, newline and other C0 controls, DEL, and backslashes: browsers strip or rewrite them in URLs. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f\\]/;

/** Whether a redirect target holds characters a browser strips or rewrites (so it is never followed). */
export function hasUnsafeUrlCharacters(value: string): boolean {
  return UNSAFE_CHARACTERS.test(value);
}

/**
 * The one rule for every client-side redirect: the target, resolved against the page's origin, is
 * followed only as a path on that origin. Control characters and backslashes are refused (a browser
 * strips `\t` from `/\t/evil.example`), and so is a resolved path starting `//` (dot segments make one).
 * Anything refused gives `fallback`.
 *
 * @example
 * sameOriginPath("/dashboard?tab=keys", "https://app.example.com"); // "/dashboard?tab=keys"
 * sameOriginPath("https://evil.example/", "https://app.example.com"); // "/"
 * sameOriginPath(params.get("redirectTo"), window.location.origin, "/account");
 */
export function sameOriginPath(value: string | null | undefined, origin: string, fallback = "/"): string {
  if (!value || hasUnsafeUrlCharacters(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return fallback;
  }
  if (url.origin !== origin || (url.protocol !== "http:" && url.protocol !== "https:")) return fallback;
  if (url.pathname.startsWith("//")) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

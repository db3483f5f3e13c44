/** Tab, newline and other C0 controls, DEL, and backslashes: browsers strip or rewrite them in URLs. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f\\]/;

/** Whether a redirect target holds characters a browser strips or rewrites (so it is never followed). */
export function hasUnsafeUrlCharacters(value: string): boolean {
  return UNSAFE_CHARACTERS.test(value);
}

/**
 * The one rule for every client-side redirect (after sign-in, One Tap, `?redirectTo=`): the target
 * is resolved against the page's origin and followed only when it stays on that origin, as a path.
 * Control characters and backslashes are refused outright: `/\t/evil.example` reads as a path but the
 * browser strips the tab and goes to `//evil.example`. The resolved path is refused when it starts
 * with `//`: dot segments (`/.//evil.example`, `/%2e//evil.example`) resolve to one, and followed as
 * a link it names another host. Anything refused gives `fallback`.
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

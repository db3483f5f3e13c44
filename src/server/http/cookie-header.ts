import { tryDecodeURIComponent } from "hono/utils/url";

/**
 * Hono's rules (hono/utils/cookie `parse`), copied so a value reads exactly as `getCookie` reads it:
 * which names can match, and which values are cookie values at all.
 */
const COOKIE_NAME = /^[!#-:<>-[\]-~]+$/;
const COOKIE_VALUE = /^[ !#-:<-[\]-~]*$/;

function isBlank(code: number): boolean {
  return code === 32 || code === 9;
}

/**
 * One cookie's value from a Cookie header, exactly as Hono's `parse(header, name)[name]` gives it
 * (trimming, quotes, cookie-octet check, first acceptable pair wins, lenient percent-decoding; the
 * tests compare the two), without splitting the whole header: the full parse cost more than the rest
 * of reading the session cookie.
 */
export function readCookie(header: string, name: string): string | undefined {
  let from = 0;
  while (from < header.length) {
    const at = header.indexOf(name, from);
    if (at === -1) return undefined;
    // Checked once the name is present at all: most reads (dont_remember, the cache) find nothing.
    if (from === 0 && !COOKIE_NAME.test(name)) return undefined;
    const pairStart = header.lastIndexOf(";", at) + 1;
    const semicolon = header.indexOf(";", at + name.length);
    const pairEnd = semicolon === -1 ? header.length : semicolon;
    // Whatever happens below, no later match can start inside this pair: its name starts it.
    from = pairEnd + 1;
    let i = pairStart;
    while (i < at && isBlank(header.charCodeAt(i))) i++;
    // Something before the name in this pair: it is another cookie's name or value (`old_x.session=`).
    if (i !== at) continue;
    let eq = at + name.length;
    while (eq < pairEnd && isBlank(header.charCodeAt(eq))) eq++;
    // A longer name (`x.session_token_old`) or a pair without a value.
    if (eq === pairEnd || header.charCodeAt(eq) !== 61 /* = */) continue;
    let start = eq + 1;
    let end = pairEnd;
    while (start < end && isBlank(header.charCodeAt(start))) start++;
    while (end > start && isBlank(header.charCodeAt(end - 1))) end--;
    let value = header.slice(start, end);
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (COOKIE_VALUE.test(value)) return tryDecodeURIComponent(value);
  }
  return undefined;
}

/**
 * Turns the trusted-origin list into one predicate at start-up. Entries are exact origins
 * (`https://app.example.com`), wildcard patterns (`https://*.example.com`, `*.example.com` matched
 * against the host), or custom schemes (`myapp://`).
 */
export function createOriginPredicate(entries: readonly string[]): (origin: string) => boolean {
  const exact = new Set<string>();
  const patterns: { regex: RegExp; against: "origin" | "host" }[] = [];
  const schemes: string[] = [];

  for (const entry of entries) {
    const isCustomScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(entry) && !/^https?:\/\//i.test(entry);
    if (isCustomScheme) {
      schemes.push(entry.toLowerCase());
    } else if (entry.includes("*") || entry.includes("?")) {
      const against = entry.includes("://") ? "origin" : "host";
      patterns.push({ regex: wildcardToRegex(entry.toLowerCase()), against });
    } else {
      exact.add(normalizeOrigin(entry) ?? entry.toLowerCase());
    }
  }

  return (origin: string) => {
    const normalized = normalizeOrigin(origin);
    if (normalized === null) return schemes.some((scheme) => origin.toLowerCase().startsWith(scheme));
    if (exact.has(normalized)) return true;
    const host = new URL(normalized).hostname;
    return patterns.some(({ regex, against }) => regex.test(against === "origin" ? normalized : host));
  };
}

/** `scheme://host[:port]` of an http(s) URL, lowercased, or null for anything else. */
export function normalizeOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    return url.origin.toLowerCase();
  } catch {
    return null;
  }
}

function wildcardToRegex(pattern: string): RegExp {
  // `*` stays within one label so `*.example.com` cannot match `evil.com/.example.com`.
  const body = pattern
    .split("")
    .map((ch) =>
      ch === "*" ? "[^./:]+(?:\\.[^./:]+)*" : ch === "?" ? "[^./:]" : ch.replace(/[.+^${}()|[\]\\/]/g, "\\$&"),
    )
    .join("");
  return new RegExp(`^${body}$`);
}

/**
 * Whether a redirect target is safe: a same-site relative path (one leading `/`, no `//`, no
 * backslash, no control characters, no encoded slash or backslash), or an absolute URL on a trusted origin.
 */
export function isSafeRedirectTarget(target: string, isTrustedOrigin: (origin: string) => boolean): boolean {
  if (target.startsWith("/")) {
    if (target.startsWith("//") || target.includes("\\")) return false;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what we refuse
    if (/[\u0000-\u001f\u007f]/.test(target)) return false;
    const path = target.split(/[?#]/, 1)[0] ?? "";
    if (path.includes("//") || /%2f|%5c/i.test(path)) return false;
    return true;
  }
  try {
    const url = new URL(target);
    if (url.protocol === "http:" || url.protocol === "https:") return isTrustedOrigin(url.origin);
    return isTrustedOrigin(target);
  } catch {
    return false;
  }
}

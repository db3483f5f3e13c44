import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createOriginPredicate, isSafeRedirectTarget } from "./trusted-origins.js";

describe("createOriginPredicate", () => {
  const trusted = createOriginPredicate([
    "http://localhost:3000",
    "https://app.example.com",
    "https://*.example.org",
    "*.partner.test",
    "myapp://",
  ]);

  it.each([
    ["http://localhost:3000", true],
    ["HTTP://LOCALHOST:3000", true],
    ["http://localhost:3001", false],
    ["https://app.example.com", true],
    ["http://app.example.com", false],
    ["https://a.example.org", true],
    ["https://a.b.example.org", true],
    ["https://example.org", false],
    ["https://evil.com", false],
    ["https://x.partner.test", true],
    ["http://x.partner.test:8080", true],
    ["https://x.partner.test.evil.com", false],
    ["myapp://callback", true],
    ["otherapp://callback", false],
    ["not a url", false],
  ])("%s -> %s", (origin, expected) => {
    expect(trusted(origin)).toBe(expected);
  });
});

describe("isSafeRedirectTarget", () => {
  const trusted = createOriginPredicate(["https://app.example.com"]);
  it.each([
    ["/", true],
    ["/a?b=c", true],
    ["/a/b#x", true],
    ["https://app.example.com/x", true],
    ["//evil.com", false],
    ["/\\evil.com", false],
    ["/a//b", false],
    ["/%2fevil", false],
    ["/%5Cevil", false],
    ["/a\nb", false],
    ["relative", false],
    ["https://evil.com/", false],
    ["javascript:alert(1)", false],
    ["data:text/html,x", false],
    // Dot segments, plain and encoded, that a browser resolves to `//evil.com`.
    ["/.//evil.com", false],
    ["/..//evil.com", false],
    ["/a/..//evil.com", false],
    ["/%2e//evil.com", false],
    ["/%2E%2e//evil.com", false],
    ["/.%2e//evil.com?x=1", false],
    ["/%2e%2f/evil.com", false],
    ["/.%2f/evil.com", false],
    ["/.\\/evil.com", false],
    ["/.\t//evil.com", false],
    ["/.%09//evil.com", false],
    ["/\t/evil.com", false],
    ["ht\ttps://evil.com", false],
    ["java\nscript:alert(1)", false],
    ["https://app.example.com/.//evil.com", true],
    ["/a/./b/../c", true],
    ["/a/%2e%2e/b", true],
  ])("%j -> %s", (target, expected) => {
    expect(isSafeRedirectTarget(target, trusted)).toBe(expected);
  });

  const piece = fc.constantFrom(
    "/",
    "//",
    "\\",
    ".",
    "..",
    "%2e",
    "%2E",
    "%2f",
    "%5c",
    "%09",
    "\t",
    "\n",
    " ",
    "evil.com",
    "@",
    ":",
    "?",
    "#",
    "a",
  );
  const candidate = fc.oneof(
    fc.string(),
    fc.array(piece, { maxLength: 10 }).map((parts) => parts.join("")),
  );

  it("a relative target it accepts resolves, from any page of BASE_URL, to a path on BASE_URL", () => {
    const base = "https://app.example.com";
    fc.assert(
      fc.property(candidate, (target) => {
        if (!target.startsWith("/") || !isSafeRedirectTarget(target, trusted)) return;
        for (const page of [`${base}/`, `${base}/deep/page?q=1`]) {
          const url = new URL(target, page);
          expect(url.origin).toBe(base);
          expect(url.pathname.startsWith("//")).toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

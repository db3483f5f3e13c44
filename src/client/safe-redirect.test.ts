import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sameOriginPath } from "./safe-redirect.js";

const ORIGIN = "https://app.example.com";

describe("sameOriginPath", () => {
  it.each([
    ["/dashboard", "/dashboard"],
    ["/accept-invitation/abc?x=1#top", "/accept-invitation/abc?x=1#top"],
    ["https://app.example.com/settings", "/settings"],
    ["settings", "/settings"],
  ])("follows %s as %s", (value, expected) => {
    expect(sameOriginPath(value, ORIGIN)).toBe(expected);
  });

  it.each([
    "//evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r/evil.example",
    "\t//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/\\/evil.example",
    "https://evil.example/",
    "https://app.example.com.evil.example/",
    "https://app.example.com@evil.example/",
    "http://app.example.com/",
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "///evil.example",
    "/%09/evil.example/../x\u0000",
    // Dot segments (plain and encoded) that leave `//evil.example` once the browser resolves them.
    "/.//evil.example",
    "/././/evil.example",
    "/..//evil.example",
    "/a/..//evil.example",
    "/%2e//evil.example",
    "/%2E//evil.example",
    "/%2e%2e//evil.example",
    "/%2E%2e//evil.example",
    "/.%2e//evil.example",
    "/a/%2e%2E//evil.example?x=1#y",
    "https://app.example.com/.//evil.example",
    "https://app.example.com/%2e%2e//evil.example",
    ".//evil.example",
    "..//evil.example",
    "./..//evil.example",
    // Tabs and newlines inside the scheme or the slashes (browsers strip them).
    "java\tscript:alert(1)",
    "jav\nascript:alert(1)",
    "ht\ttps://evil.example",
    "/\t/evil.example",
    "/.\t//evil.example",
    "/.\\/evil.example",
    "",
    null,
    undefined,
  ])("refuses %j", (value) => {
    expect(sameOriginPath(value, ORIGIN, "/fallback")).toBe("/fallback");
  });

  it.each([
    ["/%2f/evil.example", "/%2f/evil.example"],
    ["/.%2f/evil.example", "/.%2f/evil.example"],
    ["/%5c/evil.example", "/%5c/evil.example"],
    ["/a/./b/../c", "/a/c"],
    ["/a/%2e%2e/b", "/b"],
  ])("keeps %j on the origin as %j (an encoded slash is no separator)", (value, expected) => {
    expect(sameOriginPath(value, ORIGIN)).toBe(expected);
  });

  /** Pieces the payloads above are made of, so the property also tries their combinations. */
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
    "\t",
    "\n",
    "\r",
    " ",
    "evil.example",
    "@",
    ":",
    "?",
    "#",
    "https:",
    "javascript:",
    "app.example.com",
    "%00",
    "\u0000",
    "a",
  );
  const candidate = fc.oneof(
    fc.string(),
    fc.array(piece, { maxLength: 10 }).map((parts) => parts.join("")),
  );

  it("whatever it returns, followed from any page of the origin, stays on the origin", () => {
    fc.assert(
      fc.property(candidate, (value) => {
        const path = sameOriginPath(value, ORIGIN, "/fallback");
        expect(path.startsWith("/")).toBe(true);
        expect(path.startsWith("//")).toBe(false);
        for (const page of [`${ORIGIN}/`, `${ORIGIN}/deep/page?q=1`]) {
          expect(new URL(path, page).origin).toBe(ORIGIN);
        }
        // A second pass changes nothing: the path is already what the browser would resolve.
        expect(sameOriginPath(path, ORIGIN, "/fallback")).toBe(path);
      }),
      { numRuns: 2000 },
    );
  });
});

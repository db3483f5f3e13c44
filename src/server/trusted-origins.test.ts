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
  ])("%j -> %s", (target, expected) => {
    expect(isSafeRedirectTarget(target, trusted)).toBe(expected);
  });
});

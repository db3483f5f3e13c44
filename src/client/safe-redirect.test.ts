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
    "",
    null,
    undefined,
  ])("refuses %j", (value) => {
    expect(sameOriginPath(value, ORIGIN, "/fallback")).toBe("/fallback");
  });
});

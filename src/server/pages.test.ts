import { describe, expect, it } from "vitest";
import { resolveOptions } from "./options.js";
import { resolvePages } from "./pages.js";
import { createOriginPredicate } from "./trusted-origins.js";

const baseURL = "https://auth.example.com";
const isTrustedOrigin = createOriginPredicate([baseURL, "https://app.example.com"]);
const pagesFrom = (pages: Record<string, unknown>) =>
  resolvePages(resolveOptions({ pages }, { baseURL }).pages, { baseURL, isTrustedOrigin });

describe("resolvePages", () => {
  it("defaults to the bundled application's pages on BASE_URL", () => {
    const pages = pagesFrom({});
    expect(pages.resetPassword({})).toBe("https://auth.example.com/reset-password");
    expect(pages.magicLink({ token: "t", callbackURL: "/", errorCallbackURL: undefined })).toBe(
      "https://auth.example.com/magic-link?token=t&callbackURL=%2F",
    );
    expect(pages.acceptInvitation({ id: "a/b" })).toBe("https://auth.example.com/accept-invitation/a%2Fb");
    expect(pages.error({ error: "x" })).toBe("https://auth.example.com/?error=x");
  });

  it("takes a path, an absolute URL on a trusted origin, or a function", () => {
    const pages = pagesFrom({
      resetPassword: "/account/new-password?step=2",
      acceptInvitation: "https://app.example.com/join",
      magicLink: ({ token }: { token: string }) => `https://app.example.com/m/${token}`,
    });
    expect(pages.resetPassword({})).toBe("https://auth.example.com/account/new-password?step=2");
    expect(pages.acceptInvitation({ id: "inv1" })).toBe("https://app.example.com/join?id=inv1");
    expect(pages.magicLink({ token: "t1", callbackURL: "/" })).toBe("https://app.example.com/m/t1");
  });

  it("refuses another origin, a protocol-relative path and a function that returns one, naming the option", () => {
    expect(() => pagesFrom({ resetPassword: "https://evil.example/reset" })).toThrow(
      'options: option "pages.resetPassword": must be a path on BASE_URL',
    );
    expect(() => pagesFrom({ magicLink: "//evil.example/m" })).toThrow('option "pages.magicLink"');
    expect(() => pagesFrom({ verifyEmail: 42 })).toThrow('option "pages.verifyEmail"');
    expect(() => pagesFrom({ unknown: "/x" })).toThrow("pages");
    const pages = pagesFrom({ error: () => "https://evil.example/" });
    expect(() => pages.error({ error: "x" })).toThrow('the function returned "https://evil.example/"');
  });
});

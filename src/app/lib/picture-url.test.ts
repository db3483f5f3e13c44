import { describe, expect, it } from "vitest";
import { isPictureUrl } from "./picture-url.js";

describe("isPictureUrl", () => {
  it("takes https anywhere and http only on this computer", () => {
    expect(isPictureUrl("https://img.example/a.png")).toBe(true);
    expect(isPictureUrl("http://localhost:5173/me.png")).toBe(true);
    expect(isPictureUrl("http://127.0.0.1/me.png")).toBe(true);
    expect(isPictureUrl("http://[::1]:8080/me.png")).toBe(true);
    expect(isPictureUrl("http://img.example/a.png")).toBe(false);
    expect(isPictureUrl("http://127.0.0.1.evil.example/a.png")).toBe(false);
  });

  it("refuses other schemes and text that is no URL", () => {
    expect(isPictureUrl("javascript:alert(1)")).toBe(false);
    expect(isPictureUrl("data:image/png;base64,AAAA")).toBe(false);
    expect(isPictureUrl("ftp://img.example/a.png")).toBe(false);
    expect(isPictureUrl("me.png")).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { createTokenCipher, deriveTokenKey } from "./token-cipher.js";

const SECRET = "a-secret-that-is-at-least-32-characters-long";

describe("token cipher (AES-256-GCM, HKDF key)", () => {
  it("round-trips and never stores the plaintext", () => {
    const cipher = createTokenCipher(SECRET);
    const stored = cipher.encrypt("ya29.access-token-é");
    expect(stored).toMatch(/^v1\.[\w-]{16}\.[\w-]+\.[\w-]{22}$/);
    expect(stored).not.toContain("access-token");
    expect(cipher.decrypt(stored)).toBe("ya29.access-token-é");
  });

  it("uses a fresh IV each time", () => {
    const cipher = createTokenCipher(SECRET);
    expect(cipher.encrypt("same")).not.toBe(cipher.encrypt("same"));
  });

  it("refuses tampered values, other secrets and foreign formats", () => {
    const stored = createTokenCipher(SECRET).encrypt("token");
    const [v, iv, body, tag] = stored.split(".") as [string, string, string, string];
    const flipped = Buffer.from(body, "base64url");
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    const cipher = createTokenCipher(SECRET);
    expect(cipher.decrypt([v, iv, flipped.toString("base64url"), tag].join("."))).toBeNull();
    expect(createTokenCipher(`${SECRET}-other`).decrypt(stored)).toBeNull();
    expect(cipher.decrypt("plain-token")).toBeNull();
    expect(cipher.decrypt(`${stored}.extra`)).toBeNull();
    expect(cipher.decrypt("v1.short.x.y")).toBeNull();
  });

  it("derives 32-byte keys that differ by secret and purpose", () => {
    expect(deriveTokenKey(SECRET)).toHaveLength(32);
    expect(deriveTokenKey(SECRET).equals(deriveTokenKey(SECRET))).toBe(true);
    expect(deriveTokenKey(SECRET).equals(deriveTokenKey(`${SECRET}x`))).toBe(false);
    expect(deriveTokenKey(SECRET).equals(deriveTokenKey(SECRET, "other"))).toBe(false);
  });
});

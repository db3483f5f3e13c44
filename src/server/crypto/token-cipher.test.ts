import { describe, expect, it } from "vitest";
import { deriveKey, encryptString } from "./encryption.js";
import { createTokenCipher } from "./token-cipher.js";

const SECRET = "a-secret-that-is-at-least-32-characters-long";

describe("provider token cipher (AES-256-GCM, HKDF key per purpose)", () => {
  it("round-trips and never stores the plaintext", () => {
    const cipher = createTokenCipher(SECRET);
    const stored = cipher.encrypt("ya29.access-token-é");
    expect(stored).toMatch(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(stored).not.toContain("access-token");
    expect(cipher.decrypt(stored)).toBe("ya29.access-token-é");
  });

  it("uses a fresh IV each time", () => {
    const cipher = createTokenCipher(SECRET);
    expect(cipher.encrypt("same")).not.toBe(cipher.encrypt("same"));
  });

  it("refuses tampered values, truncated tags, other secrets, other purposes and foreign formats", () => {
    const cipher = createTokenCipher(SECRET);
    const stored = cipher.encrypt("token");
    const [v, iv, tag, body] = stored.split(".") as [string, string, string, string];
    const flipped = Buffer.from(body, "base64url");
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(cipher.decrypt([v, iv, tag, flipped.toString("base64url")].join("."))).toBeNull();
    const shortTag = Buffer.from(tag, "base64url").subarray(0, 4).toString("base64url");
    expect(cipher.decrypt([v, iv, shortTag, body].join("."))).toBeNull();
    expect(createTokenCipher(`${SECRET}-other`).decrypt(stored)).toBeNull();
    expect(cipher.decrypt(encryptString(deriveKey(SECRET, "other-purpose"), "token"))).toBeNull();
    expect(cipher.decrypt("plain-token")).toBeNull();
    expect(cipher.decrypt("v1.short.x.y")).toBeNull();
  });
});

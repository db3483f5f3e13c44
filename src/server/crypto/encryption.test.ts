import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decryptString, deriveKey, encryptString } from "./encryption.js";

const secret = "k".repeat(32);

describe("AES-256-GCM string encryption", () => {
  const key = deriveKey(secret, "tests");

  it("round-trips any string, with a fresh IV each time", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const a = encryptString(key, text);
        expect(decryptString(key, a)).toBe(text);
        expect(encryptString(key, text)).not.toBe(a);
      }),
    );
  });

  it("refuses another purpose's key, another secret, and any altered byte", () => {
    const value = encryptString(key, "refresh-token");
    expect(decryptString(deriveKey(secret, "other"), value)).toBeNull();
    expect(decryptString(deriveKey("z".repeat(32), "tests"), value)).toBeNull();
    const parts = value.split(".");
    const flipped = parts[3]!.startsWith("A") ? `B${parts[3]!.slice(1)}` : `A${parts[3]!.slice(1)}`;
    expect(decryptString(key, [parts[0], parts[1], parts[2], flipped].join("."))).toBeNull();
    expect(decryptString(key, "not-encrypted")).toBeNull();
  });
});

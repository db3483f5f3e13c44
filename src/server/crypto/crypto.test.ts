import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeEqual, sha256Base64Url } from "./digest.js";
import { argon2idHasher, limiter } from "./password.js";
import { LOWER_ALPHANUMERIC, newId, randomString } from "./random.js";
import { signValue, unsignValue } from "./signed-value.js";

const secret = "x".repeat(32);

describe("randomString", () => {
  it("has the requested length and alphabet", () => {
    expect(newId()).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(randomString(32, LOWER_ALPHANUMERIC)).toMatch(/^[0-9a-z]{32}$/);
    expect(new Set(Array.from({ length: 200 }, () => randomString(16))).size).toBe(200);
  });

  it("uses every character of the alphabet without bias toward the first ones", () => {
    const counts = new Map<string, number>();
    for (const ch of randomString(36_000, LOWER_ALPHANUMERIC)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(36);
    for (const n of counts.values()) expect(n).toBeGreaterThan(800);
  });
});

describe("signed values", () => {
  it("round-trips any value and refuses any change to value or signature", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1, maxLength: 1 }), (value, ch) => {
        const signed = signValue(value, secret);
        expect(unsignValue(signed, secret)).toBe(value);
        expect(unsignValue(signed, "y".repeat(32))).toBeNull();
        const tampered = `${value}${ch}${signed.slice(value.length)}`;
        expect(unsignValue(tampered, secret)).toBeNull();
      }),
    );
  });

  it("matches better-auth's wire format: base64 HMAC-SHA256 with padding", () => {
    expect(signValue("abc", secret)).toMatch(/^abc\.[A-Za-z0-9+/]{43}=$/);
    expect(unsignValue("abc", secret)).toBeNull();
    expect(unsignValue("abc.short=", secret)).toBeNull();
  });
});

describe("digests", () => {
  it("sha256Base64Url is the 43-character URL-safe digest", () => {
    expect(sha256Base64Url("abc")).toBe("ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");
  });

  it("safeEqual compares exactly", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
  });
});

describe("argon2idHasher", () => {
  const cheap = argon2idHasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 });

  it("verifies the right password only, and NFKC-normalises", async () => {
    const hash = await cheap.hash("ﬁsh password");
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    expect(await cheap.verify(hash, "fish password")).toBe(true);
    expect(await cheap.verify(hash, "fish passwore")).toBe(false);
    expect(await cheap.verify("garbage", "x")).toBe(false);
  });

  it("asks for a rehash when the parameters change", async () => {
    const hash = await cheap.hash("pw");
    expect(cheap.needsRehash(hash)).toBe(false);
    expect(argon2idHasher().needsRehash(hash)).toBe(true);
    expect(argon2idHasher().needsRehash("00:11")).toBe(true);
  });

  it("defaults to OWASP's argon2id minimum", async () => {
    expect(await argon2idHasher().hash("pw")).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });
});

describe("limiter (argon2 runs at most one per usable core)", () => {
  it("runs at most `size` tasks at once, the rest in order as slots free, and frees a slot on failure", async () => {
    const slot = limiter(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const releases: (() => void)[] = [];
    const tasks = [0, 1, 2, 3, 4].map((i) =>
      slot(async () => {
        running += 1;
        most = Math.max(most, running);
        order.push(i);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
        if (i === 1) throw new Error("task 1 fails");
        return i;
      }),
    );
    const settled = Promise.allSettled(tasks);
    for (let released = 0; released < 5; released += 1) {
      await new Promise((resolve) => setImmediate(resolve));
      releases.shift()?.();
    }
    const results = await settled;
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled", "fulfilled"]);
  });
});

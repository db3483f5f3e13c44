import { createHash, createHmac, createSecretKey, type KeyObject, timingSafeEqual } from "node:crypto";

export function sha256Base64Url(input: string): string {
  return createHash("sha256").update(input).digest("base64url");
}

/**
 * Each secret's key, made once: createHmac with a string converts it into a new key every call, and
 * every request verifies a signed cookie (bench/README.md, lazy loads). A process holds
 * one secret or a few (tests build many apps), so the map is simply emptied should it ever fill.
 */
const secretKeys = new Map<string, KeyObject>();
const MAX_SECRET_KEYS = 16;

function secretKey(secret: string): KeyObject {
  let key = secretKeys.get(secret);
  if (key === undefined) {
    if (secretKeys.size >= MAX_SECRET_KEYS) secretKeys.clear();
    key = createSecretKey(Buffer.from(secret, "utf8"));
    secretKeys.set(secret, key);
  }
  return key;
}

export function hmacSha256(secret: string, message: string, encoding: "base64" | "base64url"): string {
  return createHmac("sha256", secretKey(secret)).update(message).digest(encoding);
}

/** Constant-time string comparison; unequal lengths compare unequal without leaking where. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

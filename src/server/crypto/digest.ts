import { createHash, createHmac, timingSafeEqual } from "node:crypto";

export function sha256Base64Url(input: string): string {
  return createHash("sha256").update(input).digest("base64url");
}

export function hmacSha256(secret: string, message: string, encoding: "base64" | "base64url"): string {
  return createHmac("sha256", secret).update(message).digest(encoding);
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

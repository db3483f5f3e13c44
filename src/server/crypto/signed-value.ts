import { hmacSha256, safeEqual } from "./digest.js";

/**
 * Signed cookie values in better-auth's wire format: `value + "." + base64(HMAC-SHA256(secret, value))`.
 * The signature is standard base64 with padding (44 characters); the cookie layer URL-encodes the
 * whole string, so `+ / =` travel as `%2B %2F %3D`.
 */
export function signValue(value: string, secret: string): string {
  return `${value}.${hmacSha256(secret, value, "base64")}`;
}

/** The value inside a (URL-decoded) signed cookie, or null when it is malformed or forged. */
export function unsignValue(decoded: string, secret: string): string | null {
  const dot = decoded.lastIndexOf(".");
  if (dot <= 0) return null;
  const value = decoded.slice(0, dot);
  const signature = decoded.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith("=")) return null;
  return safeEqual(signature, hmacSha256(secret, value, "base64")) ? value : null;
}

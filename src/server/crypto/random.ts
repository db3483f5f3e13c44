import { randomBytes } from "node:crypto";

export const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const LOWER_ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyz0123456789";
export const URL_SAFE = `${ALPHANUMERIC}-_`;
/** Numeric codes people type from a mail. */
export const DIGITS = "0123456789";

/** A uniformly random string of `length` characters from `alphabet` (rejection sampling, no modulo bias). */
export function randomString(length: number, alphabet: string = ALPHANUMERIC): string {
  if (alphabet.length < 2 || alphabet.length > 256) throw new RangeError("alphabet must have 2-256 characters");
  const limit = 256 - (256 % alphabet.length);
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= limit) continue;
      out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Row ids: 32 alphanumeric characters (~190 bits), the width better-auth uses. */
export function newId(): string {
  return randomString(32);
}

import { crc32 } from "node:zlib";
import { ALPHANUMERIC, randomString } from "../crypto/random.js";

/**
 * An API key's text: `<prefix><secret><checksum>`. The secret is 40 base62 characters (~238 bits);
 * the checksum is the CRC-32 of everything before it in 6 base62 characters, so a secret scanner
 * (and this service, before any read) can tell a key from a random string, as GitHub's tokens do.
 */
const SECRET_LENGTH = 40;
const CHECKSUM_LENGTH = 6;
/** Longer than any key this service makes: anything beyond is refused before it is hashed. */
export const MAX_KEY_LENGTH = 32 + SECRET_LENGTH + CHECKSUM_LENGTH;

function checksumOf(text: string): string {
  let value = crc32(text);
  let out = "";
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHANUMERIC[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export function newKeyText(prefix: string): string {
  const body = prefix + randomString(SECRET_LENGTH);
  return body + checksumOf(body);
}

/** Whether the text ends in the checksum of what precedes it (not whether it is a live key). */
export function hasKeyChecksum(text: string): boolean {
  if (text.length < SECRET_LENGTH + CHECKSUM_LENGTH || text.length > MAX_KEY_LENGTH) return false;
  const body = text.slice(0, -CHECKSUM_LENGTH);
  return checksumOf(body) === text.slice(-CHECKSUM_LENGTH);
}

/** What a screen shows to tell keys apart: the prefix and four characters of the secret. */
export function startOf(text: string, prefix: string): string {
  return text.slice(0, prefix.length + 4);
}

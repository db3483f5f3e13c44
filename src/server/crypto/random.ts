import { randomFillSync } from "node:crypto";

export const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const LOWER_ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyz0123456789";
export const URL_SAFE = `${ALPHANUMERIC}-_`;
/** Numeric codes people type from a mail. */
export const DIGITS = "0123456789";

/**
 * Random bytes drawn from a pool filled 4 KiB at a time, as crypto.randomUUID does: one randomBytes
 * call per id cost more than building the id (a Buffer and an OpenSSL call each; an audited write
 * draws one for its entry). The bytes are the same CSPRNG's, each handed out once.
 */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

function randomByte(): number {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  return pool[poolAt++] as number;
}

/** A uniformly random string of `length` characters from `alphabet` (rejection sampling, no modulo bias). */
export function randomString(length: number, alphabet: string = ALPHANUMERIC): string {
  if (alphabet.length < 2 || alphabet.length > 256) throw new RangeError("alphabet must have 2-256 characters");
  const limit = 256 - (256 % alphabet.length);
  let out = "";
  while (out.length < length) {
    const byte = randomByte();
    if (byte < limit) out += alphabet[byte % alphabet.length];
  }
  return out;
}

/** Row ids: 32 alphanumeric characters (~190 bits), the width better-auth uses. */
export function newId(): string {
  return randomString(32);
}

let sortableCounter = 0;

/**
 * An id that sorts (as text) after every one this process made before: the time `at` to the
 * millisecond, then a counter for ids of the same millisecond, then newId()'s random part, so ids of
 * two instances never clash. For rows read newest first with the id as the tie-break.
 */
export function newSortableId(at: Date): string {
  sortableCounter = (sortableCounter + 1) % 36 ** 4;
  return `${at.getTime().toString(36).padStart(9, "0")}${sortableCounter.toString(36).padStart(4, "0")}${newId()}`;
}

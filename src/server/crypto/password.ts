import { availableParallelism } from "node:os";
import { hash as argon2Hash, verify as argon2Verify } from "@node-rs/argon2";
import {
  argon2Problem,
  canVerifyLegacyHash,
  type LegacyHashSettings,
  legacyFormatOf,
  verifyLegacyHash,
} from "./legacy-hashes.js";

/** @node-rs/argon2 declares its algorithms as a const enum, which isolated modules cannot read. */
const ARGON2ID = 2;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(stored: string, password: string): Promise<boolean>;
  /** True when a stored hash was made with other parameters or another algorithm. */
  needsRehash(stored: string): boolean;
  /**
   * False for a stored value verify refuses without any work (no form it knows, malformed, costs
   * above the bounds), so sign-in can spend a wrong password's work instead. Absent: all are verified.
   */
  canVerify?(stored: string): boolean;
}

export interface Argon2Params {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** OWASP's current minimum for argon2id: 19 MiB, 2 iterations, 1 lane. */
export const OWASP_ARGON2ID: Argon2Params = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

/**
 * argon2id in PHC format (`$argon2id$v=19$m=...,t=...,p=...$salt$hash`), computed on the libuv pool.
 * Also verifies other argon2 hashes (argon2i, other costs), which needsRehash then has replaced,
 * when their costs are within HASH_BOUNDS.argon2 (crypto/legacy-hashes.ts): one imported hash may
 * ask for 4 TiB.
 *
 * @example
 * const auth = await createAuth({
 *   baseURL, secret, database,
 *   hasher: argon2idHasher({ memoryCost: 12288, timeCost: 3, parallelism: 1 }),
 * });
 */
export function argon2idHasher(params: Argon2Params = OWASP_ARGON2ID): PasswordHasher {
  const prefix = `$argon2id$v=19$m=${params.memoryCost},t=${params.timeCost},p=${params.parallelism}$`;
  const slot = limiter(availableParallelism());
  const canVerify = (stored: string) =>
    stored.startsWith(prefix) || (stored.startsWith("$argon2") && argon2Problem(stored) === null);
  return {
    hash: (password) => slot(() => argon2Hash(password.normalize("NFKC"), { algorithm: ARGON2ID, ...params })),
    async verify(stored, password) {
      const normalized = password.normalize("NFKC");
      if (canVerify(stored)) {
        try {
          if (await slot(() => argon2Verify(stored, normalized))) return true;
          // Another system's argon2 hash was made from the password as typed, not normalized.
          return (
            !stored.startsWith(prefix) && normalized !== password && (await slot(() => argon2Verify(stored, password)))
          );
        } catch {
          return false;
        }
      }
      return false;
    },
    needsRehash: (stored) => !stored.startsWith(prefix),
    canVerify,
  };
}

/**
 * `hasher`, which also verifies other systems' hashes (crypto/legacy-hashes.ts): imported users sign
 * in with the password they have, and the sign-in replaces the hash with the hasher's own.
 */
export function withLegacyHashes(hasher: PasswordHasher, settings: LegacyHashSettings): PasswordHasher {
  const slot = limiter(availableParallelism());
  return {
    hash: (password) => hasher.hash(password),
    verify: (stored, password) =>
      legacyFormatOf(stored)
        ? slot(() => verifyLegacyHash(stored, password, settings))
        : hasher.verify(stored, password),
    needsRehash: (stored) => legacyFormatOf(stored) !== null || hasher.needsRehash(stored),
    canVerify: (stored) =>
      legacyFormatOf(stored) ? canVerifyLegacyHash(stored, settings) : (hasher.canVerify?.(stored) ?? true),
  };
}

/**
 * At most `size` argon2 computations at once: each holds its memory cost (19 MiB) for its whole run,
 * and on N usable cores more than N at once finish no sooner, they only hold more memory (libuv's pool
 * would run 4). The others wait their turn in order.
 */
export function limiter(size: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
}

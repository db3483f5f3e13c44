import { scrypt as scryptCallback, timingSafeEqual } from "node:crypto";
import { availableParallelism } from "node:os";
import { promisify } from "node:util";
import { hash as argon2Hash, verify as argon2Verify } from "@node-rs/argon2";

/** @node-rs/argon2 declares its algorithms as a const enum, which isolated modules cannot read. */
const ARGON2ID = 2;

const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: string,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(stored: string, password: string): Promise<boolean>;
  /** True when a stored hash was made with other parameters or another algorithm. */
  needsRehash(stored: string): boolean;
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
 * Also verifies better-auth's scrypt format (`<saltHex>:<keyHex>`) so users migrated from it can sign
 * in; their hash is then replaced on the next successful sign-in.
 */
export function argon2idHasher(params: Argon2Params = OWASP_ARGON2ID): PasswordHasher {
  const prefix = `$argon2id$v=19$m=${params.memoryCost},t=${params.timeCost},p=${params.parallelism}$`;
  const slot = limiter(availableParallelism());
  return {
    hash: (password) => slot(() => argon2Hash(password.normalize("NFKC"), { algorithm: ARGON2ID, ...params })),
    async verify(stored, password) {
      const normalized = password.normalize("NFKC");
      if (stored.startsWith("$argon2")) {
        try {
          return await slot(() => argon2Verify(stored, normalized));
        } catch {
          return false;
        }
      }
      return verifyBetterAuthScrypt(stored, normalized);
    },
    needsRehash: (stored) => !stored.startsWith(prefix),
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

async function verifyBetterAuthScrypt(stored: string, password: string): Promise<boolean> {
  const [salt, keyHex] = stored.split(":");
  if (!salt || !keyHex || keyHex.length !== 128) return false;
  const N = 16384;
  const r = 16;
  const key = await scrypt(password, salt, 64, { N, r, p: 1, maxmem: 128 * N * r * 2 });
  const expected = Buffer.from(keyHex, "hex");
  return expected.length === key.length && timingSafeEqual(expected, key);
}

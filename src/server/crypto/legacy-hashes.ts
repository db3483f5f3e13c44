import {
  createCipheriv,
  createHash,
  pbkdf2 as pbkdf2Callback,
  scrypt as scryptCallback,
  timingSafeEqual,
} from "node:crypto";
import { promisify } from "node:util";

/**
 * Password hashes made by other systems, verified so that imported users sign in with the password
 * they have; the sign-in then replaces the hash with the service's argon2id (needsRehash). The
 * stored forms are the ones docs/migrating.md lists (the importer writes them; most are the source's
 * own text). Argon2 of any variant is verified by the argon2 hasher itself.
 */
export type LegacyFormat =
  | "bcrypt"
  | "scrypt"
  | "firebase-scrypt"
  | "better-auth-scrypt"
  | "pbkdf2"
  | "phpass"
  | "sha256"
  | "md5";

/** Formats a fast GPU guesses by the billion: accepted unless `refuseWeak`, and replaced at the first sign-in. */
export const WEAK_FORMATS: ReadonlySet<LegacyFormat> = new Set(["sha256", "md5"]);

export interface LegacyHashSettings {
  /** Refuse salted SHA-256 and MD5 hashes: their users reset their password instead. */
  refuseWeak: boolean;
  /** The Firebase project's hash parameters (its console's "Password hash parameters"), base64. */
  firebaseScrypt?: { signerKey: string; saltSeparator: string };
}

const scrypt = promisify(scryptCallback) as (
  password: string | Buffer,
  salt: string | Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;
const pbkdf2 = promisify(pbkdf2Callback);

/** The largest scrypt cost accepted (2^20 at r=8 is 1 GiB): a stored hash must not exhaust memory. */
const MAX_SCRYPT_MEMORY = 1024 * 1024 * 1024;
const MAX_PBKDF2_ITERATIONS = 10_000_000;

export function legacyFormatOf(stored: string): LegacyFormat | null {
  if (/^\$2[aby]\$\d\d\$/.test(stored)) return "bcrypt";
  if (stored.startsWith("$scrypt$")) return "scrypt";
  if (stored.startsWith("$firebase-scrypt$")) return "firebase-scrypt";
  if (/^pbkdf2_sha(1|256)\$/.test(stored) || /^\$pbkdf2(-sha(1|256|512))?\$/.test(stored)) return "pbkdf2";
  if (/^\$[PH]\$/.test(stored)) return "phpass";
  if (stored.startsWith("$sha256$")) return "sha256";
  if (stored.startsWith("$md5$")) return "md5";
  if (/^[0-9a-f]+:[0-9a-f]{128}$/i.test(stored)) return "better-auth-scrypt";
  return null;
}

/** Whether `password` matches a hash in one of the legacy formats; false for any other or malformed text. */
export async function verifyLegacyHash(
  stored: string,
  password: string,
  settings: LegacyHashSettings,
): Promise<boolean> {
  const format = legacyFormatOf(stored);
  if (!format || (settings.refuseWeak && WEAK_FORMATS.has(format))) return false;
  try {
    return await VERIFIERS[format](stored, password, settings);
  } catch {
    // A malformed stored value (bad base64, absurd cost) is a failed match, never a 500.
    return false;
  }
}

const VERIFIERS: Record<
  LegacyFormat,
  (stored: string, password: string, settings: LegacyHashSettings) => Promise<boolean>
> = {
  bcrypt: verifyBcrypt,
  scrypt: verifyScrypt,
  "firebase-scrypt": verifyFirebaseScrypt,
  "better-auth-scrypt": verifyBetterAuthScrypt,
  pbkdf2: verifyPbkdf2,
  phpass: async (stored, password) => sameText(phpassHash(stored, password), stored),
  sha256: (stored, password) => verifySaltedDigest("sha256", stored, password),
  md5: (stored, password) => verifySaltedDigest("md5", stored, password),
};

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}

function sameText(a: string | null, b: string): boolean {
  return a !== null && sameBytes(Buffer.from(a), Buffer.from(b));
}

/** Base64 as these formats write it: standard, URL-safe, or passlib's (`.` for `+`), padded or not. */
function fromBase64(text: string): Buffer {
  return Buffer.from(text.replace(/\./g, "+").replace(/-/g, "+").replace(/_/g, "/"), "base64");
}

/** `$2a$`, `$2b$`, `$2y$` (PHP's name for the same algorithm), through hash-wasm, loaded when first met. */
async function verifyBcrypt(stored: string, password: string): Promise<boolean> {
  const { bcryptVerify } = await import("hash-wasm");
  return bcryptVerify({ password, hash: stored });
}

/** passlib's `$scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt>$<key>` (base64 without padding). */
async function verifyScrypt(stored: string, password: string): Promise<boolean> {
  const [, , params, salt, key] = stored.split("$");
  const cost = /^ln=(\d+),r=(\d+),p=(\d+)$/.exec(params ?? "");
  if (!cost || !salt || !key) return false;
  const [N, r, p] = [2 ** Number(cost[1]), Number(cost[2]), Number(cost[3])];
  const expected = fromBase64(key);
  return sameBytes(await scryptKey(password, fromBase64(salt), expected.length, N, r, p), expected);
}

function scryptKey(password: string | Buffer, salt: Buffer | string, length: number, N: number, r: number, p: number) {
  const memory = 128 * N * r;
  if (memory > MAX_SCRYPT_MEMORY || p > 16 || length > 256) throw new Error("scrypt cost out of range");
  return scrypt(password, salt, length, { N, r, p, maxmem: memory * 2 });
}

/**
 * Firebase's scrypt (`$firebase-scrypt$m=<mem_cost>,r=<rounds>$<salt>$<hash>`, base64 as its export
 * writes them): scrypt of the password with salt + the project's separator gives an AES-256-CTR key
 * (zero IV) that encrypts the project's signer key; the result is the hash.
 */
async function verifyFirebaseScrypt(stored: string, password: string, settings: LegacyHashSettings) {
  const project = settings.firebaseScrypt;
  const [, , params, salt, hash] = stored.split("$");
  const cost = /^m=(\d+),r=(\d+)$/.exec(params ?? "");
  if (!project || !cost || !salt || !hash) return false;
  const signerKey = Buffer.from(project.signerKey, "base64");
  const saltBytes = Buffer.concat([Buffer.from(salt, "base64"), Buffer.from(project.saltSeparator, "base64")]);
  const key = await scryptKey(Buffer.from(password), saltBytes, 32, 2 ** Number(cost[1]), Number(cost[2]), 1);
  const cipher = createCipheriv("aes-256-ctr", key, Buffer.alloc(16, 0));
  const made = Buffer.concat([cipher.update(signerKey), cipher.final()]);
  return sameBytes(made, Buffer.from(hash, "base64"));
}

/** better-auth's default: `<salt hex>:<key hex>`, scrypt N=16384, r=16, p=1, 64 bytes, of the NFKC password. */
async function verifyBetterAuthScrypt(stored: string, password: string): Promise<boolean> {
  const [salt, keyHex] = stored.split(":") as [string, string];
  const key = await scryptKey(password.normalize("NFKC"), salt, 64, 16384, 16, 1);
  return sameBytes(key, Buffer.from(keyHex, "hex"));
}

/**
 * PBKDF2 in Django's form (`pbkdf2_sha256$<iterations>$<salt>$<base64 key>`, the salt used as text)
 * or passlib's (`$pbkdf2-sha256$<iterations>$<salt>$<key>`, both in its base64).
 */
async function verifyPbkdf2(stored: string, password: string): Promise<boolean> {
  const django = /^pbkdf2_(sha1|sha256)\$(\d+)\$([^$]+)\$([^$]+)$/.exec(stored);
  const passlib = /^\$pbkdf2(?:-(sha1|sha256|sha512))?\$(\d+)\$([^$]*)\$([^$]+)$/.exec(stored);
  const match = django ?? passlib;
  if (!match) return false;
  const [, digest = "sha1", iterations, salt, key] = match as unknown as [
    string,
    string | undefined,
    string,
    string,
    string,
  ];
  const rounds = Number(iterations);
  if (rounds < 1 || rounds > MAX_PBKDF2_ITERATIONS) return false;
  const expected = django ? Buffer.from(key, "base64") : fromBase64(key);
  const saltValue = django ? salt : fromBase64(salt);
  return sameBytes(await pbkdf2(password, saltValue, rounds, expected.length, digest), expected);
}

const ITOA64 = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * phpass's portable hash (WordPress, phpBB: `$P$` or `$H$`): a cost letter, 8 salt characters, and
 * 2^cost rounds of MD5 over the previous digest and the password, written in phpass's own base64.
 */
function phpassHash(stored: string, password: string): string | null {
  const log2 = ITOA64.indexOf(stored[3] ?? "");
  const salt = stored.slice(4, 12);
  if (log2 < 7 || log2 > 30 || salt.length !== 8 || stored.length !== 34) return null;
  const secret = Buffer.from(password);
  let digest = createHash("md5").update(salt).update(secret).digest();
  for (let round = 1 << log2; round > 0; round -= 1) digest = createHash("md5").update(digest).update(secret).digest();
  return stored.slice(0, 12) + phpassBase64(digest);
}

function phpassBase64(input: Buffer): string {
  let output = "";
  for (let i = 0; i < input.length; ) {
    let value = input[i++]!;
    output += ITOA64[value & 0x3f];
    if (i < input.length) value |= input[i]! << 8;
    output += ITOA64[(value >> 6) & 0x3f];
    if (i++ >= input.length) break;
    if (i < input.length) value |= input[i]! << 16;
    output += ITOA64[(value >> 12) & 0x3f];
    if (i++ >= input.length) break;
    output += ITOA64[(value >> 18) & 0x3f];
  }
  return output;
}

/**
 * A salted digest: `$sha256$<order>$<salt>$<hex>` (or `$md5$...`), `order` saying what came first in
 * the hashed text, `sp` (salt then password) or `ps`; an empty salt for an unsalted digest.
 */
async function verifySaltedDigest(algorithm: "sha256" | "md5", stored: string, password: string): Promise<boolean> {
  const [, , order, salt, hex] = stored.split("$");
  if ((order !== "sp" && order !== "ps") || salt === undefined || !hex || !/^[0-9a-f]+$/i.test(hex)) return false;
  const text = order === "sp" ? salt + password : password + salt;
  return sameBytes(createHash(algorithm).update(text).digest(), Buffer.from(hex, "hex"));
}

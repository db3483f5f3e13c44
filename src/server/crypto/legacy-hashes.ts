import {
  createCipheriv,
  createHash,
  pbkdf2 as pbkdf2Callback,
  scrypt as scryptCallback,
  timingSafeEqual,
} from "node:crypto";
import { promisify } from "node:util";
import { runHashTask } from "./hash-workers.js";

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

const MiB = 1024 * 1024;

/**
 * The most work and memory a stored hash may ask for, at import and at every verification: above
 * what the systems these hashes come from use (docs/migrating.md lists them), far below what the
 * formats allow (bcrypt cost 31, phpass 2^30 rounds, argon2 4 TiB), which one sign-in could spend.
 */
export const HASH_BOUNDS = {
  bcrypt: { minCost: 4, maxCost: 14 },
  phpass: { minLog2Rounds: 7, maxLog2Rounds: 16 },
  argon2: { maxMemoryKiB: 128 * 1024, maxTime: 8, maxParallelism: 16 },
  /** Memory is scrypt's 128·N·r bytes; p multiplies the time. */
  scrypt: { maxMemoryBytes: 128 * MiB, maxParallelism: 4 },
  pbkdf2: { maxIterations: 2_000_000 },
} as const;

/** A stored hash read and checked: its parameters within HASH_BOUNDS, its digest whole. */
export type ParsedLegacyHash =
  | { format: "bcrypt"; text: string }
  | { format: "phpass"; salt: string; rounds: number; digest: string }
  | { format: "scrypt"; N: number; r: number; p: number; salt: Buffer; key: Buffer }
  | { format: "firebase-scrypt"; N: number; r: number; salt: Buffer; hash: Buffer }
  | { format: "better-auth-scrypt"; salt: string; key: Buffer }
  | { format: "pbkdf2"; digest: "sha1" | "sha256" | "sha512"; iterations: number; salt: Buffer | string; key: Buffer }
  | { format: "sha256" | "md5"; saltFirst: boolean; salt: string; digest: Buffer };

export function legacyFormatOf(stored: string): LegacyFormat | null {
  if (/^\$2[aby]\$/.test(stored)) return "bcrypt";
  if (stored.startsWith("$scrypt$")) return "scrypt";
  if (stored.startsWith("$firebase-scrypt$")) return "firebase-scrypt";
  if (/^pbkdf2_sha(1|256)\$/.test(stored) || /^\$pbkdf2(-sha(1|256|512))?\$/.test(stored)) return "pbkdf2";
  if (/^\$[PH]\$/.test(stored)) return "phpass";
  if (stored.startsWith("$sha256$")) return "sha256";
  if (stored.startsWith("$md5$")) return "md5";
  if (/^[0-9a-f]+:[0-9a-f]+$/i.test(stored)) return "better-auth-scrypt";
  return null;
}

/**
 * The stored hash's parameters, or why it is refused: malformed (a wrong length of salt or digest,
 * a character outside its alphabet) or out of HASH_BOUNDS. Null for a text in no legacy form.
 */
export function parseLegacyHash(stored: string): ParsedLegacyHash | string | null {
  const format = legacyFormatOf(stored);
  if (format === null) return null;
  return PARSERS[format](stored) ?? `malformed ${format} hash`;
}

/**
 * Why a hash is refused at import, or null when it is accepted: a legacy hash (parseLegacyHash), an
 * argon2 hash (argon2Problem), or a text in no known form.
 */
export function hashProblem(stored: string): string | null {
  if (stored.startsWith("$argon2")) return argon2Problem(stored);
  const parsed = parseLegacyHash(stored);
  if (parsed === null) return "unknown hash format";
  return typeof parsed === "string" ? parsed : null;
}

/**
 * Why an argon2 PHC text (`$argon2id$v=19$m=…,t=…,p=…$<salt>$<hash>`) is refused, or null: its costs
 * within HASH_BOUNDS.argon2, a salt of 8 bytes or more and a hash of 16 to 64 bytes.
 */
export function argon2Problem(stored: string): string | null {
  const match = /^\$argon2(?:id|i|d)\$(?:v=(?:16|19)\$)?m=(\d{1,10}),t=(\d{1,10}),p=(\d{1,3})\$([^$]+)\$([^$]+)$/.exec(
    stored,
  );
  if (!match) return "malformed argon2 hash";
  const [m, t, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const salt = strictBase64(match[4]!);
  const hash = strictBase64(match[5]!);
  if (!salt || salt.length < 8 || salt.length > 64 || !hash || hash.length < 16 || hash.length > 64) {
    return "malformed argon2 hash";
  }
  const bounds = HASH_BOUNDS.argon2;
  if (m < 8 * p || t < 1 || p < 1) return "malformed argon2 hash";
  if (m > bounds.maxMemoryKiB) return `argon2 memory ${m} KiB is above the bound (${bounds.maxMemoryKiB} KiB)`;
  if (t > bounds.maxTime) return `argon2 time cost ${t} is above the bound (${bounds.maxTime})`;
  if (p > bounds.maxParallelism) return `argon2 parallelism ${p} is above the bound (${bounds.maxParallelism})`;
  return null;
}

/** Whether `password` matches a hash in one of the legacy formats; false for any other, malformed or out of bounds. */
export async function verifyLegacyHash(
  stored: string,
  password: string,
  settings: LegacyHashSettings,
): Promise<boolean> {
  const parsed = verifiable(stored, settings);
  if (!parsed) return false;
  try {
    return await verifyParsed(parsed, password, settings);
  } catch {
    // A worker that died, or an input node:crypto refuses, is a failed match, never a 500.
    return false;
  }
}

/** Whether verifyLegacyHash would compute anything for `stored`: a legacy form, whole, within the bounds, allowed. */
export function canVerifyLegacyHash(stored: string, settings: LegacyHashSettings): boolean {
  return verifiable(stored, settings) !== null;
}

function verifiable(stored: string, settings: LegacyHashSettings): ParsedLegacyHash | null {
  const parsed = parseLegacyHash(stored);
  if (parsed === null || typeof parsed === "string") return null;
  if (settings.refuseWeak && WEAK_FORMATS.has(parsed.format)) return null;
  return parsed;
}

function verifyParsed(parsed: ParsedLegacyHash, password: string, settings: LegacyHashSettings): Promise<boolean> {
  switch (parsed.format) {
    case "bcrypt":
      return runHashTask("bcrypt", { password, hash: parsed.text });
    case "phpass":
      return verifyPhpass(parsed, password);
    case "scrypt":
      return verifyScrypt(parsed, password);
    case "firebase-scrypt":
      return verifyFirebaseScrypt(parsed, password, settings);
    case "better-auth-scrypt":
      return verifyBetterAuthScrypt(parsed, password);
    case "pbkdf2":
      return verifyPbkdf2(parsed, password);
    case "sha256":
    case "md5":
      return verifySaltedDigest(parsed, password);
  }
}

const PARSERS: Record<LegacyFormat, (stored: string) => ParsedLegacyHash | string | null> = {
  bcrypt: parseBcrypt,
  phpass: parsePhpass,
  scrypt: parseScrypt,
  "firebase-scrypt": parseFirebaseScrypt,
  "better-auth-scrypt": parseBetterAuthScrypt,
  pbkdf2: parsePbkdf2,
  sha256: (stored) => parseSaltedDigest("sha256", stored),
  md5: (stored) => parseSaltedDigest("md5", stored),
};

/** Equal length and bytes, compared in constant time; an empty expected value never matches. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}

/**
 * Base64 as these formats write it (standard, URL-safe, or passlib's `.` for `+`; padded or not),
 * or null for any character outside it: Buffer.from skips those, which would shorten a digest.
 */
function strictBase64(text: string): Buffer | null {
  if (!/^[A-Za-z0-9+/._-]*={0,2}$/.test(text) || text.replace(/=+$/, "").length % 4 === 1) return null;
  return Buffer.from(text.replace(/\./g, "+").replace(/-/g, "+").replace(/_/g, "/"), "base64");
}

/** `$2a$`, `$2b$`, `$2y$` (PHP's name for the same algorithm): cost, 22 characters of salt, 31 of hash. */
function parseBcrypt(stored: string): ParsedLegacyHash | string | null {
  const match = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/.exec(stored);
  if (!match) return null;
  const cost = Number(match[1]);
  const { minCost, maxCost } = HASH_BOUNDS.bcrypt;
  if (cost < minCost) return "malformed bcrypt hash";
  if (cost > maxCost) return `bcrypt cost ${cost} is above the bound (${maxCost})`;
  return { format: "bcrypt", text: stored };
}

/** passlib's `$scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt>$<key>` (base64 without padding). */
function parseScrypt(stored: string): ParsedLegacyHash | string | null {
  const match = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,4}),p=(\d{1,4})\$([^$]{0,256})\$([^$]+)$/.exec(stored);
  const salt = match && strictBase64(match[4]!);
  const key = match && strictBase64(match[5]!);
  if (!match || !salt || !key || key.length < 16 || key.length > 64) return null;
  const [N, r, p] = [2 ** Number(match[1]), Number(match[2]), Number(match[3])];
  const problem = scryptProblem(N, r, p);
  return problem ?? { format: "scrypt", N, r, p, salt, key };
}

function scryptProblem(N: number, r: number, p: number): string | null {
  if (N < 2 || r < 1 || p < 1) return "malformed scrypt hash";
  const { maxMemoryBytes, maxParallelism } = HASH_BOUNDS.scrypt;
  if (128 * N * r > maxMemoryBytes) {
    return `scrypt memory ${(128 * N * r) / MiB} MiB (N=${N}, r=${r}) is above the bound (${maxMemoryBytes / MiB} MiB)`;
  }
  if (p > maxParallelism) return `scrypt parallelism ${p} is above the bound (${maxParallelism})`;
  return null;
}

function scryptKey(password: string | Buffer, salt: Buffer | string, length: number, N: number, r: number, p: number) {
  return scrypt(password, salt, length, { N, r, p, maxmem: 2 * HASH_BOUNDS.scrypt.maxMemoryBytes });
}

async function verifyScrypt(parsed: ParsedLegacyHash & { format: "scrypt" }, password: string) {
  const { N, r, p, salt, key } = parsed;
  return sameBytes(await scryptKey(password, salt, key.length, N, r, p), key);
}

/**
 * Firebase's scrypt (`$firebase-scrypt$m=<mem_cost>,r=<rounds>$<salt>$<hash>`, base64 as its export
 * writes them): scrypt of the password with salt + the project's separator gives an AES-256-CTR key
 * (zero IV) that encrypts the project's signer key; the result is the hash.
 */
function parseFirebaseScrypt(stored: string): ParsedLegacyHash | string | null {
  const match = /^\$firebase-scrypt\$m=(\d{1,2}),r=(\d{1,4})\$([^$]{0,256})\$([^$]+)$/.exec(stored);
  const salt = match && strictBase64(match[3]!);
  const hash = match && strictBase64(match[4]!);
  if (!match || !salt || !hash || hash.length < 16) return null;
  const [N, r] = [2 ** Number(match[1]), Number(match[2])];
  const problem = scryptProblem(N, r, 1);
  return problem ?? { format: "firebase-scrypt", N, r, salt, hash };
}

async function verifyFirebaseScrypt(
  parsed: ParsedLegacyHash & { format: "firebase-scrypt" },
  password: string,
  settings: LegacyHashSettings,
) {
  const project = settings.firebaseScrypt;
  if (!project) return false;
  const signerKey = Buffer.from(project.signerKey, "base64");
  const salt = Buffer.concat([parsed.salt, Buffer.from(project.saltSeparator, "base64")]);
  const key = await scryptKey(Buffer.from(password), salt, 32, parsed.N, parsed.r, 1);
  const cipher = createCipheriv("aes-256-ctr", key, Buffer.alloc(16, 0));
  const made = Buffer.concat([cipher.update(signerKey), cipher.final()]);
  return sameBytes(made, parsed.hash);
}

/** better-auth's default: `<salt hex>:<key hex>`, scrypt N=16384, r=16, p=1, 64 bytes, of the NFKC password. */
function parseBetterAuthScrypt(stored: string): ParsedLegacyHash | null {
  const match = /^([0-9a-f]{16,128}):([0-9a-f]{128})$/i.exec(stored);
  return match && { format: "better-auth-scrypt", salt: match[1]!, key: Buffer.from(match[2]!, "hex") };
}

async function verifyBetterAuthScrypt(parsed: ParsedLegacyHash & { format: "better-auth-scrypt" }, password: string) {
  const key = await scryptKey(password.normalize("NFKC"), parsed.salt, 64, 16384, 16, 1);
  return sameBytes(key, parsed.key);
}

const DIGEST_BYTES = { sha1: 20, sha256: 32, sha512: 64 } as const;

/**
 * PBKDF2 in Django's form (`pbkdf2_sha256$<iterations>$<salt>$<base64 key>`, the salt used as text)
 * or passlib's (`$pbkdf2-sha256$<iterations>$<salt>$<key>`, both in its base64). Both write a key
 * of the digest's own length, and only that length is accepted.
 */
function parsePbkdf2(stored: string): ParsedLegacyHash | string | null {
  const django = /^pbkdf2_(sha1|sha256)\$(\d{1,10})\$([^$]{1,256})\$([^$]+)$/.exec(stored);
  const passlib = /^\$pbkdf2(?:-(sha1|sha256|sha512))?\$(\d{1,10})\$([^$]{0,256})\$([^$]+)$/.exec(stored);
  const match = django ?? passlib;
  if (!match) return null;
  const digest = (match[1] ?? "sha1") as keyof typeof DIGEST_BYTES;
  const iterations = Number(match[2]);
  const salt = django ? match[3]! : strictBase64(match[3]!);
  const key = strictBase64(match[4]!);
  if (salt === null || !key || key.length !== DIGEST_BYTES[digest] || iterations < 1) return null;
  const { maxIterations } = HASH_BOUNDS.pbkdf2;
  if (iterations > maxIterations) return `pbkdf2 iterations ${iterations} are above the bound (${maxIterations})`;
  return { format: "pbkdf2", digest, iterations, salt, key };
}

async function verifyPbkdf2(parsed: ParsedLegacyHash & { format: "pbkdf2" }, password: string) {
  const { digest, iterations, salt, key } = parsed;
  return sameBytes(await pbkdf2(password, salt, iterations, key.length, digest), key);
}

const ITOA64 = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * phpass's portable hash (WordPress, phpBB: `$P$` or `$H$`): a cost letter, 8 salt characters, and
 * 2^cost rounds of MD5 over the previous digest and the password, written in phpass's own base64.
 */
function parsePhpass(stored: string): ParsedLegacyHash | string | null {
  const match = /^\$[PH]\$([./0-9A-Za-z])([./0-9A-Za-z]{8})([./0-9A-Za-z]{22})$/.exec(stored);
  if (!match) return null;
  const log2 = ITOA64.indexOf(match[1]!);
  const { minLog2Rounds, maxLog2Rounds } = HASH_BOUNDS.phpass;
  if (log2 < minLog2Rounds) return "malformed phpass hash";
  if (log2 > maxLog2Rounds) return `phpass rounds 2^${log2} are above the bound (2^${maxLog2Rounds})`;
  return { format: "phpass", salt: match[2]!, rounds: 2 ** log2, digest: match[3]! };
}

async function verifyPhpass(parsed: ParsedLegacyHash & { format: "phpass" }, password: string) {
  const digest = await runHashTask("phpass", { salt: parsed.salt, password, rounds: parsed.rounds });
  return sameBytes(Buffer.from(phpassBase64(Buffer.from(digest))), Buffer.from(parsed.digest));
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
 * the hashed text, `sp` (salt then password) or `ps`; an empty salt for an unsalted digest. The hex
 * is the whole digest, 64 or 32 characters.
 */
function parseSaltedDigest(algorithm: "sha256" | "md5", stored: string): ParsedLegacyHash | null {
  const hexLength = algorithm === "sha256" ? 64 : 32;
  const match = new RegExp(`^\\$${algorithm}\\$(sp|ps)\\$([^$]{0,256})\\$([0-9a-f]{${hexLength}})$`, "i").exec(stored);
  return (
    match && { format: algorithm, saltFirst: match[1] === "sp", salt: match[2]!, digest: Buffer.from(match[3]!, "hex") }
  );
}

async function verifySaltedDigest(parsed: ParsedLegacyHash & { format: "sha256" | "md5" }, password: string) {
  const text = parsed.saltFirst ? parsed.salt + password : password + parsed.salt;
  return sameBytes(createHash(parsed.format).update(text).digest(), parsed.digest);
}

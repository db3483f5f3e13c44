import { pbkdf2Sync, randomBytes } from "node:crypto";
import bcryptjs from "bcryptjs";
import { argon2i, argon2id } from "hash-wasm";
import { describe, expect, it } from "vitest";
import { verifyPasswordOrDummy } from "../services/credentials.js";
import { HASH_BOUNDS, hashProblem, legacyFormatOf, verifyLegacyHash } from "./legacy-hashes.js";
import { argon2idHasher, type PasswordHasher, withLegacyHashes } from "./password.js";

const PASSWORD = "correct horse";
const settings = { refuseWeak: false };

/**
 * Hashes made by other people's code, never by ours: passlib 1.7.4 (Debian's python3-passlib, e.g.
 * `python3 -c "from passlib.hash import phpass; print(phpass.using(rounds=9).hash('correct horse'))"`),
 * and Python's hashlib for the salted digests.
 */
const MADE_ELSEWHERE: [string, string][] = [
  ["phpass $P$", "$P$79aEDgPzJaUJBQaCF.NgNoqNZnwT2B1"],
  ["Django pbkdf2_sha256", "pbkdf2_sha256$2000$v5dWCZAXks9U$oq3rWlgN0LqyMak/eizA55fb8mYfK4L9TkXmlR4kTsA="],
  ["Django pbkdf2_sha1", "pbkdf2_sha1$2000$FnQ5aVAHqLQN$bx0rjVN0Ztfq0BoprfDGNu7pjsc="],
  ["passlib pbkdf2-sha256", "$pbkdf2-sha256$2000$Xct5z1mrdU6p1bo35rz3Hg$6g2Jp1Rv9JR4s2zU4n820oL99UGTKPkk2DQHOEwjK/M"],
  [
    "passlib pbkdf2-sha512",
    "$pbkdf2-sha512$2000$BMAYg7C21lqLsdY6RyjF2A$lXrO/ZrE8DZiBAbYdPUYvqKrkWrMxBgp8dnB8mzqdDbz9j7u6CWrxaZ0FWx7ZKYk13KIhxiWzZDvRb3WcpfOsA",
  ],
  ["passlib scrypt", "$scrypt$ln=12,r=8,p=1$qDWmFIJQKkWo1ZqTMiakdA$15Py5ytuZVWYIYilZp3HNCw1yFQJiLyMm3Pdmhn2Nao"],
  ["salted SHA-256, salt first", "$sha256$sp$NaCl$cc0c19e7e854dad3a1ac59d270a830024c7d2efa248ea80d0a27223f30bbf504"],
  ["salted MD5, password first", "$md5$ps$NaCl$5af3612cb8ad14d34cd17b21ceeb449d"],
];

/** Firebase's published example (firebase/scrypt README): project parameters, a user's salt and hash. */
const FIREBASE = {
  project: {
    signerKey: "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
    saltSeparator: "Bw==",
  },
  stored:
    "$firebase-scrypt$m=14,r=8$42xEC+ixf3L2lw==$lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==",
  password: "user1password",
};

describe("legacy password hashes", () => {
  it.each(MADE_ELSEWHERE)("verifies %s, and refuses a wrong password", async (_name, stored) => {
    expect(legacyFormatOf(stored)).not.toBeNull();
    expect(await verifyLegacyHash(stored, PASSWORD, settings)).toBe(true);
    expect(await verifyLegacyHash(stored, "correct horsf", settings)).toBe(false);
  });

  it("verifies phpass $H$ (phpBB) with a password outside ASCII", async () => {
    expect(await verifyLegacyHash("$H$7bR6er7LwAFQ8UYMZhASgk5.p8.CKM/", "pässwörd", settings)).toBe(true);
  });

  it("verifies bcrypt made by bcryptjs, under each of its prefixes", async () => {
    const stored = await bcryptjs.hash(PASSWORD, 4);
    for (const prefix of ["$2a$", "$2b$", "$2y$"]) {
      const variant = prefix + stored.slice(4);
      expect(await verifyLegacyHash(variant, PASSWORD, settings)).toBe(true);
      expect(await verifyLegacyHash(variant, "correct horsf", settings)).toBe(false);
    }
  });

  it("verifies bcrypt of a password longer than 72 bytes, which bcrypt implementations cut there", async () => {
    const long = "pässwörd ".repeat(10);
    const stored = await bcryptjs.hash(long, 4);
    expect(await verifyLegacyHash(stored, long, settings)).toBe(true);
    expect(await verifyLegacyHash(stored, long.replace("p", "P"), settings)).toBe(false);
  });

  it("verifies Django's PBKDF2 as node:crypto makes it (the salt used as text, the key in base64)", async () => {
    for (const [digest, name, length] of [
      ["sha256", "pbkdf2_sha256", 32],
      ["sha1", "pbkdf2_sha1", 20],
    ] as const) {
      const salt = randomBytes(12).toString("base64url");
      const key = pbkdf2Sync(PASSWORD, salt, 1000, length, digest).toString("base64");
      const stored = `${name}$1000$${salt}$${key}`;
      expect(legacyFormatOf(stored)).toBe("pbkdf2");
      expect(await verifyLegacyHash(stored, PASSWORD, settings)).toBe(true);
      expect(await verifyLegacyHash(stored, "correct horsf", settings)).toBe(false);
    }
  });

  it("verifies Firebase's scrypt with the project's parameters, and nothing without them", async () => {
    const withProject = { refuseWeak: false, firebaseScrypt: FIREBASE.project };
    expect(await verifyLegacyHash(FIREBASE.stored, FIREBASE.password, withProject)).toBe(true);
    expect(await verifyLegacyHash(FIREBASE.stored, "user2password", withProject)).toBe(false);
    expect(await verifyLegacyHash(FIREBASE.stored, FIREBASE.password, settings)).toBe(false);
  });

  it("refuses the weak formats when asked to", async () => {
    for (const [, stored] of MADE_ELSEWHERE.filter(([name]) => /SHA-256|MD5/.test(name))) {
      expect(await verifyLegacyHash(stored, PASSWORD, { refuseWeak: true })).toBe(false);
    }
  });

  it("answers false, never throws, for malformed or absurd stored values", async () => {
    for (const stored of [
      "",
      "plain",
      "$2b$04$short",
      "$scrypt$ln=40,r=8,p=1$c2FsdA$a2V5",
      "$scrypt$ln=x$$",
      "pbkdf2_sha256$999999999$salt$a2V5",
      "$P$Zshort",
      "$sha256$xx$salt$00",
      "$firebase-scrypt$m=14$$",
      "abcd:1234",
    ]) {
      expect(await verifyLegacyHash(stored, PASSWORD, { refuseWeak: false, firebaseScrypt: FIREBASE.project })).toBe(
        false,
      );
    }
  });

  it("the service's hasher verifies another implementation's argon2i and argon2id, then asks to rehash", async () => {
    const hasher = argon2idHasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 });
    const salt = new Uint8Array(16).fill(7);
    const options = { password: PASSWORD, salt, iterations: 2, memorySize: 512, hashLength: 32, parallelism: 1 };
    for (const stored of [
      await argon2i({ ...options, outputType: "encoded" }),
      await argon2id({ ...options, outputType: "encoded" }),
    ]) {
      expect(await hasher.verify(stored, PASSWORD)).toBe(true);
      expect(await hasher.verify(stored, "correct horsf")).toBe(false);
      expect(hasher.needsRehash(stored)).toBe(true);
    }
    const ours = await hasher.hash(PASSWORD);
    expect(hasher.needsRehash(ours)).toBe(false);
    expect(await hasher.verify(MADE_ELSEWHERE[0]![1], PASSWORD)).toBe(false);
    const importing = withLegacyHashes(hasher, settings);
    expect(await importing.verify(MADE_ELSEWHERE[0]![1], PASSWORD)).toBe(true);
    expect(importing.needsRehash(MADE_ELSEWHERE[0]![1])).toBe(true);
    expect(await importing.verify(ours, PASSWORD)).toBe(true);
    expect(importing.needsRehash(ours)).toBe(false);
  });
});

/** setImmediate turns the event loop takes while `work` runs: near none when it blocks the loop. */
async function loopTurnsDuring(work: Promise<unknown>): Promise<number> {
  let turns = 0;
  let done = false;
  const work_ = work.finally(() => {
    done = true;
  });
  while (!done) {
    await new Promise((resolve) => setImmediate(resolve));
    turns += 1;
  }
  await work_;
  return turns;
}

describe("legacy password hashes with hostile costs (issue 48)", () => {
  it("a truncated key accepts no wrong password (a 1-byte key matched 1 guess in 256)", async () => {
    const salt = "v5dWCZAXks9U";
    const oneByte = pbkdf2Sync(PASSWORD, salt, 1000, 1, "sha256").toString("base64");
    const stored = `pbkdf2_sha256$1000$${salt}$${oneByte}`;
    const scryptOneByte = "$scrypt$ln=4,r=8,p=1$qDWmFIJQKkWo1ZqTMiakdA$AA";
    let accepted = 0;
    for (let i = 0; i < 1024; i += 1) {
      if (await verifyLegacyHash(stored, `guess ${i}`, settings)) accepted += 1;
      if (await verifyLegacyHash(scryptOneByte, `guess ${i}`, settings)) accepted += 1;
    }
    expect(accepted).toBe(0);
  });

  it("verifies bcrypt and phpass off the event loop: the loop keeps turning meanwhile", async () => {
    const bcrypt = await bcryptjs.hash(PASSWORD, 12);
    expect(await loopTurnsDuring(verifyLegacyHash(bcrypt, "wrong", settings))).toBeGreaterThan(20);
    // The passlib hash above with its cost letter raised to E: 2^16 MD5 rounds, the most accepted.
    const phpass = "$P$E9aEDgPzJaUJBQaCF.NgNoqNZnwT2B1";
    expect(await loopTurnsDuring(verifyLegacyHash(phpass, "wrong", settings))).toBeGreaterThan(20);
  });
});

const B64_16 = Buffer.alloc(16, 1).toString("base64").replace(/=+$/, "");
const B64_32 = Buffer.alloc(32, 2).toString("base64").replace(/=+$/, "");
/** Salt and hash of a real bcrypt text ("$2b$04$" + this), under hostile costs below. */
const BCRYPT_TAIL = "25YaYpSSuNKG00Kusaats.LdAfwaruXYYCQHyjTp7v2S8x3Rkxdm2";

/** Stored values an export could carry, and why each is refused (issue 48). */
const HOSTILE: [string, string, RegExp][] = [
  ["bcrypt at cost 31", `$2b$31$${BCRYPT_TAIL}`, /^bcrypt cost 31 is above the bound \(14\)$/],
  ["bcrypt at cost 15", `$2y$15$${BCRYPT_TAIL}`, /^bcrypt cost 15 is above/],
  ["bcrypt one character short", `$2b$10$${BCRYPT_TAIL.slice(1)}`, /^malformed bcrypt hash$/],
  ["bcrypt with a character outside its alphabet", `$2b$10$${BCRYPT_TAIL.slice(1)}!`, /^malformed bcrypt hash$/],
  [
    "phpass at 2^30 rounds",
    "$P$S9aEDgPzJaUJBQaCF.NgNoqNZnwT2B1",
    /^phpass rounds 2\^30 are above the bound \(2\^16\)$/,
  ],
  ["phpass at 2^17 rounds", "$H$F9aEDgPzJaUJBQaCF.NgNoqNZnwT2B1", /^phpass rounds 2\^17 are above/],
  ["phpass truncated", "$P$79aEDgPzJaUJBQaCF.NgNoqNZnwT2B", /^malformed phpass hash$/],
  [
    "argon2id asking for 1 GiB",
    `$argon2id$v=19$m=1048576,t=1,p=1$${B64_16}$${B64_32}`,
    /^argon2 memory 1048576 KiB is above/,
  ],
  [
    "argon2i asking for 2^20 passes",
    `$argon2i$v=19$m=4096,t=1048576,p=1$${B64_16}$${B64_32}`,
    /^argon2 time cost 1048576 is above/,
  ],
  [
    "argon2id with 255 lanes",
    `$argon2id$v=19$m=65536,t=2,p=255$${B64_16}$${B64_32}`,
    /^argon2 parallelism 255 is above/,
  ],
  ["argon2id with a 4-byte hash", `$argon2id$v=19$m=4096,t=2,p=1$${B64_16}$AAAAAA`, /^malformed argon2 hash$/],
  [
    "argon2id with a parameter it does not know",
    `$argon2id$v=19$m=4096,t=2,p=1,x=1$${B64_16}$${B64_32}`,
    /^malformed argon2 hash$/,
  ],
  [
    "scrypt asking for 1 GiB",
    `$scrypt$ln=20,r=8,p=1$${B64_16}$${B64_32}`,
    /^scrypt memory 1024 MiB \(N=1048576, r=8\) is above the bound \(128 MiB\)$/,
  ],
  ["scrypt with 64 lanes", `$scrypt$ln=14,r=8,p=64$${B64_16}$${B64_32}`, /^scrypt parallelism 64 is above/],
  ["scrypt with a 1-byte key", `$scrypt$ln=4,r=8,p=1$${B64_16}$AA`, /^malformed scrypt hash$/],
  [
    "Firebase scrypt asking for 2^30 blocks",
    `$firebase-scrypt$m=30,r=8$${B64_16}$${B64_32}`,
    /^scrypt memory .* is above/,
  ],
  [
    "PBKDF2 with 10^9 iterations",
    `pbkdf2_sha256$999999999$salt$${Buffer.alloc(32).toString("base64")}`,
    /^pbkdf2 iterations 999999999 are above the bound \(2000000\)$/,
  ],
  ["PBKDF2 with a 1-byte key", "pbkdf2_sha256$1000$salt$qw==", /^malformed pbkdf2 hash$/],
  [
    "passlib PBKDF2 with a character outside base64",
    `$pbkdf2-sha256$1000$${B64_16}$${B64_32.slice(1)}*`,
    /^malformed pbkdf2 hash$/,
  ],
  ["better-auth scrypt one byte short", `${"ab".repeat(16)}:${"cd".repeat(63)}`, /^malformed better-auth-scrypt hash$/],
  ["salted SHA-256 truncated", `$sha256$sp$NaCl$${"c".repeat(62)}`, /^malformed sha256 hash$/],
  ["salted MD5 outside hex", `$md5$ps$NaCl$${"z".repeat(32)}`, /^malformed md5 hash$/],
];

describe("hostile imported hashes (issue 48)", () => {
  const importing = withLegacyHashes(argon2idHasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 }), {
    refuseWeak: false,
    firebaseScrypt: FIREBASE.project,
  });

  it.each(HOSTILE)("refuses %s, at import and at sign-in, without computing it", async (_name, stored, reason) => {
    expect(hashProblem(stored)).toMatch(reason);
    const started = performance.now();
    expect(await importing.verify(stored, PASSWORD)).toBe(false);
    // Refused before any work: computing any of these takes seconds to forever.
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("a refused hash costs sign-in the work of a wrong password, as an unknown email does", async () => {
    const inner = argon2idHasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 });
    let computed = 0;
    const counting: PasswordHasher = {
      ...inner,
      verify: (stored, password) => {
        computed += 1;
        return inner.verify(stored, password);
      },
    };
    const hasher = withLegacyHashes(counting, settings);
    for (const [, stored] of HOSTILE) expect(await verifyPasswordOrDummy(hasher, stored, PASSWORD)).toBe(false);
    // One throwaway argon2id verification each: a fast refusal would tell that the email has an account.
    expect(computed).toBe(HOSTILE.length);
  });

  it("accepts the hashes real systems make, at the bounds too", async () => {
    const atBounds = [
      `$2b$${HASH_BOUNDS.bcrypt.maxCost}$${BCRYPT_TAIL}`,
      "$P$E9aEDgPzJaUJBQaCF.NgNoqNZnwT2B1",
      `$argon2id$v=19$m=131072,t=8,p=16$${B64_16}$${B64_32}`,
      `$scrypt$ln=17,r=8,p=4$${B64_16}$${B64_32}`,
      `pbkdf2_sha256$2000000$salt$${Buffer.alloc(32).toString("base64")}`,
    ];
    for (const stored of [...MADE_ELSEWHERE.map(([, made]) => made), FIREBASE.stored, ...atBounds]) {
      expect([stored, hashProblem(stored)]).toEqual([stored, null]);
    }
    expect(hashProblem("plain:text")).toBe("unknown hash format");
  });
});

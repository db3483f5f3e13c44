import { pbkdf2Sync, randomBytes } from "node:crypto";
import bcryptjs from "bcryptjs";
import { argon2i, argon2id } from "hash-wasm";
import { describe, expect, it } from "vitest";
import { legacyFormatOf, verifyLegacyHash } from "./legacy-hashes.js";
import { argon2idHasher, withLegacyHashes } from "./password.js";

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

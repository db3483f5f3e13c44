import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * AES-256-GCM with a key derived from AUTH_SECRET by HKDF-SHA256, one key per purpose so a value
 * encrypted for one use can never be decrypted as another. Output: `v1.<iv>.<tag>.<ciphertext>`
 * in base64url.
 */
export function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "gatehouse", `gatehouse:${purpose}:v1`, 32));
}

export function encryptString(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [
    "v1",
    iv.toString("base64url"),
    cipher.getAuthTag().toString("base64url"),
    ciphertext.toString("base64url"),
  ].join(".");
}

/** The plaintext, or null when the value is malformed, was made with another key, or was altered. */
export function decryptString(key: Buffer, value: string): string | null {
  const [version, iv, tag, ciphertext] = value.split(".");
  if (version !== "v1" || !iv || !tag || ciphertext === undefined) return null;
  try {
    // A full 16-byte tag only: GCM would otherwise accept a truncated (forgeable) 4-byte tag.
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"), { authTagLength: 16 });
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

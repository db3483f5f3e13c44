import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Encryption at rest for provider tokens (access, refresh and ID tokens): AES-256-GCM with a key
 * derived from AUTH_SECRET by HKDF-SHA256, so a database leak alone yields no usable provider token.
 * Stored form: `v1.<iv>.<ciphertext>.<tag>`, each part base64url.
 */
export interface TokenCipher {
  encrypt(plaintext: string): string;
  /** The plaintext, or null when the value was not made by this cipher or was tampered with. */
  decrypt(stored: string): string | null;
}

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** 32 bytes from the secret; the info string names the purpose so other keys from the same secret differ. */
export function deriveTokenKey(secret: string, purpose = "provider-tokens"): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "gatehouse", `gatehouse:${purpose}:v1`, 32));
}

export function createTokenCipher(secret: string): TokenCipher {
  const key = deriveTokenKey(secret);
  return {
    encrypt(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv.toString("base64url"), body.toString("base64url"), tag.toString("base64url")].join(".");
    },
    decrypt(stored) {
      const [version, ivPart, bodyPart, tagPart, ...rest] = stored.split(".");
      if (version !== VERSION || ivPart === undefined || bodyPart === undefined || !tagPart || rest.length > 0) {
        return null;
      }
      const iv = Buffer.from(ivPart, "base64url");
      const tag = Buffer.from(tagPart, "base64url");
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return null;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, iv);
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(Buffer.from(bodyPart, "base64url")), decipher.final()]).toString("utf8");
      } catch {
        return null;
      }
    },
  };
}

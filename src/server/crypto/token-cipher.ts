import { decryptString, deriveKey, encryptString } from "./encryption.js";

/**
 * Encryption at rest for provider tokens (access, refresh and ID tokens): AES-256-GCM under a key
 * derived from AUTH_SECRET by HKDF for this purpose only (crypto/encryption.ts), so a database leak
 * alone yields no usable provider token.
 */
export interface TokenCipher {
  encrypt(plaintext: string): string;
  /** The plaintext, or null when the value was not made by this cipher or was tampered with. */
  decrypt(stored: string): string | null;
}

export const PROVIDER_TOKENS_PURPOSE = "provider-tokens";

export function createTokenCipher(secret: string): TokenCipher {
  const key = deriveKey(secret, PROVIDER_TOKENS_PURPOSE);
  return {
    encrypt: (plaintext) => encryptString(key, plaintext),
    decrypt: (stored) => decryptString(key, stored),
  };
}

import { decryptString, deriveKey, encryptString } from "./encryption.js";

/**
 * Encryption at rest for provider tokens (access, refresh and ID tokens) and TOTP secrets:
 * AES-256-GCM under a key derived from AUTH_SECRET by HKDF for each purpose (crypto/encryption.ts),
 * so a database leak alone yields no usable token or secret.
 */
export interface TokenCipher {
  encrypt(plaintext: string): string;
  /** The plaintext, or null when the value was not made by this cipher or was tampered with. */
  decrypt(stored: string): string | null;
}

export const PROVIDER_TOKENS_PURPOSE = "provider-tokens";

/** TOTP secrets (two-factor) are sealed under their own key. */
export const TOTP_SECRETS_PURPOSE = "totp-secrets";

export function createTokenCipher(secret: string, purpose: string = PROVIDER_TOKENS_PURPOSE): TokenCipher {
  const key = deriveKey(secret, purpose);
  return {
    encrypt: (plaintext) => encryptString(key, plaintext),
    decrypt: (stored) => decryptString(key, stored),
  };
}

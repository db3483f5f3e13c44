import { defineErrors } from "./define.js";

/** Second factors (better-auth's two-factor plugin codes, WIRE-compatible). */
export const twoFactorErrors = defineErrors({
  OTP_NOT_ENABLED: { message: "OTP not enabled", status: 400 },
  OTP_HAS_EXPIRED: { message: "OTP has expired", status: 400 },
  TOTP_NOT_ENABLED: { message: "TOTP not enabled", status: 400 },
  TOTP_ALREADY_ENABLED: { message: "TOTP is already enabled", status: 400 },
  TWO_FACTOR_NOT_ENABLED: { message: "Two factor isn't enabled", status: 400 },
  INVALID_BACKUP_CODE: { message: "Invalid backup code", status: 401 },
  INVALID_CODE: { message: "Invalid code", status: 401 },
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: { message: "Too many attempts. Please request a new code.", status: 400 },
  INVALID_TWO_FACTOR_COOKIE: { message: "Invalid two factor cookie", status: 401 },
  // Codes by mail (better-auth's email-otp plugin codes)
  OTP_EXPIRED: { message: "OTP expired", status: 400 },
  INVALID_OTP: { message: "Invalid OTP", status: 400 },
  TOO_MANY_ATTEMPTS: { message: "Too many attempts", status: 403 },
  // Passkeys (better-auth's passkey plugin codes)
  CHALLENGE_NOT_FOUND: { message: "Challenge not found", status: 400 },
  PASSKEY_NOT_FOUND: { message: "Passkey not found", status: 404 },
  FAILED_TO_VERIFY_REGISTRATION: { message: "Failed to verify registration", status: 400 },
  AUTHENTICATION_FAILED: { message: "Authentication failed", status: 401 },
  PREVIOUSLY_REGISTERED: { message: "Previously registered", status: 400 },
});

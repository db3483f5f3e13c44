import { z } from "zod";
import * as twoFactor from "../two-factor.js";
import { endpoint } from "./define.js";
import { statusReply, tokenAndUserReply } from "./replies.js";

const MANAGE = { session: "required", feature: "twoFactor", rateLimit: "credential", refreshes: ["session"] } as const;
/** Verifications complete a sign-in (with the two-factor cookie) or, signed in, confirm the set-up. */
const VERIFY = { feature: "twoFactor", rateLimit: "credential", refreshes: ["session", "organizations"] } as const;
const CODE_ERRORS = ["INVALID_TWO_FACTOR_COOKIE", "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE"] as const;

/** TOTP two-factor with backup codes, trusted devices and mailed codes (better-auth's two-factor wire). */
export const twoFactorEndpoints = {
  enableTwoFactor: endpoint({
    method: "POST",
    path: "/two-factor/enable",
    summary: "Start TOTP two-factor: a new secret (as an otpauth URI) and backup codes, shown once",
    body: twoFactor.twoFactorEnableBody,
    reply: z.object({ method: z.literal("totp"), totpURI: z.string(), backupCodes: z.array(z.string()) }),
    errors: ["TOTP_ALREADY_ENABLED"],
    audit: { action: "user.two_factor_enabled" },
    policy: { ...MANAGE, credentials: "enrol" },
  }),
  getTotpUri: endpoint({
    method: "POST",
    path: "/two-factor/get-totp-uri",
    summary: "The otpauth URI of the caller's TOTP secret again",
    body: twoFactor.twoFactorPasswordBody,
    reply: z.object({ totpURI: z.string() }),
    errors: ["TOTP_NOT_ENABLED"],
    policy: { ...MANAGE, credentials: "enrol", refreshes: [] },
  }),
  verifyTotp: endpoint({
    method: "POST",
    path: "/two-factor/verify-totp",
    summary: "Check a code from the authenticator app: confirms the set-up, or completes a sign-in",
    body: twoFactor.verifyTotpBody,
    reply: tokenAndUserReply.extend({ token: z.string() }),
    errors: [...CODE_ERRORS, "INVALID_CODE", "TOTP_NOT_ENABLED"],
    audit: { action: "user.two_factor_verified", details: { factor: "totp" } },
    policy: VERIFY,
  }),
  disableTwoFactor: endpoint({
    method: "POST",
    path: "/two-factor/disable",
    summary: "Turn two-factor off (secret, backup codes and trusted devices go)",
    body: twoFactor.twoFactorPasswordBody,
    reply: statusReply,
    errors: ["TWO_FACTOR_NOT_ENABLED"],
    audit: { action: "user.two_factor_disabled" },
    policy: { ...MANAGE, credentials: "reprove" },
  }),
  generateBackupCodes: endpoint({
    method: "POST",
    path: "/two-factor/generate-backup-codes",
    summary: "New backup codes, shown once; the old ones stop working",
    body: twoFactor.twoFactorPasswordBody,
    reply: statusReply.extend({ backupCodes: z.array(z.string()) }),
    errors: ["TWO_FACTOR_NOT_ENABLED"],
    audit: { action: "user.backup_codes_generated" },
    policy: { ...MANAGE, credentials: "enrol", refreshes: [] },
  }),
  verifyBackupCode: endpoint({
    method: "POST",
    path: "/two-factor/verify-backup-code",
    summary: "Complete a sign-in with a backup code (each works once)",
    body: twoFactor.verifyBackupCodeBody,
    reply: tokenAndUserReply.extend({ token: z.string() }),
    errors: [...CODE_ERRORS, "INVALID_BACKUP_CODE", "TWO_FACTOR_NOT_ENABLED"],
    audit: { action: "user.two_factor_verified", details: { factor: "backup-code" } },
    policy: VERIFY,
  }),
  sendTwoFactorOtp: endpoint({
    method: "POST",
    path: "/two-factor/send-otp",
    summary: "Mail a sign-in code to the user whose second factor is owed",
    body: twoFactor.sendTwoFactorOtpBody,
    reply: statusReply,
    errors: ["INVALID_TWO_FACTOR_COOKIE", "OTP_NOT_ENABLED"],
    policy: { feature: "twoFactor", rateLimit: "mail" },
  }),
  verifyTwoFactorOtp: endpoint({
    method: "POST",
    path: "/two-factor/verify-otp",
    summary: "Complete a sign-in with the mailed code",
    body: twoFactor.verifyTwoFactorOtpBody,
    reply: tokenAndUserReply.extend({ token: z.string() }),
    errors: [...CODE_ERRORS, "INVALID_CODE", "OTP_HAS_EXPIRED", "OTP_NOT_ENABLED"],
    audit: { action: "user.two_factor_verified", details: { factor: "otp" } },
    policy: VERIFY,
  }),
} as const;

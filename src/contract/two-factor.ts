import { z } from "zod";

/**
 * Bodies of the two-factor routes (better-auth's two-factor plugin wire). `password` proves who the
 * caller is; without it the session must hold a recent proof (a password, passkey, TOTP or provider
 * sign-in within minutes), else REAUTHENTICATION_REQUIRED.
 */
const password = z.string().max(1024).optional();
const code = z.string().trim().min(1).max(64);

export const twoFactorEnableBody = z.object({ password, issuer: z.string().min(1).max(100).optional() });
export const twoFactorPasswordBody = z.object({ password });
export const verifyTotpBody = z.object({ code, trustDevice: z.boolean().optional() });
export const verifyBackupCodeBody = z.object({
  code,
  trustDevice: z.boolean().optional(),
  /** Accepted for better-auth clients; a backup code always opens a session here. */
  disableSession: z.boolean().optional(),
});
export const sendTwoFactorOtpBody = z.object({ trustDevice: z.boolean().optional() });
export const verifyTwoFactorOtpBody = z.object({ code, trustDevice: z.boolean().optional() });

/** The sign-in reply for a user whose second factor is still owed: no session yet. */
export const twoFactorRedirectReply = z.object({
  twoFactorRedirect: z.literal(true),
  twoFactorMethods: z.array(z.enum(["totp", "otp"])),
});
export type TwoFactorRedirectReply = z.output<typeof twoFactorRedirectReply>;

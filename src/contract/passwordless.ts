import { z } from "zod";
import { userName } from "./fields.js";

/** Bodies and queries of the passwordless sign-ins (better-auth's magic-link plugin wire). */
const optionalUrl = z.string().optional();

export const signInMagicLinkBody = z.object({
  email: z.string(),
  /** The new user's name, when the link signs someone up. */
  name: userName.optional(),
  callbackURL: optionalUrl,
  newUserCallbackURL: optionalUrl,
  errorCallbackURL: optionalUrl,
  /** Accepted for better-auth clients (it reaches their sendMagicLink); not used here. */
  metadata: z.record(z.string(), z.unknown()).optional(),
});

export const magicLinkVerifyQuery = z.object({
  token: z.string().min(1).max(256),
  callbackURL: optionalUrl,
  newUserCallbackURL: optionalUrl,
  errorCallbackURL: optionalUrl,
});

/** What a mailed code is for (better-auth's email-otp `type`). */
export const otpType = z.enum(["sign-in", "email-verification", "forget-password"]);
export type OtpType = z.output<typeof otpType>;
const otp = z.string().trim().min(1).max(32);

export const sendVerificationOtpBody = z.object({ email: z.string(), type: otpType });
export const checkVerificationOtpBody = z.object({ email: z.string(), type: otpType, otp });
export const signInEmailOtpBody = z.object({ email: z.string(), otp, name: userName.optional() });
export const verifyEmailOtpBody = z.object({ email: z.string(), otp });
export const forgetPasswordEmailOtpBody = z.object({ email: z.string() });
export const resetPasswordEmailOtpBody = z.object({ email: z.string(), otp, password: z.string().min(1) });

import { z } from "zod";

/**
 * Request bodies and queries of the mail-driven account flows (WIRE section 5): email verification,
 * password reset and change, email change and account deletion. Unknown keys are ignored; emails are
 * checked in the service so the answer carries INVALID_EMAIL.
 */
const optionalUrl = z.string().optional();

export const sendVerificationEmailBody = z.object({ email: z.string(), callbackURL: optionalUrl });

export const verifyEmailQuery = z.object({ token: z.string().min(1), callbackURL: optionalUrl });

export const requestPasswordResetBody = z.object({ email: z.string(), redirectTo: optionalUrl });

/** callbackURL is required here: the link has nowhere else to send the browser. */
export const resetPasswordLinkQuery = z.object({ callbackURL: z.string() });

export const resetPasswordBody = z.object({ newPassword: z.string(), token: z.string().optional() });

export const changePasswordBody = z.object({
  newPassword: z.string(),
  currentPassword: z.string(),
  revokeOtherSessions: z.boolean().optional(),
});

export const verifyPasswordBody = z.object({ password: z.string() });

export const changeEmailBody = z.object({ newEmail: z.string(), callbackURL: optionalUrl });

export const deleteUserBody = z.object({
  callbackURL: optionalUrl,
  password: z.string().optional(),
  token: z.string().optional(),
});

export const deleteUserCallbackQuery = z.object({ token: z.string().min(1), callbackURL: optionalUrl });

/** The one answer to a reset request, for known and unknown emails alike (SPEC 8). */
export const PASSWORD_RESET_REQUESTED_MESSAGE =
  "If this email exists in our system, check your email for the reset link";

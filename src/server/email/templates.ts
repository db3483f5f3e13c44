import { renderActionMail } from "./layout.js";
import type { MailMessage } from "./message.js";

/** The words of every account mail, in one place. Links arrive absolute (BASE_URL). */

export function verifyEmailMail(to: string, url: string, expiresInSeconds: number): MailMessage {
  return renderActionMail({
    to,
    kind: "verify-email",
    subject: "Verify your email address",
    intro: ["Please confirm that this is your email address."],
    action: { label: "Verify email", url },
    outro: [`The link works for ${describeDuration(expiresInSeconds)}. If you did not sign up, ignore this message.`],
  });
}

export function confirmEmailChangeMail(to: string, newEmail: string, url: string, expiresInSeconds: number) {
  return renderActionMail({
    to,
    kind: "change-email-confirmation",
    subject: "Approve the change of your email address",
    intro: [`Someone asked to change the email address of your account to ${newEmail}.`],
    action: { label: "Approve the change", url },
    outro: [
      `The link works for ${describeDuration(expiresInSeconds)}. After you approve, we send a link to ${newEmail}.`,
      "If this was not you, do not open the link and change your password.",
    ],
  });
}

export function verifyNewEmailMail(to: string, url: string, expiresInSeconds: number): MailMessage {
  return renderActionMail({
    to,
    kind: "change-email-verification",
    subject: "Verify your new email address",
    intro: ["Please confirm that this is the new email address of your account."],
    action: { label: "Verify new email", url },
    outro: [`The link works for ${describeDuration(expiresInSeconds)}.`],
  });
}

export function emailChangedNotice(to: string, newEmail: string): MailMessage {
  return renderActionMail({
    to,
    kind: "email-changed",
    subject: "Your email address was changed",
    intro: [`The email address of your account was changed to ${newEmail}.`],
    outro: ["If this was not you, contact support at once."],
  });
}

export function resetPasswordMail(to: string, url: string, expiresInSeconds: number): MailMessage {
  return renderActionMail({
    to,
    kind: "reset-password",
    subject: "Reset your password",
    intro: ["Someone asked to reset the password of your account."],
    action: { label: "Choose a new password", url },
    outro: [
      `The link works once, for ${describeDuration(expiresInSeconds)}. If this was not you, ignore this message.`,
    ],
  });
}

export function passwordChangedNotice(to: string, how: "changed" | "reset"): MailMessage {
  return renderActionMail({
    to,
    kind: "password-changed",
    subject: "Your password was changed",
    intro: [
      how === "reset"
        ? "The password of your account was reset with a link sent to this address."
        : "The password of your account was changed.",
    ],
    outro: ["If this was not you, reset your password at once and contact support."],
  });
}

export function deleteAccountMail(to: string, url: string, expiresInSeconds: number): MailMessage {
  return renderActionMail({
    to,
    kind: "delete-account",
    subject: "Confirm the deletion of your account",
    intro: ["Someone asked to delete your account. This cannot be undone."],
    action: { label: "Delete my account", url },
    outro: [
      `Open the link in the browser where you are signed in. It works once, for ${describeDuration(expiresInSeconds)}.`,
      "If this was not you, ignore this message and change your password.",
    ],
  });
}

export function magicLinkMail(to: string, url: string, expiresInSeconds: number): MailMessage {
  return renderActionMail({
    to,
    kind: "magic-link",
    subject: "Your sign-in link",
    intro: ["Someone asked to sign in to your account with this address."],
    action: { label: "Sign in", url },
    outro: [
      `The link works once, for ${describeDuration(expiresInSeconds)}. If this was not you, ignore this message.`,
    ],
  });
}

export function emailCodeMail(
  to: string,
  code: string,
  purpose: "sign-in" | "email-verification" | "forget-password",
  expiresInSeconds: number,
): MailMessage {
  const what = {
    "sign-in": { subject: "Your sign-in code", use: "sign in" },
    "email-verification": { subject: "Your verification code", use: "verify your email address" },
    "forget-password": { subject: "Your password reset code", use: "reset your password" },
  }[purpose];
  return renderActionMail({
    to,
    kind: "email-otp",
    subject: what.subject,
    intro: [`Your code to ${what.use} is ${code}.`],
    outro: [`It works once, for ${describeDuration(expiresInSeconds)}. If this was not you, ignore this message.`],
  });
}

export function twoFactorCodeMail(to: string, code: string, expiresInSeconds: number): MailMessage {
  return renderActionMail({
    to,
    kind: "two-factor-otp",
    subject: "Your sign-in code",
    intro: [`Your sign-in code is ${code}.`],
    outro: [
      `It works once, for ${describeDuration(expiresInSeconds)}. If you did not just sign in, change your password: someone knows it.`,
    ],
  });
}

function describeDuration(seconds: number): string {
  if (seconds % 86400 === 0) return plural(seconds / 86400, "day");
  if (seconds % 3600 === 0) return plural(seconds / 3600, "hour");
  if (seconds % 60 === 0) return plural(seconds / 60, "minute");
  return plural(seconds, "second");
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;

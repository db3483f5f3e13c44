import { formatDateTime, type Locale, translator } from "../../i18n/index.js";
import type { ActionMail } from "./layout.js";

/**
 * The words of every account mail, from the catalogue (src/i18n, `mail.*`) in the locale of the request
 * that caused it (email/locale.ts). Links arrive absolute (BASE_URL). MailOutbox.enqueue lays them out
 * (email/layout.ts) with the product's name (options.appName).
 */

export function verifyEmailMail(locale: Locale, to: string, url: string, expiresInSeconds: number): ActionMail {
  const t = translator(locale);
  return {
    to,
    locale,
    kind: "verify-email",
    subject: t("mail.verifyEmail.subject"),
    intro: [t("mail.verifyEmail.intro")],
    action: { label: t("mail.verifyEmail.action"), url },
    outro: [t("mail.verifyEmail.outro", { duration: describeDuration(locale, expiresInSeconds) })],
  };
}

export function confirmEmailChangeMail(
  locale: Locale,
  to: string,
  newEmail: string,
  url: string,
  expiresInSeconds: number,
): ActionMail {
  const t = translator(locale);
  return {
    to,
    locale,
    kind: "change-email-confirmation",
    subject: t("mail.confirmEmailChange.subject"),
    intro: [t("mail.confirmEmailChange.intro", { newEmail })],
    action: { label: t("mail.confirmEmailChange.action"), url },
    outro: [
      t("mail.confirmEmailChange.outro", { duration: describeDuration(locale, expiresInSeconds), newEmail }),
      t("mail.notYou.changePassword"),
    ],
  };
}

export function verifyNewEmailMail(locale: Locale, to: string, url: string, expiresInSeconds: number): ActionMail {
  const t = translator(locale);
  return {
    to,
    locale,
    kind: "change-email-verification",
    subject: t("mail.verifyNewEmail.subject"),
    intro: [t("mail.verifyNewEmail.intro")],
    action: { label: t("mail.verifyNewEmail.action"), url },
    outro: [t("mail.linkWorksFor", { duration: describeDuration(locale, expiresInSeconds) })],
  };
}

export function emailChangedNotice(locale: Locale, to: string, newEmail: string): ActionMail {
  const t = translator(locale);
  return {
    to,
    locale,
    kind: "email-changed",
    subject: t("mail.emailChanged.subject"),
    intro: [t("mail.emailChanged.intro", { newEmail })],
    outro: [t("mail.emailChanged.outro")],
  };
}

/** Tells an owner that a change of who asserts identity for a connection waits for an owner's confirmation. */
export function ssoConnectionChangeNotice(
  locale: Locale,
  to: string,
  change: { requestedBy: string; organization: string; providerId: string; fields: string[] },
): ActionMail {
  const t = translator(locale);
  return {
    to,
    locale,
    kind: "sso-connection-change",
    subject: t("mail.ssoConnectionChange.subject"),
    intro: [t("mail.ssoConnectionChange.intro", { ...change, fields: change.fields.join(", ") })],
    outro: [t("mail.ssoConnectionChange.outro")],
  };
}

export function resetPasswordMail(locale: Locale, to: string, url: string, expiresInSeconds: number): ActionMail {
  const t = translator(locale);
  return {
    to,
    locale,
    kind: "reset-password",
    subject: t("mail.resetPassword.subject"),
    intro: [t("mail.resetPassword.intro")],
    action: { label: t("mail.resetPassword.action"), url },
    outro: [t("mail.linkWorksOnce", { duration: describeDuration(locale, expiresInSeconds) })],
  };
}

export function passwordChangedNotice(locale: Locale, to: string, how: "changed" | "reset"): ActionMail {
  const t = translator(locale);
  return {
    to,
    locale,
    kind: "password-changed",
    subject: t("mail.passwordChanged.subject"),
    intro: [how === "reset" ? t("mail.passwordChanged.reset") : t("mail.passwordChanged.changed")],
    outro: [t("mail.passwordChanged.outro")],
  };
}

/** A sign-in from a device the account had not used: where, when, and the one-time "Not you?" link. */
export function newDeviceMail(
  locale: Locale,
  to: string,
  device: { browser: string | null; os: string | null; ipAddress: string | null; at: Date },
  url: string,
  expiresInSeconds: number,
): ActionMail {
  const t = translator(locale);
  const unknown = t("mail.newDevice.unknown");
  return {
    to,
    locale,
    kind: "new-device",
    subject: t("mail.newDevice.subject"),
    intro: [
      t("mail.newDevice.intro"),
      t("mail.newDevice.device", {
        browser: device.browser ?? unknown,
        os: device.os ?? unknown,
        ipAddress: device.ipAddress ?? unknown,
        time: formatDateTime(locale, device.at, "UTC"),
      }),
      t("mail.newDevice.ifYou"),
    ],
    action: { label: t("mail.newDevice.action"), url },
    outro: [t("mail.newDevice.outro", { duration: describeDuration(locale, expiresInSeconds) })],
  };
}

/** How a mailbox proved itself when an account that had never proven its address lost its credentials. */
export type MailboxProof = "sign-in-link" | "email-code" | "password-reset" | "verification";

const PROOF_KEYS = {
  "sign-in-link": "mail.credentialsRemoved.bySignInLink",
  "email-code": "mail.credentialsRemoved.byEmailCode",
  "password-reset": "mail.credentialsRemoved.byPasswordReset",
  verification: "mail.credentialsRemoved.byVerification",
} as const;

/** Tells the owner of a just-proven address what its unproven account lost, and why. */
export function credentialsRemovedNotice(
  locale: Locale,
  to: string,
  proof: MailboxProof,
  removed: "everything" | "enrolled-factors",
): ActionMail {
  const t = translator(locale);
  return {
    to,
    locale,
    kind: "credentials-removed",
    subject: t("mail.credentialsRemoved.subject"),
    intro: [
      t(PROOF_KEYS[proof]),
      removed === "everything" ? t("mail.credentialsRemoved.everything") : t("mail.credentialsRemoved.factors"),
    ],
    outro: [t("mail.credentialsRemoved.outro")],
  };
}

/** A sign-in factor that was added or removed. */
export type FactorChange = "passkeyAdded" | "passkeyRemoved" | "twoFactorEnabled" | "twoFactorDisabled";

/** Tells the user a sign-in factor changed, so a factor someone else added does not go unnoticed. */
export function factorChangedNotice(locale: Locale, to: string, change: FactorChange): ActionMail {
  const t = translator(locale);
  return {
    to,
    locale,
    kind: "factor-changed",
    subject: t(`mail.factor.${change}.subject`),
    intro: [t(`mail.factor.${change}.intro`)],
    outro: [t("mail.factor.outro")],
  };
}

export function deleteAccountMail(locale: Locale, to: string, url: string, expiresInSeconds: number): ActionMail {
  const t = translator(locale);
  return {
    to,
    locale,
    kind: "delete-account",
    subject: t("mail.deleteAccount.subject"),
    intro: [t("mail.deleteAccount.intro")],
    action: { label: t("mail.deleteAccount.action"), url },
    outro: [
      t("mail.deleteAccount.outro", { duration: describeDuration(locale, expiresInSeconds) }),
      t("mail.deleteAccount.notYou"),
    ],
  };
}

export function magicLinkMail(locale: Locale, to: string, url: string, expiresInSeconds: number): ActionMail {
  const t = translator(locale);
  return {
    to,
    locale,
    kind: "magic-link",
    subject: t("mail.magicLink.subject"),
    intro: [t("mail.magicLink.intro")],
    action: { label: t("mail.magicLink.action"), url },
    outro: [t("mail.linkWorksOnce", { duration: describeDuration(locale, expiresInSeconds) })],
  };
}

const codePurposes = {
  "sign-in": { subject: "mail.code.signIn.subject", intro: "mail.code.signIn.intro" },
  "email-verification": { subject: "mail.code.verification.subject", intro: "mail.code.verification.intro" },
  "forget-password": { subject: "mail.code.reset.subject", intro: "mail.code.reset.intro" },
} as const;

export function emailCodeMail(
  locale: Locale,
  to: string,
  code: string,
  purpose: keyof typeof codePurposes,
  expiresInSeconds: number,
): ActionMail {
  const t = translator(locale);
  const what = codePurposes[purpose];
  return {
    to,
    locale,
    kind: "email-otp",
    subject: t(what.subject),
    intro: [t(what.intro, { code })],
    code,
    outro: [t("mail.codeWorksOnce", { duration: describeDuration(locale, expiresInSeconds) })],
  };
}

export function twoFactorCodeMail(locale: Locale, to: string, code: string, expiresInSeconds: number): ActionMail {
  const t = translator(locale);
  return {
    to,
    locale,
    kind: "two-factor-otp",
    subject: t("mail.code.signIn.subject"),
    intro: [t("mail.twoFactor.intro", { code })],
    code,
    outro: [t("mail.twoFactor.outro", { duration: describeDuration(locale, expiresInSeconds) })],
  };
}

export function invitationMail(
  locale: Locale,
  to: string,
  invitation: { inviterEmail: string; organizationName: string; role: string; expiresAt: Date },
  url: string,
): ActionMail {
  const t = translator(locale);
  return {
    to,
    locale,
    kind: "organization-invitation",
    // Nothing a user typed goes into the subject: it is what a phishing mail would forge first.
    subject: t("mail.invitation.subject"),
    intro: [
      t("mail.invitation.intro", {
        email: invitation.inviterEmail,
        organization: invitation.organizationName,
        role: invitation.role,
      }),
    ],
    action: { label: t("mail.invitation.action"), url },
    outro: [
      t("mail.invitation.expires", { date: formatDateTime(locale, invitation.expiresAt, "UTC") }),
      t("mail.invitation.ignore"),
    ],
  };
}

/** "2 hours" / "2 Stunden": the longest whole unit, with the locale's plural. */
function describeDuration(locale: Locale, seconds: number): string {
  const t = translator(locale);
  if (seconds % 86400 === 0) return t("mail.duration.days", { count: seconds / 86400 });
  if (seconds % 3600 === 0) return t("mail.duration.hours", { count: seconds / 3600 });
  if (seconds % 60 === 0) return t("mail.duration.minutes", { count: seconds / 60 });
  return t("mail.duration.seconds", { count: seconds });
}

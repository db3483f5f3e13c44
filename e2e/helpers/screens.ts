import type { MessageKey } from "../../src/i18n/index.js";

/** [path, test id that shows the screen is ready, README screenshot name or "", page title key]. */
export type Screen = [path: string, ready: string, shot: string, title: MessageKey];

export const signedOutScreens: Screen[] = [
  ["/sign-in", "sign-in-submit", "sign-in", "signIn.title"],
  ["/sign-up", "sign-up-submit", "sign-up", "signUp.title"],
  ["/forgot-password", "forgot-password-submit", "forgot-password", "forgotPassword.title"],
  ["/reset-password?token=abc", "reset-password-submit", "reset-password", "resetPassword.title"],
  ["/reset-password?error=INVALID_TOKEN", "reset-link-error", "", "resetPassword.title"],
  ["/verified", "verify-success", "", "verified.title"],
  ["/verified?error=TOKEN_EXPIRED", "verify-error", "", "verified.failedTitle"],
  ["/accept-invitation/some-id", "invitation-error", "", "invitation.title"],
  ["/two-factor", "two-factor-submit", "two-factor", "twoFactor.title"],
  ["/sign-in/link", "magic-link-submit", "", "magicLink.title"],
  ["/sign-in/code", "email-code-submit", "", "emailCode.title"],
  ["/magic-link?token=abc", "magic-link-continue", "", "magicLink.landingTitle"],
  ["/verify-email?token=abc&callbackURL=%2F", "verify-email-continue", "", "verifyEmail.confirmTitle"],
];

export const signedInScreens: Screen[] = [
  ["/", "home-title", "", "nav.home"],
  ["/account", "profile-submit", "", "profile.title"],
  ["/account/security", "change-password-submit", "account-security", "security.title"],
  ["/account/sessions", "sessions-list", "", "sessions.nav"],
  ["/account/linked", "linked-card", "", "linked.title"],
  ["/account/delete", "delete-account-submit", "", "deleteAccount.title"],
  ["/organizations/new", "org-create-submit", "organization-create", "org.create.title"],
  ["/organization", "gh-organization-list", "", "switcher.menu"],
  ["/dev/outbox", "outbox-card", "mail-outbox", "outbox.title"],
];

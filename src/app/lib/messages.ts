import { errorCatalogue } from "../../contract/errors/index.js";

/**
 * The one place codes become words on screen. Catalogue messages are the default; the entries here
 * say it in the application's voice or cover codes that only travel in redirect URLs.
 */
const overrides: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: "The email or password is not right.",
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "An account with this email already exists. Sign in or use another email.",
  EMAIL_NOT_VERIFIED: "Verify your email first: we have sent you a new link.",
  PASSWORD_TOO_SHORT: "The password is too short.",
  PASSWORD_TOO_COMMON: "That password is too common and easy to guess. Choose another.",
  PASSWORD_TOO_LONG: "The password is too long.",
  INVALID_PASSWORD: "The current password is not right.",
  NEW_PASSWORD_SAME_AS_CURRENT: "Choose a new password that differs from the current one.",
  SESSION_EXPIRED: "For your safety, sign in again before doing this.",
  SESSION_NOT_FRESH: "For your safety, sign in again to see this.",
  INVALID_TOKEN: "This link is invalid or has already been used.",
  invalid_token: "This link is invalid or has already been used.",
  TOKEN_EXPIRED: "This link has expired. Ask for a new one.",
  token_expired: "This link has expired. Ask for a new one.",
  user_not_found: "There is no account for this link.",
  USER_NOT_FOUND: "There is no account for this link.",
  unauthorized: "Sign in to finish this step.",
  ORGANIZATION_SLUG_ALREADY_TAKEN: "This slug is taken.",
  ORGANIZATION_ALREADY_EXISTS: "An organization with this slug already exists.",
  TOO_MANY_REQUESTS: "Too many attempts. Wait a few seconds and try again.",
  NETWORK_ERROR: "The server cannot be reached. Check your connection and try again.",
  UNAUTHORIZED: "Your session has ended. Sign in again.",
  NOT_FOUND: "This feature is not available.",
  account_not_linked: "This account is not linked to yours yet. Sign in with your password, then link it.",
  email_does_not_match: "The provider's email does not match your account email.",
  ADMIN_USER_NOT_FOUND: "This user does not exist (any more).",
  ADMIN_EMAIL_TAKEN: "Another account already uses this email.",
  YOU_CANNOT_IMPERSONATE_ADMINS: "Admins cannot be impersonated.",
  YOU_CANNOT_MANAGE_ADMINS: "Another admin's account cannot be changed here.",
  YOU_CANNOT_BAN_YOURSELF: "You cannot ban yourself.",
  YOU_CANNOT_REMOVE_YOURSELF: "You cannot delete your own account from here.",
  ADMIN_ACCESS_REFUSED: "This area is for administrators. Your account does not have access.",
  state_mismatch: "The sign-in took too long or was opened in another browser. Try again.",
};

export interface HasCode {
  code?: string;
  message?: string;
}

/** Admin screens speak of the user, not of "you": codes whose everyday words would mislead there. */
const adminCodes: Record<string, string> = {
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "ADMIN_EMAIL_TAKEN",
  USER_NOT_FOUND: "ADMIN_USER_NOT_FOUND",
};

/** The error as an admin form shows it. */
export function adminError(error: HasCode | null): HasCode | null {
  const code = error?.code && adminCodes[error.code];
  return code ? { ...error, code } : error;
}

/** Text for an error code or an error object from the client. */
export function messageFor(error: HasCode | string | null | undefined): string {
  if (!error) return "";
  const code = typeof error === "string" ? error : error.code;
  if (code && overrides[code]) return overrides[code];
  if (code && code in errorCatalogue) return errorCatalogue[code as keyof typeof errorCatalogue].message;
  if (typeof error !== "string" && error.message) return error.message;
  return "Something went wrong. Try again.";
}

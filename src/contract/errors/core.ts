import { defineErrors } from "./define.js";

/** Account, session and HTTP-layer errors (SPEC section 8, WIRE section 1.4). */
export const coreErrors = defineErrors({
  // HTTP layer
  VALIDATION_ERROR: { message: "Invalid input", status: 400 },
  BAD_REQUEST: { message: "Invalid JSON in request body", status: 400 },
  BODY_MUST_BE_AN_OBJECT: { message: "Body must be an object", status: 400 },
  UNSUPPORTED_MEDIA_TYPE: { message: "Content-Type is not allowed", status: 415 },
  PAYLOAD_TOO_LARGE: { message: "Request body is too large", status: 413 },
  TOO_MANY_REQUESTS: { message: "Too many requests. Please try again later.", status: 429 },
  UNAUTHORIZED: { message: "Unauthorized", status: 401 },
  NOT_AUTHENTICATED: { message: "Not authenticated", status: 401 },
  NOT_FOUND: { message: "Not found", status: 404 },
  FORBIDDEN: { message: "Forbidden", status: 403 },
  INTERNAL_SERVER_ERROR: { message: "Internal server error", status: 500 },
  SERVICE_UNAVAILABLE: { message: "The service is unavailable for a moment. Please try again shortly.", status: 503 },

  // Origin and redirect checks
  INVALID_ORIGIN: { message: "Invalid origin", status: 403 },
  MISSING_OR_NULL_ORIGIN: { message: "Missing or null Origin", status: 403 },
  CROSS_SITE_NAVIGATION_LOGIN_BLOCKED: {
    message: "Cross-site navigation login blocked. This request appears to be a CSRF attack.",
    status: 403,
  },
  INVALID_CALLBACK_URL: { message: "Invalid callbackURL", status: 403 },
  INVALID_REDIRECT_URL: { message: "Invalid redirectURL", status: 403 },
  INVALID_ERROR_CALLBACK_URL: { message: "Invalid errorCallbackURL", status: 403 },
  INVALID_NEW_USER_CALLBACK_URL: { message: "Invalid newUserCallbackURL", status: 403 },
  CALLBACK_URL_REQUIRED: { message: "callbackURL is required", status: 400 },

  // Users and credentials
  USER_NOT_FOUND: { message: "User not found", status: 400 },
  FAILED_TO_CREATE_USER: { message: "Failed to create user", status: 422 },
  FAILED_TO_UPDATE_USER: { message: "Failed to update user", status: 500 },
  INVALID_PASSWORD: { message: "Invalid password", status: 400 },
  INVALID_EMAIL: { message: "Invalid email", status: 400 },
  INVALID_EMAIL_OR_PASSWORD: { message: "Invalid email or password", status: 401 },
  INVALID_USER: { message: "Invalid user", status: 400 },
  PASSWORD_TOO_SHORT: { message: "Password too short", status: 400 },
  PASSWORD_TOO_COMMON: {
    message: "This password is one of the most common ones; choose another",
    status: 400,
  },
  PASSWORD_TOO_LONG: { message: "Password too long", status: 400 },
  // Gatehouse's own: change-password refuses the current password as the new one.
  NEW_PASSWORD_SAME_AS_CURRENT: { message: "The new password must differ from the current one", status: 400 },
  USER_ALREADY_EXISTS: { message: "User already exists.", status: 422 },
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: { message: "User already exists. Use another email.", status: 422 },
  EMAIL_PASSWORD_DISABLED: { message: "Email and password is not enabled", status: 400 },
  EMAIL_PASSWORD_SIGN_UP_DISABLED: { message: "Email and password sign up is not enabled", status: 400 },
  EMAIL_NOT_VERIFIED: { message: "Email not verified", status: 403 },
  EMAIL_CAN_NOT_BE_UPDATED: { message: "Email can not be updated", status: 400 },
  NO_FIELDS_TO_UPDATE: { message: "No fields to update", status: 400 },
  FIELD_NOT_ALLOWED: { message: "Field not allowed to be set", status: 400 },
  CREDENTIAL_ACCOUNT_NOT_FOUND: { message: "Credential account not found", status: 400 },
  USER_ALREADY_HAS_PASSWORD: { message: "user already has a password", status: 400 },
  PASSWORD_ALREADY_SET: { message: "User already has a password set", status: 400 },

  // Sessions
  FAILED_TO_CREATE_SESSION: { message: "Failed to create session", status: 500 },
  FAILED_TO_GET_SESSION: { message: "Failed to get session", status: 500 },
  SESSION_EXPIRED: { message: "Session expired. Re-authenticate to perform this action.", status: 400 },
  SESSION_NOT_FRESH: { message: "Session is not fresh", status: 403 },
  // Gatehouse's own: credential and factor management (services/credential-guard.ts).
  IMPERSONATION_NOT_ALLOWED: {
    message: "An impersonation session cannot change the user's credentials or factors",
    status: 403,
  },
  REAUTHENTICATION_REQUIRED: {
    message: "Confirm it is you first: your password, an authenticator code or a passkey",
    status: 403,
  },

  // Tokens, verification and mail flows
  INVALID_TOKEN: { message: "Invalid token", status: 400 },
  TOKEN_EXPIRED: { message: "Token expired", status: 401 },
  VERIFICATION_EMAIL_NOT_ENABLED: { message: "Verification email isn't enabled", status: 400 },
  EMAIL_ALREADY_VERIFIED: { message: "Email is already verified", status: 400 },
  EMAIL_MISMATCH: { message: "Email mismatch", status: 400 },
  RESET_PASSWORD_DISABLED: { message: "Reset password isn't enabled", status: 400 },
  CHANGE_EMAIL_DISABLED: { message: "Change email is disabled", status: 400 },
  EMAIL_IS_THE_SAME: { message: "Email is the same", status: 400 },
  COULD_NOT_UPDATE_EMAIL: { message: "Couldn't update your email", status: 400 },
  DELETE_USER_DISABLED: { message: "Not found", status: 404 },
  USER_CANNOT_BE_DELETED: { message: "User cannot be deleted. please provide a password or token", status: 400 },
  USER_ALREADY_HAS_PASSWORD_PROVIDE_IT: {
    message: "User already has a password. Provide that to delete the account.",
    status: 400,
  },
  FAILED_TO_CREATE_VERIFICATION: { message: "Unable to create verification", status: 500 },
});

import { defineErrors } from "./define.js";

/** Social sign-in, account linking and provider tokens (SPEC section 8, WIRE sections 5-7). */
export const socialErrors = defineErrors({
  PROVIDER_NOT_FOUND: { message: "Provider not found", status: 404 },
  PROVIDER_NOT_SUPPORTED: { message: "Provider is not supported", status: 400 },
  ID_TOKEN_NOT_SUPPORTED: { message: "id_token not supported", status: 404 },
  FAILED_TO_GET_USER_INFO: { message: "Failed to get user info", status: 401 },
  USER_EMAIL_NOT_FOUND: { message: "User email not found", status: 401 },
  SOCIAL_ACCOUNT_ALREADY_LINKED: { message: "Social account already linked", status: 409 },
  LINKED_ACCOUNT_ALREADY_EXISTS: { message: "Linked account already exists", status: 409 },
  OAUTH_LINK_ERROR: { message: "account not linked", status: 401 },
  LINKING_NOT_ALLOWED: { message: "Account not linked - linking not allowed", status: 401 },
  LINKING_DIFFERENT_EMAILS_NOT_ALLOWED: {
    message: "Account not linked - different emails not allowed",
    status: 401,
  },
  LINKING_FAILED: { message: "Account not linked - unable to link account", status: 417 },
  ACCOUNT_NOT_FOUND: { message: "Account not found", status: 400 },
  FAILED_TO_UNLINK_LAST_ACCOUNT: { message: "You can't unlink your last account", status: 400 },
  USER_ID_OR_SESSION_REQUIRED: { message: "Either userId or session is required", status: 400 },
  FAILED_TO_GET_ACCESS_TOKEN: { message: "Failed to get a valid access token", status: 400 },
  FAILED_TO_REFRESH_ACCESS_TOKEN: { message: "Failed to refresh access token", status: 400 },
  TOKEN_REFRESH_NOT_SUPPORTED: { message: "Token refresh is not supported for this provider", status: 400 },
  REFRESH_TOKEN_NOT_FOUND: { message: "Refresh token not found", status: 400 },
  ACCESS_TOKEN_NOT_FOUND: { message: "Access token not found", status: 400 },
  PROVIDER_NOT_CONFIGURED: { message: "Provider is not configured", status: 400 },
  PROVIDER_UNAVAILABLE: { message: "The sign-in provider could not be reached", status: 502 },

  // Anonymous sign-in
  ANONYMOUS_USERS_CANNOT_SIGN_IN_AGAIN_ANONYMOUSLY: {
    message: "Anonymous users cannot sign in again anonymously",
    status: 400,
  },
  USER_IS_NOT_ANONYMOUS: { message: "User is not anonymous", status: 403 },
  DELETE_ANONYMOUS_USER_DISABLED: { message: "Deleting anonymous users is disabled", status: 400 },
  INVALID_EMAIL_FORMAT: { message: "Email was not generated in a valid format", status: 400 },

  // Google one-tap
  INVALID_ID_TOKEN: { message: "invalid id token", status: 400 },
  EMAIL_NOT_AVAILABLE_IN_TOKEN: { message: "Email not available in token", status: 400 },
  ONE_TAP_NOT_CONFIGURED: { message: "Google client ID is required for One Tap", status: 400 },
});

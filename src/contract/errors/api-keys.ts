import { defineErrors } from "./define.js";

/** API keys (better-auth's apiKey plugin codes and messages; docs/api-keys.md). */
export const apiKeyErrors = defineErrors({
  INVALID_METADATA_TYPE: { message: "metadata must be an object or undefined", status: 400 },
  UNAUTHORIZED_SESSION: { message: "Unauthorized or invalid session", status: 401 },
  KEY_NOT_FOUND: { message: "API Key not found", status: 404 },
  KEY_DISABLED: { message: "API Key is disabled", status: 401 },
  KEY_EXPIRED: { message: "API Key has expired", status: 401 },
  EXPIRES_IN_IS_TOO_SMALL: {
    message: "The expiresIn is smaller than the predefined minimum value.",
    status: 400,
  },
  EXPIRES_IN_IS_TOO_LARGE: { message: "The expiresIn is larger than the predefined maximum value.", status: 400 },
  INVALID_PREFIX_LENGTH: { message: "The prefix length is either too large or too small.", status: 400 },
  INVALID_NAME_LENGTH: { message: "The name length is either too large or too small.", status: 400 },
  METADATA_DISABLED: { message: "Metadata is disabled.", status: 400 },
  KEY_DISABLED_EXPIRATION: { message: "Custom key expiration values are disabled.", status: 400 },
  RATE_LIMITED: { message: "Rate limit exceeded.", status: 429 },
  NO_VALUES_TO_UPDATE: { message: "No values to update.", status: 400 },
  INVALID_API_KEY: { message: "Invalid API key.", status: 401 },
  SERVER_ONLY_PROPERTY: {
    message: "The property you're trying to set can only be set from the server auth instance only.",
    status: 400,
  },
  NAME_REQUIRED: { message: "API Key name is required.", status: 400 },
  USER_NOT_MEMBER_OF_ORGANIZATION: {
    message: "You are not a member of the organization that owns this API key.",
    status: 403,
  },
  INSUFFICIENT_API_KEY_PERMISSIONS: {
    message: "You do not have permission to perform this action on organization API keys.",
    status: 403,
  },
  // Ours.
  API_KEY_PERMISSIONS_EXCEED_ROLE: {
    message: "An API key may only be given permissions its creator's role holds",
    status: 403,
  },
  API_KEY_NOT_ACCEPTED: { message: "This endpoint does not accept API keys", status: 403 },
  API_KEY_USAGE_QUOTA_UNSUPPORTED: {
    message: "Usage quotas (remaining, refillAmount, refillInterval) are not supported; use rateLimit",
    status: 400,
  },
});

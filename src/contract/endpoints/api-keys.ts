import {
  apiKeyListModel,
  apiKeyModel,
  createApiKeyBody,
  createdApiKeyModel,
  deleteApiKeyBody,
  getApiKeyQuery,
  listApiKeysQuery,
  rotateApiKeyBody,
  updateApiKeyBody,
  verifyApiKeyBody,
  verifyApiKeyReply,
} from "../api-keys.js";
import { endpoint } from "./define.js";
import { successReply } from "./replies.js";

const OWNERSHIP = ["USER_NOT_MEMBER_OF_ORGANIZATION", "INSUFFICIENT_API_KEY_PERMISSIONS"] as const;
const SETTINGS = [
  "SERVER_ONLY_PROPERTY",
  "API_KEY_USAGE_QUOTA_UNSUPPORTED",
  "INVALID_METADATA_TYPE",
  "METADATA_DISABLED",
  "EXPIRES_IN_IS_TOO_SMALL",
  "EXPIRES_IN_IS_TOO_LARGE",
  "INVALID_NAME_LENGTH",
  "API_KEY_PERMISSIONS_EXCEED_ROLE",
] as const;

/**
 * API keys (better-auth's apiKey plugin; docs/api-keys.md). Create and update also serve auth.api
 * calls without a session (naming `userId`), so they check the session themselves.
 */
export const apiKeyEndpoints = {
  createApiKey: endpoint({
    method: "POST",
    path: "/api-key/create",
    summary: "Create an API key for the caller or an organization; the key is shown only in this reply",
    body: createApiKeyBody,
    reply: createdApiKeyModel,
    errors: ["UNAUTHORIZED_SESSION", "INVALID_PREFIX_LENGTH", "NAME_REQUIRED", ...OWNERSHIP, ...SETTINGS],
    audit: { action: "api_key.created", organization: "organizationId" },
    policy: { feature: "apiKey" },
  }),
  getApiKey: endpoint({
    method: "GET",
    path: "/api-key/get",
    summary: "One API key (never the key itself)",
    query: getApiKeyQuery,
    reply: apiKeyModel,
    errors: ["KEY_NOT_FOUND", ...OWNERSHIP],
    policy: { session: "required", feature: "apiKey" },
  }),
  listApiKeys: endpoint({
    method: "GET",
    path: "/api-key/list",
    summary: "The caller's API keys, or an organization's",
    query: listApiKeysQuery,
    reply: apiKeyListModel,
    errors: OWNERSHIP,
    policy: { session: "required", feature: "apiKey" },
  }),
  updateApiKey: endpoint({
    method: "POST",
    path: "/api-key/update",
    summary: "Rename, enable or disable an API key, or change its expiry, metadata or limits",
    body: updateApiKeyBody,
    reply: apiKeyModel,
    errors: ["UNAUTHORIZED_SESSION", "KEY_NOT_FOUND", "NO_VALUES_TO_UPDATE", ...OWNERSHIP, ...SETTINGS],
    audit: { action: "api_key.updated" },
    policy: { feature: "apiKey" },
  }),
  rotateApiKey: endpoint({
    method: "POST",
    path: "/api-key/rotate",
    summary: "Ours: a new key for an API key, the old one kept working for a grace period; shown only in this reply",
    body: rotateApiKeyBody,
    reply: createdApiKeyModel,
    errors: ["KEY_NOT_FOUND", ...OWNERSHIP],
    audit: { action: "api_key.rotated" },
    policy: { session: "required", feature: "apiKey", credentials: "manage" },
  }),
  deleteApiKey: endpoint({
    method: "POST",
    path: "/api-key/delete",
    summary: "Revoke an API key, on every instance at once",
    body: deleteApiKeyBody,
    reply: successReply,
    errors: ["KEY_NOT_FOUND", ...OWNERSHIP],
    audit: { action: "api_key.revoked" },
    policy: { session: "required", feature: "apiKey" },
  }),
  verifyApiKey: endpoint({
    method: "POST",
    path: "/api-key/verify",
    summary: "Server only (auth.api): whether a key is valid and holds the permissions asked",
    body: verifyApiKeyBody,
    reply: verifyApiKeyReply,
    errors: ["NOT_FOUND"],
    policy: { feature: "apiKey", rateLimit: "none" },
  }),
};

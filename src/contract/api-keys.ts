import { z } from "zod";
import { timestamp } from "./models.js";

/**
 * API keys (better-auth's apiKey plugin wire; docs/api-keys.md). A key belongs to an organization or
 * to a user; it is shown once, at creation, and kept only as a digest.
 */

const id = z.string().min(1).max(255);
/** better-auth's prefix rule: letters, digits, `_` and `-`. */
const prefix = z
  .string()
  .max(32)
  .regex(/^[a-zA-Z0-9_-]+$/, "Invalid prefix format, must be alphanumeric and contain only underscores and hyphens.");
const name = z.string().max(255);
/** resource -> actions, as organization roles say them. */
export const keyPermissions = z.record(z.string().min(1).max(64), z.array(z.string().min(1).max(64)).max(64));
export type KeyPermissions = z.infer<typeof keyPermissions>;
/** better-auth takes any JSON and refuses a non-object itself (INVALID_METADATA_TYPE). */
const metadata = z.unknown();
/** Usage quotas (better-auth's remaining/refill): named so a caller who sends one is told, not ignored. */
const quota = z.number().nullable().optional();

export const createApiKeyBody = z.object({
  /** Only the default configuration exists. */
  configId: z.string().max(64).optional(),
  name: name.optional(),
  /** Seconds. */
  expiresIn: z.number().int().min(1).nullable().optional(),
  prefix: prefix.optional(),
  metadata: metadata.optional(),
  remaining: quota,
  refillAmount: quota,
  refillInterval: quota,
  /** Milliseconds (server only). */
  rateLimitTimeWindow: z.number().int().min(1).max(2_147_483_647).optional(),
  /** Server only. */
  rateLimitMax: z.number().int().min(1).max(2_147_483_647).optional(),
  /** Server only. */
  rateLimitEnabled: z.boolean().optional(),
  permissions: keyPermissions.optional(),
  /** Server only: the user who creates (and, without organizationId, owns) the key. */
  userId: id.optional(),
  /** The organization that owns the key; without it, the caller owns it. */
  organizationId: id.optional(),
});

export const updateApiKeyBody = z.object({
  configId: z.string().max(64).optional(),
  keyId: id,
  /** Server only. */
  userId: id.optional(),
  name: name.optional(),
  enabled: z.boolean().optional(),
  remaining: quota,
  refillAmount: quota,
  refillInterval: quota,
  metadata: metadata.optional(),
  expiresIn: z.number().int().min(1).nullable().optional(),
  rateLimitEnabled: z.boolean().optional(),
  rateLimitTimeWindow: z.number().int().min(1).max(2_147_483_647).optional(),
  rateLimitMax: z.number().int().min(1).max(2_147_483_647).optional(),
  permissions: keyPermissions.nullable().optional(),
});

export const deleteApiKeyBody = z.object({ configId: z.string().max(64).optional(), keyId: id });

export const getApiKeyQuery = z.object({ configId: z.string().max(64).optional(), id });

export const listApiKeysQuery = z.object({
  configId: z.string().max(64).optional(),
  organizationId: id.optional(),
  limit: z.coerce.number().int().min(0).max(1000).optional(),
  offset: z.coerce.number().int().min(0).optional(),
  sortBy: z.enum(["createdAt", "updatedAt", "name", "expiresAt", "lastRequest"]).optional(),
  sortDirection: z.enum(["asc", "desc"]).optional(),
});

/** Ours: a new key for the row; the replaced one works for `gracePeriod` seconds (default: the option). */
export const rotateApiKeyBody = z.object({
  keyId: id,
  gracePeriod: z
    .number()
    .int()
    .min(0)
    .max(30 * 86400)
    .optional(),
});

export const verifyApiKeyBody = z.object({
  configId: z.string().max(64).optional(),
  key: z.string().min(1).max(1024),
  permissions: keyPermissions.optional(),
});

/** A key as its owners see it: never the key (shown once) nor its digest. */
export const apiKeyModel = z.object({
  id: z.string(),
  configId: z.string(),
  name: z.string().nullable(),
  start: z.string().nullable(),
  prefix: z.string().nullable(),
  /** The owner: the organization's id, or the user's. */
  referenceId: z.string(),
  /** Ours: the owning organization (null: a user's key). */
  organizationId: z.string().nullable(),
  /** Ours: who made it (null once that user is gone). */
  createdBy: z.string().nullable(),
  enabled: z.boolean(),
  rateLimitEnabled: z.boolean(),
  rateLimitTimeWindow: z.number().nullable(),
  rateLimitMax: z.number().nullable(),
  requestCount: z.number(),
  remaining: z.number().nullable(),
  refillAmount: z.number().nullable(),
  refillInterval: z.number().nullable(),
  lastRefillAt: timestamp.nullable(),
  lastRequest: timestamp.nullable(),
  expiresAt: timestamp.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  metadata: z.record(z.string(), z.unknown()).nullable(),
  permissions: keyPermissions.nullable(),
});
export type ApiKey = z.infer<typeof apiKeyModel>;

export const createdApiKeyModel = apiKeyModel.extend({ key: z.string() });

export const apiKeyListModel = z.object({
  apiKeys: z.array(apiKeyModel),
  total: z.number(),
  limit: z.number().optional(),
  offset: z.number().optional(),
});

export const verifyApiKeyReply = z.object({
  valid: z.boolean(),
  error: z.object({ code: z.string(), message: z.string() }).passthrough().nullable(),
  key: apiKeyModel.nullable(),
});

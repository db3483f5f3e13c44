import type { ApiKey, KeyPermissions } from "../../contract/api-keys.js";
import { auditChange, noteAudit } from "../audit/trail.service.js";
import type { AuthContext } from "../context.js";
import { sha256Base64Url } from "../crypto/digest.js";
import { newId } from "../crypto/random.js";
import { AuthError } from "../errors.js";
import {
  type ApiKeyChange,
  type ApiKeyPage,
  type ApiKeyRow,
  deleteApiKey as deleteApiKeyRow,
  findApiKey,
  insertApiKey,
  listApiKeysOf,
  rotateApiKeyHash,
  updateApiKey as updateApiKeyRow,
} from "../store/api-keys.js";
import { findMember } from "../store/members.js";
import { isOwnerRole, roleAllows } from "./access-control.js";
import { newKeyText, startOf } from "./api-key-format.js";
import { forgetApiKey, type KeyCaller, keyAllows, keySession } from "./api-key-verification.js";
import { hasPermission } from "./members.js";

/**
 * Managing API keys (docs/api-keys.md, better-auth's apiKey plugin wire). A key is owned by an
 * organization or by a user. An organization's keys are managed by its owners and by roles granted
 * `apiKey: [action]`; a key may be given only permissions its creator's role holds.
 */

/** Who asks: a signed-in user, or a server call (auth.api) that may name the user it acts for. */
export interface KeyManager {
  userId: string | undefined;
  server: boolean;
}

export type KeyAction = "create" | "read" | "update" | "delete";

export function keyView(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    configId: "default",
    name: row.name,
    start: row.start,
    prefix: row.prefix,
    referenceId: (row.organizationId ?? row.userId) as string,
    organizationId: row.organizationId,
    createdBy: row.createdBy,
    enabled: row.enabled,
    rateLimitEnabled: row.rateLimitEnabled,
    rateLimitTimeWindow: row.rateLimitTimeWindow,
    rateLimitMax: row.rateLimitMax,
    // Counted in the rate-limit store, not on the row (no write per request).
    requestCount: 0,
    remaining: null,
    refillAmount: null,
    refillInterval: null,
    lastRefillAt: null,
    lastRequest: row.lastRequest,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    metadata: row.metadata,
    permissions: row.permissions,
  };
}

/** An organization's creator role may do anything with its keys; another role needs `apiKey: [action]`. */
async function requireKeyPermission(
  ctx: AuthContext,
  organizationId: string,
  userId: string,
  action: KeyAction,
): Promise<string> {
  const member = await findMember(ctx.db, organizationId, userId);
  if (!member) throw new AuthError("USER_NOT_MEMBER_OF_ORGANIZATION");
  noteAudit(ctx, { organizationId });
  if (!isOwnerRole(ctx, member.role) && !roleAllows(ctx, member.role, { apiKey: [action] })) {
    throw new AuthError("INSUFFICIENT_API_KEY_PERMISSIONS");
  }
  return member.role;
}

/** The key named, if the caller may act on it; a stranger cannot tell it exists. */
async function keyFor(ctx: AuthContext, userId: string, keyId: string, action: KeyAction): Promise<ApiKeyRow> {
  const row = await findApiKey(ctx.db, keyId);
  if (!row) throw new AuthError("KEY_NOT_FOUND");
  if (row.userId !== null) {
    if (row.userId !== userId) throw new AuthError("KEY_NOT_FOUND");
    return row;
  }
  const organizationId = row.organizationId as string;
  if (!(await findMember(ctx.db, organizationId, userId))) throw new AuthError("KEY_NOT_FOUND");
  await requireKeyPermission(ctx, organizationId, userId, action);
  return row;
}

/**
 * Every action the key asserts must be one the creator's role holds (owners included: an owner's
 * key says what it may do, it does not inherit "everything").
 */
function checkWithinRole(ctx: AuthContext, role: string, permissions: KeyPermissions): void {
  for (const [resource, actions] of Object.entries(permissions)) {
    for (const action of actions) {
      if (!roleAllows(ctx, role, { [resource]: [action] })) {
        throw new AuthError("API_KEY_PERMISSIONS_EXCEED_ROLE", {
          message: `An API key may only be given permissions its creator's role holds: ${resource}.${action}`,
        });
      }
    }
  }
}

interface Settings {
  name?: string;
  expiresIn?: number | null;
  metadata?: unknown;
  remaining?: number | null;
  refillAmount?: number | null;
  refillInterval?: number | null;
  rateLimitTimeWindow?: number;
  rateLimitMax?: number;
  rateLimitEnabled?: boolean;
}

/** better-auth's rules for the settings both create and update take. */
function checkSettings(ctx: AuthContext, manager: KeyManager, input: Settings): void {
  const options = ctx.options.apiKey;
  const serverOnly =
    input.rateLimitTimeWindow !== undefined || input.rateLimitMax !== undefined || input.rateLimitEnabled !== undefined;
  if (!manager.server && serverOnly) throw new AuthError("SERVER_ONLY_PROPERTY");
  if (
    (input.remaining !== undefined && input.remaining !== null) ||
    (input.refillAmount !== undefined && input.refillAmount !== null) ||
    (input.refillInterval !== undefined && input.refillInterval !== null)
  ) {
    throw new AuthError(manager.server ? "API_KEY_USAGE_QUOTA_UNSUPPORTED" : "SERVER_ONLY_PROPERTY");
  }
  if (input.metadata !== undefined) {
    if (!options.enableMetadata) throw new AuthError("METADATA_DISABLED");
    if (typeof input.metadata !== "object" || input.metadata === null || Array.isArray(input.metadata)) {
      throw new AuthError("INVALID_METADATA_TYPE");
    }
  }
  if (input.expiresIn !== undefined && input.expiresIn !== null) {
    if (options.keyExpiration.disableCustomExpiresTime) throw new AuthError("KEY_DISABLED_EXPIRATION");
    const days = input.expiresIn / 86400;
    if (days < options.keyExpiration.minExpiresIn) throw new AuthError("EXPIRES_IN_IS_TOO_SMALL");
    if (days > options.keyExpiration.maxExpiresIn) throw new AuthError("EXPIRES_IN_IS_TOO_LARGE");
  }
  if (input.name !== undefined) {
    if (input.name.length < options.minimumNameLength || input.name.length > options.maximumNameLength) {
      throw new AuthError("INVALID_NAME_LENGTH");
    }
  }
}

const secondsFromNow = (ctx: AuthContext, seconds: number) => new Date(ctx.now().getTime() + seconds * 1000);

/** The user the request acts for: its session's, or (a server call only) the one it names. */
function actingUser(manager: KeyManager, named: string | undefined): string {
  if (named !== undefined && !manager.server) throw new AuthError("UNAUTHORIZED_SESSION");
  if (manager.userId && named !== undefined && named !== manager.userId) throw new AuthError("UNAUTHORIZED_SESSION");
  const userId = manager.userId ?? named;
  if (!userId) throw new AuthError("UNAUTHORIZED_SESSION");
  return userId;
}

export async function createApiKey(
  ctx: AuthContext,
  manager: KeyManager,
  input: Settings & {
    prefix?: string;
    permissions?: KeyPermissions;
    userId?: string;
    organizationId?: string;
  },
): Promise<ApiKey & { key: string }> {
  const options = ctx.options.apiKey;
  const userId = actingUser(manager, input.userId);
  checkSettings(ctx, manager, input);
  if (input.name === undefined && options.requireName) throw new AuthError("NAME_REQUIRED");
  if (
    input.prefix !== undefined &&
    (input.prefix.length < options.minimumPrefixLength || input.prefix.length > options.maximumPrefixLength)
  ) {
    throw new AuthError("INVALID_PREFIX_LENGTH");
  }
  const organizationId = input.organizationId;
  if (organizationId !== undefined) {
    const role = await requireKeyPermission(ctx, organizationId, userId, "create");
    if (input.permissions) checkWithinRole(ctx, role, input.permissions);
  } else if (input.permissions && !manager.server) {
    // A user's own key asserts what the server says (better-auth: permissions are server-only).
    throw new AuthError("SERVER_ONLY_PROPERTY");
  }
  const prefix = input.prefix ?? options.defaultPrefix;
  const key = newKeyText(prefix);
  const now = ctx.now();
  const expiresIn = input.expiresIn ?? options.keyExpiration.defaultExpiresIn;
  const row: ApiKeyRow = {
    id: newId(),
    keyHash: sha256Base64Url(key),
    previousKeyHash: null,
    previousKeyExpiresAt: null,
    name: input.name ?? null,
    start: startOf(key, prefix),
    prefix: prefix === "" ? null : prefix,
    organizationId: organizationId ?? null,
    userId: organizationId === undefined ? userId : null,
    createdBy: userId,
    enabled: true,
    rateLimitEnabled: input.rateLimitEnabled ?? options.rateLimit.enabled,
    rateLimitTimeWindow: input.rateLimitTimeWindow ?? options.rateLimit.timeWindow,
    rateLimitMax: input.rateLimitMax ?? options.rateLimit.maxRequests,
    permissions: input.permissions ?? null,
    metadata: (input.metadata as Record<string, unknown> | undefined) ?? null,
    expiresAt: expiresIn ? secondsFromNow(ctx, expiresIn) : null,
    lastRequest: null,
    knownAddresses: [],
    createdAt: now,
    updatedAt: now,
  };
  await ctx.db.transaction().execute(async (trx) => {
    await insertApiKey(trx, row);
    await auditChange(ctx, trx, {
      organizationId: row.organizationId ?? undefined,
      subjectId: row.userId ?? undefined,
      details: { apiKeyId: row.id, name: row.name, start: row.start, permissions: row.permissions },
    });
  });
  return { ...keyView(row), key };
}

export async function getApiKey(ctx: AuthContext, userId: string, keyId: string): Promise<ApiKey> {
  return keyView(await keyFor(ctx, userId, keyId, "read"));
}

export async function listApiKeys(
  ctx: AuthContext,
  userId: string,
  query: ApiKeyPage & { organizationId?: string },
): Promise<{ apiKeys: ApiKey[]; total: number; limit?: number; offset?: number }> {
  const { organizationId, ...page } = query;
  if (organizationId !== undefined) await requireKeyPermission(ctx, organizationId, userId, "read");
  const { rows, total } = await listApiKeysOf(ctx.db, organizationId ? { organizationId } : { userId }, page);
  return { apiKeys: rows.map(keyView), total, limit: page.limit, offset: page.offset };
}

export async function updateApiKey(
  ctx: AuthContext,
  manager: KeyManager,
  input: Settings & { keyId: string; userId?: string; enabled?: boolean; permissions?: KeyPermissions | null },
): Promise<ApiKey> {
  const userId = actingUser(manager, input.userId);
  checkSettings(ctx, manager, input);
  const found = await keyFor(ctx, userId, input.keyId, "update");
  const change: ApiKeyChange = {};
  if (input.name !== undefined) change.name = input.name;
  if (input.enabled !== undefined) change.enabled = input.enabled;
  if (input.expiresIn !== undefined) {
    change.expiresAt = input.expiresIn === null ? null : secondsFromNow(ctx, input.expiresIn);
  }
  if (input.metadata !== undefined) change.metadata = input.metadata as Record<string, unknown>;
  if (input.rateLimitEnabled !== undefined) change.rateLimitEnabled = input.rateLimitEnabled;
  if (input.rateLimitTimeWindow !== undefined) change.rateLimitTimeWindow = input.rateLimitTimeWindow;
  if (input.rateLimitMax !== undefined) change.rateLimitMax = input.rateLimitMax;
  if (input.permissions !== undefined) {
    if (found.organizationId !== null && input.permissions !== null) {
      const member = await findMember(ctx.db, found.organizationId, userId);
      checkWithinRole(ctx, member?.role ?? "", input.permissions);
    } else if (!manager.server) {
      throw new AuthError("SERVER_ONLY_PROPERTY");
    }
    change.permissions = input.permissions;
  }
  if (Object.keys(change).length === 0) throw new AuthError("NO_VALUES_TO_UPDATE");
  change.updatedAt = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    await updateApiKeyRow(trx, found.id, change);
    await auditChange(ctx, trx, {
      organizationId: found.organizationId ?? undefined,
      subjectId: found.userId ?? undefined,
      details: {
        apiKeyId: found.id,
        changed: Object.keys(change)
          .filter((k) => k !== "updatedAt")
          .sort(),
      },
    });
  });
  // Every instance drops its copy: a disabled key, a shorter life or fewer permissions hold at once.
  await forgetApiKey(ctx, found);
  return keyView({ ...found, ...change } as ApiKeyRow);
}

/**
 * A new key for the same row (its id, owner, permissions and limits stay), shown once. The replaced
 * key keeps working for `gracePeriod` seconds so a deployment can move over; only the latest replaced
 * key is kept, so rotating again ends an earlier grace period at once.
 */
export async function rotateApiKey(
  ctx: AuthContext,
  userId: string,
  input: { keyId: string; gracePeriod?: number },
): Promise<ApiKey & { key: string }> {
  const found = await keyFor(ctx, userId, input.keyId, "update");
  const prefix = found.prefix ?? "";
  const key = newKeyText(prefix);
  const now = ctx.now();
  const grace = input.gracePeriod ?? ctx.options.apiKey.rotationGracePeriod;
  const change = {
    keyHash: sha256Base64Url(key),
    start: startOf(key, prefix),
    previousKeyHash: grace > 0 ? found.keyHash : null,
    graceUntil: grace > 0 ? secondsFromNow(ctx, grace) : null,
    at: now,
  };
  await ctx.db.transaction().execute(async (trx) => {
    await rotateApiKeyHash(trx, found.id, change);
    await auditChange(ctx, trx, {
      organizationId: found.organizationId ?? undefined,
      subjectId: found.userId ?? undefined,
      details: { apiKeyId: found.id, start: change.start, gracePeriod: grace },
    });
  });
  await forgetApiKey(ctx, found);
  const row: ApiKeyRow = {
    ...found,
    keyHash: change.keyHash,
    start: change.start,
    previousKeyHash: change.previousKeyHash,
    previousKeyExpiresAt: change.graceUntil,
    updatedAt: now,
  };
  return { ...keyView(row), key };
}

export async function deleteApiKey(ctx: AuthContext, userId: string, keyId: string): Promise<void> {
  const found = await keyFor(ctx, userId, keyId, "delete");
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await deleteApiKeyRow(trx, found.id))) throw new AuthError("KEY_NOT_FOUND");
    await auditChange(ctx, trx, {
      organizationId: found.organizationId ?? undefined,
      subjectId: found.userId ?? undefined,
      details: { apiKeyId: found.id, name: found.name, start: found.start },
    });
  });
  await forgetApiKey(ctx, found);
}

/**
 * has-permission for a key: an organization's key answers for its own organization with its own
 * permissions; a user's key answers where its user is a member, and only for what both the key and
 * the user's role grant (the key dies with the membership).
 */
export async function keyHasPermission(
  ctx: AuthContext,
  key: KeyCaller,
  input: { organizationId?: string; teamId?: string; permissions: Record<string, string[]> },
): Promise<boolean> {
  if (key.organizationId !== null) {
    if (input.organizationId !== undefined && input.organizationId !== key.organizationId) {
      throw new AuthError("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION", { status: 403 });
    }
    return keyAllows(key, input.permissions);
  }
  return keyAllows(key, input.permissions) && (await hasPermission(ctx, keySession(key).session, input));
}

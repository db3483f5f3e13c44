import type { SessionWithUser } from "../../contract/models.js";
import { someGrantAllows } from "../../contract/roles.js";
import { auditKeyEvent } from "../audit/trail.service.js";
import type { AuthContext } from "../context.js";
import { sha256Base64Url } from "../crypto/digest.js";
import { AuthError } from "../errors.js";
import {
  type ApiKeyInUse,
  type ApiKeyRow,
  claimKeyAddress,
  findApiKeyByHash,
  setKnownAddresses,
  touchApiKey,
} from "../store/api-keys.js";
import { hasKeyChecksum } from "./api-key-format.js";

/**
 * Using an API key (docs/api-keys.md): the key's row, read once and then answered from memory
 * while the revocation list trusts the copy (services/revocations.ts: a key revoked, changed or
 * whose owner went away is refused on every instance at once); its rate limit, counted in the
 * shared rate-limit store; its last use, written at most once a minute.
 */

/** The revocation-list subjects of a key: the key itself and its owner (organization or user). */
const keySubject = (id: string) => `apiKey:${id}`;
export const keyOwnerSubject = (ownerId: string) => `apiKeyOwner:${ownerId}`;

interface Cached {
  row: ApiKeyInUse;
  readAtMs: number;
}

/** Keys remembered per instance; past this the map is emptied (each key then costs one read again). */
const MAX_CACHED = 10_000;
const caches = new WeakMap<object, Map<string, Cached>>();

function cacheOf(ctx: AuthContext): Map<string, Cached> | null {
  // Without a cookie cache there is no revocation feed between instances: read the database each time.
  if (!ctx.options.session.cookieCache.enabled) return null;
  let cache = caches.get(ctx.instance);
  if (!cache) {
    cache = new Map();
    caches.set(ctx.instance, cache);
  }
  return cache;
}

function trusted(ctx: AuthContext, entry: Cached, nowMs: number): boolean {
  // A revocation is remembered for the cookie cache's maxAge: no copy may outlive that.
  if (nowMs - entry.readAtMs >= ctx.options.session.cookieCache.maxAge * 1000) return false;
  const { revocations } = ctx;
  const owner = entry.row.organizationId ?? (entry.row.userId as string);
  return (
    revocations.trusts(keySubject(entry.row.id), entry.readAtMs) &&
    revocations.trusts(keyOwnerSubject(owner), entry.readAtMs) &&
    // A user's key goes with the user's sessions (a ban, a deletion, a deprovisioning).
    (entry.row.userId === null || revocations.trusts(entry.row.userId, entry.readAtMs))
  );
}

/** The stored key for this text, or null; from memory when a trusted copy is held. */
async function lookUp(ctx: AuthContext, key: string): Promise<ApiKeyInUse | null> {
  if (!hasKeyChecksum(key)) return null;
  const hash = sha256Base64Url(key);
  const cache = cacheOf(ctx);
  const nowMs = ctx.now().getTime();
  const cached = cache?.get(hash);
  if (cached && trusted(ctx, cached, nowMs)) return current(cached.row, hash, nowMs);
  const row = await findApiKeyByHash(ctx.db, hash);
  if (cache) {
    if (!row) cache.delete(hash);
    else {
      if (cache.size >= MAX_CACHED) cache.clear();
      cache.set(hash, { row, readAtMs: nowMs });
    }
  }
  return row && current(row, hash, nowMs);
}

/** The row if `hash` is its key's, or its replaced key's within the grace period; else null. */
function current(row: ApiKeyInUse, hash: string, nowMs: number): ApiKeyInUse | null {
  if (row.keyHash === hash) return row;
  const graceEnds = row.previousKeyExpiresAt?.getTime() ?? 0;
  return row.previousKeyHash === hash && nowMs < graceEnds ? row : null;
}

/** Refuses every instance's copy of the key (call after the change has committed). */
export async function forgetApiKey(ctx: AuthContext, row: Pick<ApiKeyRow, "id">): Promise<void> {
  await ctx.revocations.revokeUser(keySubject(row.id));
}

/** Refuses every instance's copies of an owner's keys (an organization deleted). */
export async function forgetKeysOf(ctx: AuthContext, ownerId: string): Promise<void> {
  if (!ctx.options.apiKey.enabled) return;
  await ctx.revocations.revokeUser(keyOwnerSubject(ownerId));
}

/** How stale the recorded last use may get: a busy key costs one write a minute, not one a request. */
const LAST_USED_PRECISION_MS = 60_000;

async function noteUse(ctx: AuthContext, row: ApiKeyRow): Promise<void> {
  const now = ctx.now();
  if (row.lastRequest && now.getTime() - row.lastRequest.getTime() < LAST_USED_PRECISION_MS) return;
  // The cached copy carries the new time too, so the next minute's requests write nothing.
  row.lastRequest = now;
  await touchApiKey(ctx.db, row.id, now);
}

/** How many of a key's latest addresses a copy remembers: a use from any other asks the database. */
const KNOWN_ADDRESSES = 20;

/**
 * With auditing on, a key's first use from an address is audited (`api_key.used_from_new_address`)
 * once, whichever instance sees it first: the address's row in apiKeyAddress is claimed by its
 * primary key, and only the claimer writes the entry. The key's copy (memory, and the row's latest
 * addresses) learns the address, so a busy key asks nothing once its addresses are known.
 */
async function noteAddress(ctx: AuthContext, row: ApiKeyInUse, address: string | null | undefined): Promise<void> {
  if (!ctx.options.audit.enabled || !address || row.knownAddresses.includes(address)) return;
  const known = [...row.knownAddresses.slice(-(KNOWN_ADDRESSES - 1)), address];
  row.knownAddresses = known;
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await claimKeyAddress(trx, row.id, address, ctx.now()))) return;
    await setKnownAddresses(trx, row.id, known);
    await auditKeyEvent(ctx, trx, "api_key.used_from_new_address", {
      actorId: row.id,
      subjectId: row.userId ?? undefined,
      organizationId: row.organizationId ?? undefined,
      details: { apiKeyId: row.id, apiKeyName: row.name, ipAddress: address },
    });
  });
}

/** Counts the request against the key's window; RATE_LIMITED (429, Retry-After) when it is used up. */
async function claimRequest(ctx: AuthContext, row: ApiKeyRow): Promise<void> {
  const { rateLimitTimeWindow: window, rateLimitMax: max } = row;
  if (!ctx.options.apiKey.rateLimit.enabled || !row.rateLimitEnabled || window === null || max === null) return;
  const seconds = Math.max(1, Math.ceil(window / 1000));
  const decision = await ctx.rateLimitStore.hit(`apiKey:${row.id}`, seconds, max, ctx.now().getTime());
  if (!decision.allowed) {
    throw new AuthError("RATE_LIMITED", {
      retryAfterSeconds: decision.retryAfterSeconds,
      details: { tryAgainIn: decision.retryAfterSeconds * 1000 },
    });
  }
}

/**
 * The live key for this text, its request counted: INVALID_API_KEY, KEY_DISABLED, KEY_EXPIRED,
 * KEY_NOT_FOUND (it lacks a permission asked; better-auth's code) or RATE_LIMITED otherwise.
 */
export async function authenticateApiKey(
  ctx: AuthContext,
  key: string,
  permissions?: Record<string, readonly string[]>,
  /** The caller's address (null when unknown or not tracked). */
  from?: string | null,
): Promise<KeyCaller> {
  const row = await lookUp(ctx, key);
  if (!row) throw new AuthError("INVALID_API_KEY");
  if (!row.enabled) throw new AuthError("KEY_DISABLED");
  // A banned user's keys stop with the user's sessions (the ban revokes those, dropping cached copies).
  if (row.ownerBanned && (row.ownerBanExpires === null || row.ownerBanExpires.getTime() > ctx.now().getTime())) {
    throw new AuthError("BANNED_USER");
  }
  if (row.expiresAt && ctx.now().getTime() > row.expiresAt.getTime()) throw new AuthError("KEY_EXPIRED");
  if (permissions && !keyAllows(row, permissions)) throw new AuthError("KEY_NOT_FOUND", { status: 401 });
  await claimRequest(ctx, row);
  await noteUse(ctx, row);
  await noteAddress(ctx, row, from);
  return row;
}

/** Whether the key's own permissions grant everything asked (nothing asked grants nothing). */
export function keyAllows(row: ApiKeyRow, request: Record<string, readonly string[]>): boolean {
  return row.permissions !== null && someGrantAllows([row.permissions], request);
}

/** A key as the caller of a request (http/route.ts sets it for endpoints that accept keys). */
export type KeyCaller = ApiKeyInUse;

/** Far enough that a key without an expiry never looks expired to code reading a session's. */
const NEVER = new Date("9999-12-31T00:00:00.000Z");

/**
 * The session-like caller a key makes: it says it is a key (the session's id is the key's, its
 * token empty) and acts in its organization. Only handlers that accept keys receive it, and they
 * decide with the key's permissions, not with a member's role.
 */
export function keySession(row: KeyCaller): SessionWithUser {
  const userId = row.userId ?? `apiKey:${row.id}`;
  return {
    session: {
      id: row.id,
      token: "",
      userId,
      expiresAt: row.expiresAt ?? NEVER,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      ipAddress: null,
      userAgent: null,
      activeOrganizationId: row.organizationId,
      activeTeamId: null,
      impersonatedBy: null,
    },
    user: {
      id: userId,
      name: row.name ?? "API key",
      email: "",
      emailVerified: false,
      image: null,
      isAnonymous: false,
      role: "user",
      banned: false,
      banReason: null,
      banExpires: null,
      twoFactorEnabled: false,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    },
  } as SessionWithUser;
}

/** The key a request carries in the configured headers (or as a bearer token, when allowed), or null. */
export function keyInHeaders(ctx: AuthContext, header: (name: string) => string | undefined): string | null {
  const options = ctx.options.apiKey;
  for (const name of options.apiKeyHeaders) {
    const value = header(name);
    if (value) return value;
  }
  if (options.bearer) {
    const authorization = header("authorization");
    if (authorization?.startsWith("Bearer ")) {
      const token = authorization.slice(7).trim();
      // A session's bearer token has no checksum: only a key's text is taken as a key.
      if (hasKeyChecksum(token)) return token;
    }
  }
  return null;
}

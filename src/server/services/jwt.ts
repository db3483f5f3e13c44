import {
  createLocalJWKSet,
  decodeJwt,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from "jose";
import { JWT_SIGNING_ALGORITHMS, type JwtSigningAlgorithm } from "../../contract/jwt.js";
import type { SessionWithUser } from "../../contract/models.js";
import type { AuthContext } from "../context.js";
import { decryptString, deriveKey, encryptString } from "../crypto/encryption.js";
import { newId } from "../crypto/random.js";
import { insertKeyOnce, listLiveKeys, maxKeyGeneration, type StoredKey } from "../store/jwks.js";
import { findMemberRole } from "../store/member-role.js";
import { standsWithPolicy } from "./organization-policy.js";

/** How a pair of each algorithm is made (options.jwt.jwks.keyPairConfig.alg). */
const KEY_PAIRS: Record<JwtSigningAlgorithm, { crv: string | null; options: Parameters<typeof generateKeyPair>[1] }> = {
  EdDSA: { crv: "Ed25519", options: { crv: "Ed25519" } },
  ES256: { crv: "P-256", options: {} },
  RS256: { crv: null, options: { modulusLength: 2048 } },
};

/** The algorithm this server signs with now. */
export function signingAlgorithm(ctx: AuthContext): JwtSigningAlgorithm {
  return ctx.options.jwt.jwks.keyPairConfig.alg;
}

/**
 * The algorithms a token from this server may carry: the configured one first, then any other a live
 * key has (after a change of algorithm the old key signs for a minute more, and its tokens stay
 * valid), from this instance's copy of the key list. For discovery, which an RP checks ID tokens against.
 */
export function signingAlgorithmsInUse(ctx: AuthContext): string[] {
  const listed = caches.get(ctx.instance)?.keys ?? [];
  return [...new Set<string>([signingAlgorithm(ctx), ...listed.map((key) => key.alg)])];
}

/** How long an instance trusts its copy of the key list before reading it again. */
const CACHE_MS = 60_000;
/**
 * A rotated-in key signs only once every instance has listed it in GET /jwks: after each one's copy
 * of the key list has been re-read at least once (plus a margin for clocks).
 */
const PUBLISH_BEFORE_USE_MS = CACHE_MS + 5_000;

interface KeyCache {
  keys: StoredKey[];
  loadedAtMs: number;
  creating: Promise<void> | null;
}

const caches = new WeakMap<object, KeyCache>();

function privateKeyCipher(ctx: AuthContext): Buffer {
  return deriveKey(ctx.secret, "jwks-private-key");
}

async function liveKeys(ctx: AuthContext, options: { reload?: boolean } = {}): Promise<StoredKey[]> {
  const nowMs = ctx.now().getTime();
  let cache = caches.get(ctx.instance);
  if (!cache) {
    cache = { keys: [], loadedAtMs: Number.NEGATIVE_INFINITY, creating: null };
    caches.set(ctx.instance, cache);
  }
  if (options.reload || nowMs - cache.loadedAtMs > CACHE_MS) {
    cache.keys = await listLiveKeys(ctx.db, ctx.now());
    cache.loadedAtMs = nowMs;
  }
  return cache.keys.filter((key) => !key.expiresAt || key.expiresAt.getTime() > nowMs);
}

/**
 * The live keys this instance may sign with: those of its algorithm, newest first. A changed
 * algorithm finds none and makes one at once; the old keys verify while they live. During a
 * rolling change each setting signs with its own newest key, so instances never rotate each other's.
 */
async function ownKeys(ctx: AuthContext, options: { reload?: boolean } = {}): Promise<StoredKey[]> {
  const alg = signingAlgorithm(ctx);
  return (await liveKeys(ctx, options)).filter((key) => key.alg === alg);
}

function rotationDue(ctx: AuthContext, newest: StoredKey | undefined): boolean {
  const { rotationInterval } = ctx.options.jwt;
  if (!newest) return true;
  return rotationInterval !== undefined && ctx.now().getTime() - newest.createdAt.getTime() >= rotationInterval * 1000;
}

/**
 * Creates the key of the next generation: a pair of the configured algorithm (Ed25519 by default),
 * the private half encrypted with a key derived from AUTH_SECRET. Decided from the database, not a
 * cached list (another instance may have rotated already); when another instance creates the same
 * generation first, the unique generation keeps theirs, so every instance signs with, and
 * publishes, one key set.
 */
async function createNextKey(ctx: AuthContext): Promise<void> {
  // The highest generation first, then the live keys: a key another instance adds in between is
  // either in both reads (no longer due) or in neither (the same generation: its insert wins).
  const generation = (await maxKeyGeneration(ctx.db)) + 1;
  const [newest] = await ownKeys(ctx, { reload: true });
  if (!rotationDue(ctx, newest)) return;
  const alg = signingAlgorithm(ctx);
  const pair = KEY_PAIRS[alg];
  const { publicKey, privateKey } = await generateKeyPair(alg, { ...pair.options, extractable: true });
  const now = ctx.now();
  const { rotationInterval, gracePeriod } = ctx.options.jwt;
  await insertKeyOnce(ctx.db, {
    id: newId(),
    publicKey: JSON.stringify(await exportJWK(publicKey)),
    privateKey: encryptString(privateKeyCipher(ctx), JSON.stringify(await exportJWK(privateKey))),
    alg,
    crv: pair.crv,
    createdAt: now,
    expiresAt: rotationInterval ? new Date(now.getTime() + (rotationInterval + gracePeriod) * 1000) : null,
    generation,
  });
  await liveKeys(ctx, { reload: true });
}

/**
 * The key to sign with: the newest that every instance already publishes. The first key is made on
 * first use; when rotation is due the next one is made (once, across instances) and takes over after
 * PUBLISH_BEFORE_USE_MS, the previous one signing meanwhile.
 */
async function signingKey(ctx: AuthContext): Promise<StoredKey> {
  let keys = await ownKeys(ctx);
  if (rotationDue(ctx, keys[0])) {
    const cache = caches.get(ctx.instance)!;
    cache.creating ??= createNextKey(ctx).finally(() => {
      cache.creating = null;
    });
    await cache.creating;
    keys = await ownKeys(ctx);
  }
  const nowMs = ctx.now().getTime();
  const published = (key: StoredKey) => nowMs - key.createdAt.getTime() >= PUBLISH_BEFORE_USE_MS;
  // Just after a change of algorithm the previous algorithm's key signs until the new one is listed everywhere.
  const signer = keys.find(published) ?? (await liveKeys(ctx)).find(published) ?? keys[0];
  // Every live key younger than that means a first key (or one after a long pause): nothing older to use.
  if (!signer) throw new Error("no JWKS key could be created");
  return signer;
}

/** The public keys that may verify tokens now, as a JWK set (GET /jwks). */
export async function publicKeySet(ctx: AuthContext): Promise<{ keys: JWK[] }> {
  let keys = await liveKeys(ctx);
  if (keys.length === 0) keys = [await signingKey(ctx)];
  return {
    keys: keys.map((key) => ({ ...(JSON.parse(key.publicKey) as JWK), kid: key.id, alg: key.alg, use: "sig" })),
  };
}

/**
 * A short-lived JWT for a session: who the user is, their role, and their active organization with
 * their role in it, so other services can authorize offline with any JOSE library and GET /jwks.
 */
export async function issueSessionToken(ctx: AuthContext, { session, user }: SessionWithUser): Promise<string> {
  // An organization whose policy the session fails is not vouched for: no organization claims.
  const activeId = session.activeOrganizationId;
  const organizationId = activeId && (await standsWithPolicy(ctx, { session, user }, activeId)) ? activeId : null;
  const memberRole = organizationId ? await findMemberRole(ctx.db, organizationId, user.id) : null;
  const claims: JWTPayload = {
    email: user.email,
    email_verified: user.emailVerified,
    name: user.name,
    role: user.role,
    sid: session.id,
    organization_id: organizationId,
    organization_role: memberRole,
  };
  const { expirationTime, issuer, audience } = ctx.options.jwt;
  return signJwt(ctx, claims, {
    subject: user.id,
    issuer: issuer ?? ctx.baseURL,
    audience: audience ?? ctx.baseURL,
    expiresIn: expirationTime,
  });
}

/**
 * Signs claims with the current key of the set GET /jwks publishes (session tokens above, and the
 * OAuth provider's access and ID tokens), so one rotation covers every token this server signs.
 */
export async function signJwt(
  ctx: AuthContext,
  claims: JWTPayload,
  token: { subject: string; issuer: string; audience: string | string[]; expiresIn: number; typ?: string },
): Promise<string> {
  const key = await signingKey(ctx);
  const jwk = decryptString(privateKeyCipher(ctx), key.privateKey);
  if (!jwk) throw new Error(`JWKS key ${key.id} cannot be decrypted with this AUTH_SECRET`);
  const privateKey = await importJWK(JSON.parse(jwk) as JWK, key.alg);
  const nowSeconds = Math.floor(ctx.now().getTime() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: key.alg, kid: key.id, typ: token.typ ?? "JWT" })
    .setSubject(token.subject)
    .setIssuer(token.issuer)
    .setAudience(token.audience)
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + token.expiresIn)
    .sign(privateKey);
}

/**
 * The claims of a token this server signed, when its signature (by a live key of the set), type,
 * issuer and expiry hold at the server's clock; null otherwise.
 */
export async function verifyJwt(
  ctx: AuthContext,
  token: string,
  expect: { issuer: string; typ: string; acceptExpired?: boolean },
): Promise<JWTPayload | null> {
  try {
    // An expired token still names who it was for (an ID token as a logout hint): judged as of its iat.
    const issuedAt = expect.acceptExpired ? decodeJwt(token).iat : undefined;
    const { payload } = await jwtVerify(token, createLocalJWKSet(await publicKeySet(ctx)), {
      issuer: expect.issuer,
      typ: expect.typ,
      currentDate: issuedAt !== undefined ? new Date(issuedAt * 1000) : ctx.now(),
      algorithms: [...JWT_SIGNING_ALGORITHMS],
    });
    return payload;
  } catch {
    return null;
  }
}

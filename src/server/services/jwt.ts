import { exportJWK, generateKeyPair, importJWK, type JWK, type JWTPayload, SignJWT } from "jose";
import type { SessionWithUser } from "../../contract/models.js";
import type { AuthContext } from "../context.js";
import { decryptString, deriveKey, encryptString } from "../crypto/encryption.js";
import { newId } from "../crypto/random.js";
import { insertKey, listLiveKeys, type StoredKey } from "../store/jwks.js";
import { findMemberRole } from "../store/member-role.js";

const ALG = "EdDSA";
/** How long an instance trusts its copy of the key list before reading it again. */
const CACHE_MS = 60_000;

interface KeyCache {
  keys: StoredKey[];
  loadedAtMs: number;
  creating: Promise<StoredKey> | null;
}

const caches = new WeakMap<AuthContext, KeyCache>();

function privateKeyCipher(ctx: AuthContext): Buffer {
  return deriveKey(ctx.secret, "jwks-private-key");
}

async function liveKeys(ctx: AuthContext): Promise<StoredKey[]> {
  const nowMs = ctx.now().getTime();
  let cache = caches.get(ctx);
  if (!cache || nowMs - cache.loadedAtMs > CACHE_MS) {
    cache = { keys: await listLiveKeys(ctx.db, ctx.now()), loadedAtMs: nowMs, creating: cache?.creating ?? null };
    caches.set(ctx, cache);
  }
  return cache.keys.filter((key) => !key.expiresAt || key.expiresAt.getTime() > nowMs);
}

/** Creates an Ed25519 key pair; the private half is stored encrypted with a key derived from AUTH_SECRET. */
async function createKey(ctx: AuthContext): Promise<StoredKey> {
  const { publicKey, privateKey } = await generateKeyPair(ALG, { crv: "Ed25519", extractable: true });
  const now = ctx.now();
  const { rotationInterval, gracePeriod } = ctx.options.jwt;
  const key: StoredKey = {
    id: newId(),
    publicKey: JSON.stringify(await exportJWK(publicKey)),
    privateKey: encryptString(privateKeyCipher(ctx), JSON.stringify(await exportJWK(privateKey))),
    alg: ALG,
    crv: "Ed25519",
    createdAt: now,
    expiresAt: rotationInterval ? new Date(now.getTime() + (rotationInterval + gracePeriod) * 1000) : null,
  };
  await insertKey(ctx.db, key);
  const cache = caches.get(ctx);
  if (cache) cache.keys = [key, ...cache.keys];
  return key;
}

/** The newest key, made on first use and again when rotation is due; one creation at a time. */
async function signingKey(ctx: AuthContext): Promise<StoredKey> {
  const [newest] = await liveKeys(ctx);
  const { rotationInterval } = ctx.options.jwt;
  const due =
    !newest ||
    (rotationInterval !== undefined && ctx.now().getTime() - newest.createdAt.getTime() >= rotationInterval * 1000);
  if (!due) return newest;
  const cache = caches.get(ctx)!;
  cache.creating ??= createKey(ctx).finally(() => {
    cache.creating = null;
  });
  return cache.creating;
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
  const key = await signingKey(ctx);
  const jwk = decryptString(privateKeyCipher(ctx), key.privateKey);
  if (!jwk) throw new Error(`JWKS key ${key.id} cannot be decrypted with this AUTH_SECRET`);
  const privateKey = await importJWK(JSON.parse(jwk) as JWK, key.alg);
  const organizationId = session.activeOrganizationId;
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
  const nowSeconds = Math.floor(ctx.now().getTime() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: key.alg, kid: key.id, typ: "JWT" })
    .setSubject(user.id)
    .setIssuer(issuer ?? ctx.baseURL)
    .setAudience(audience ?? ctx.baseURL)
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + expirationTime)
    .sign(privateKey);
}

import { createHash } from "node:crypto";
import type { JWTPayload } from "jose";
import { auditChange, noteAudit } from "../../audit/trail.service.js";
import type { AuthContext } from "../../context.js";
import { safeEqual, sha256Base64Url } from "../../crypto/digest.js";
import { newId, randomString } from "../../crypto/random.js";
import type { DB } from "../../store/database.js";
import {
  claimCode,
  claimDeviceCode,
  claimRefreshToken,
  extendGrant,
  findAccessToken,
  findClient,
  findCode,
  findDeviceCode,
  findGrant,
  findRefreshToken,
  type Grant,
  insertAccessToken,
  insertGrant,
  insertRefreshToken,
  type OAuthClient,
  recordPoll,
  revokeGrants,
  setCodeGrant,
  touchClient,
} from "../../store/oauth-provider.js";
import { findBanState, findUserById } from "../../store/users.js";
import { signJwt, verifyJwt } from "../jwt.js";
import { checkResource } from "./authorize.js";
import { DEVICE_GRANT } from "./device.js";
import { oauthError } from "./errors.js";
import { issuerOf, userInfoURL } from "./metadata.js";

/**
 * The token endpoint's grants, introspection, revocation and UserInfo. Access tokens are JWTs
 * (RFC 9068, `typ: at+jwt`) signed with the key set GET /jwks publishes; each names its grant
 * (`gid`), so introspection and UserInfo see a revocation at once on every instance (the grant row).
 * Refresh tokens and codes are random strings kept as SHA-256 digests.
 */

const ACCESS_TOKEN_TYPE = "at+jwt";

type Params = Record<string, unknown>;

function param(params: Params, key: string): string | undefined {
  const value = params[key];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw oauthError("OAUTH_INVALID_REQUEST", `${key} must be given once, as text`);
  return value;
}

function required(params: Params, key: string): string {
  const value = param(params, key);
  if (!value) throw oauthError("OAUTH_INVALID_REQUEST", `${key} is required`);
  return value;
}

export interface TokenReply {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
  refresh_token?: string;
  id_token?: string;
}

/** POST /oauth2/token for an authenticated client. */
export async function exchangeToken(ctx: AuthContext, client: OAuthClient, params: Params): Promise<TokenReply> {
  const grantType = required(params, "grant_type");
  noteAudit(ctx, {
    organizationId: client.organizationId ?? undefined,
    details: { clientId: client.clientId, grantType },
  });
  if (!["authorization_code", "refresh_token", "client_credentials", DEVICE_GRANT].includes(grantType)) {
    throw oauthError("OAUTH_UNSUPPORTED_GRANT_TYPE");
  }
  if (!client.grantTypes.includes(grantType)) throw oauthError("OAUTH_UNAUTHORIZED_CLIENT");
  const reply =
    grantType === "authorization_code"
      ? await exchangeCode(ctx, client, params)
      : grantType === "refresh_token"
        ? await refresh(ctx, client, params)
        : grantType === DEVICE_GRANT
          ? await redeemDeviceCode(ctx, client, params)
          : await clientCredentials(ctx, client, params);
  await noteClientUse(ctx, client);
  return reply;
}

/** How stale a client's recorded last use may get: a busy machine client writes once a minute. */
const LAST_USED_PRECISION_MS = 60_000;

/** Records the client's last token (shown beside API keys' last use, docs/api-keys.md). */
async function noteClientUse(ctx: AuthContext, client: OAuthClient): Promise<void> {
  const now = ctx.now();
  if (client.lastUsedAt && now.getTime() - client.lastUsedAt.getTime() < LAST_USED_PRECISION_MS) return;
  await touchClient(ctx.db, client.clientId, now);
}

function pkceMatches(verifier: string, challenge: string): boolean {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  return safeEqual(createHash("sha256").update(verifier).digest("base64url"), challenge);
}

async function exchangeCode(ctx: AuthContext, client: OAuthClient, params: Params): Promise<TokenReply> {
  const code = required(params, "code");
  const redirectUri = param(params, "redirect_uri");
  const verifier = param(params, "code_verifier");
  const codeHash = sha256Base64Url(code);
  const now = ctx.now();
  const claimed = await claimCode(ctx.db, codeHash, now);
  if (!claimed) {
    // Used already: the grant it made is revoked, as RFC 6749 4.1.2 asks (the code may have leaked).
    const used = await findCode(ctx.db, codeHash);
    if (used?.grantId && used.clientId === client.clientId) {
      await revokeAfterReplay(ctx, used.grantId, "code_replayed");
    }
    throw oauthError("OAUTH_INVALID_GRANT");
  }
  // Checked after the claim, so a code sent with a wrong verifier is spent too (no second guess).
  if (
    claimed.clientId !== client.clientId ||
    claimed.expiresAt.getTime() <= now.getTime() ||
    redirectUri !== claimed.redirectUri ||
    (claimed.codeChallenge === null
      ? verifier !== undefined
      : !verifier || !pkceMatches(verifier, claimed.codeChallenge))
  ) {
    throw oauthError("OAUTH_INVALID_GRANT");
  }
  if (!(await mayHaveTokens(ctx, claimed.userId))) throw oauthError("OAUTH_INVALID_GRANT");
  const resource = resourceOf(ctx, params, claimed.resource);
  const scopes = claimed.scopes.split(" ").filter(Boolean);
  const grant: Grant = {
    id: newId(),
    clientId: client.clientId,
    userId: claimed.userId,
    scopes,
    resource,
    authTime: claimed.authTime,
    nonce: claimed.nonce,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ctx.options.oauthProvider.refreshTokenExpiresIn * 1000),
    revokedAt: null,
    sessionId: claimed.sessionId,
  };
  const refreshToken = issuesRefreshToken(client, scopes) ? randomString(43) : undefined;
  // Without a refresh token, nothing the grant issues outlives its access token.
  if (!refreshToken) grant.expiresAt = new Date(now.getTime() + ctx.options.oauthProvider.accessTokenExpiresIn * 1000);
  await ctx.db.transaction().execute(async (trx) => {
    await insertGrant(trx, grant);
    await setCodeGrant(trx, codeHash, grant.id);
    if (refreshToken) await storeRefreshToken(ctx, trx, grant, refreshToken);
    await auditChange(ctx, trx, { subjectId: claimed.userId, details: { grantId: grant.id, scope: claimed.scopes } });
  });
  return tokensFor(ctx, client, grant, scopes, refreshToken, { idToken: true });
}

function issuesRefreshToken(client: OAuthClient, scopes: string[]): boolean {
  return scopes.includes("offline_access") && client.grantTypes.includes("refresh_token");
}

/**
 * A new refresh token of the grant; the grant lasts as long as its newest refresh token (so
 * housekeeping prunes it only once nothing it issued can be used).
 */
async function storeRefreshToken(ctx: AuthContext, db: DB, grant: Grant, token: string): Promise<void> {
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + ctx.options.oauthProvider.refreshTokenExpiresIn * 1000);
  await insertRefreshToken(db, { tokenHash: sha256Base64Url(token), grantId: grant.id, createdAt: now, expiresAt });
  if (expiresAt.getTime() > grant.expiresAt.getTime()) await extendGrant(db, grant.id, expiresAt);
}

/** Whether the user may still be given tokens: a banned user's grants issue nothing (the ban may lift). */
async function mayHaveTokens(ctx: AuthContext, userId: string | null): Promise<boolean> {
  if (userId === null) return true;
  const state = await findBanState(ctx.db, userId);
  if (!state) return false;
  return !state.banned || (state.banExpires !== null && state.banExpires.getTime() <= ctx.now().getTime());
}

/** The resource of a token request: the one the code was for, or a new one the server serves (RFC 8707). */
function resourceOf(ctx: AuthContext, params: Params, fromCode: string | null): string | null {
  const asked = param(params, "resource");
  if (asked === undefined) return fromCode;
  if (fromCode !== null && asked !== fromCode) throw oauthError("OAUTH_INVALID_TARGET");
  try {
    return checkResource(ctx, asked);
  } catch {
    throw oauthError("OAUTH_INVALID_TARGET");
  }
}

/** The scopes a request narrows to (never beyond `granted`). */
function narrowScopes(params: Params, granted: string[]): string[] {
  const asked = param(params, "scope");
  if (asked === undefined) return granted;
  const scopes = [...new Set(asked.split(" ").filter(Boolean))];
  if (scopes.length === 0 || scopes.some((scope) => !granted.includes(scope))) throw oauthError("OAUTH_INVALID_SCOPE");
  return scopes;
}

/**
 * Rotates the refresh token: the presented one is spent, a new one is issued in the same grant. A
 * spent token presented again means two parties hold it: the whole grant is revoked (OAuth 2.1
 * 4.3.1), for the thief and the client alike, and the revocation is in the database every instance
 * reads.
 */
async function refresh(ctx: AuthContext, client: OAuthClient, params: Params): Promise<TokenReply> {
  const token = required(params, "refresh_token");
  const tokenHash = sha256Base64Url(token);
  const stored = await findRefreshToken(ctx.db, tokenHash);
  const grant = stored ? await findGrant(ctx.db, stored.grantId) : null;
  const now = ctx.now();
  // Another client's token is refused without spending it.
  if (!stored || !grant || grant.clientId !== client.clientId) throw oauthError("OAUTH_INVALID_GRANT");
  noteAudit(ctx, { subjectId: grant.userId ?? undefined, details: { grantId: grant.id } });
  if (stored.usedAt !== null || !(await claimRefreshToken(ctx.db, tokenHash, now))) {
    await revokeAfterReplay(ctx, grant.id, "refresh_token_reused");
    throw oauthError("OAUTH_INVALID_GRANT");
  }
  if (grant.revokedAt !== null || stored.expiresAt.getTime() <= now.getTime()) throw oauthError("OAUTH_INVALID_GRANT");
  if (!(await mayHaveTokens(ctx, grant.userId))) throw oauthError("OAUTH_INVALID_GRANT");
  const scopes = narrowScopes(params, grant.scopes);
  const resource = resourceOf(ctx, params, grant.resource);
  const next = randomString(43);
  await ctx.db.transaction().execute(async (trx) => {
    await storeRefreshToken(ctx, trx, grant, next);
    await auditChange(ctx, trx, { details: { scope: scopes.join(" "), refreshed: true } });
  });
  // OpenID Connect Core 12.2: a refreshed ID token carries no nonce.
  return tokensFor(ctx, client, { ...grant, resource, nonce: null }, scopes, next, { idToken: true });
}

/** Revokes a grant after a replay, in the request's audit entry (a failure, naming the reason). */
async function revokeAfterReplay(ctx: AuthContext, grantId: string, reason: string): Promise<void> {
  const revoked = await revokeGrants(ctx.db, [grantId], ctx.now());
  const grant = await findGrant(ctx.db, grantId);
  noteAudit(ctx, {
    subjectId: grant?.userId ?? undefined,
    details: { grantId, replay: reason, grantRevoked: revoked > 0 },
  });
  ctx.logger.warn("oauth grant revoked after a replay", { grantId, reason });
}

/**
 * A device's poll (RFC 8628 3.4): slow_down when it polls faster than its interval (which then grows),
 * authorization_pending until the user answers, then access_denied, or the tokens, once.
 */
async function redeemDeviceCode(ctx: AuthContext, client: OAuthClient, params: Params): Promise<TokenReply> {
  const code = await findDeviceCode(ctx.db, { deviceCodeHash: sha256Base64Url(required(params, "device_code")) });
  if (!code || code.clientId !== client.clientId) throw oauthError("OAUTH_INVALID_GRANT");
  const now = ctx.now();
  if (code.expiresAt.getTime() <= now.getTime()) throw oauthError("OAUTH_EXPIRED_TOKEN");
  if (code.usedAt !== null) throw oauthError("OAUTH_INVALID_GRANT");
  if (!(await recordPoll(ctx.db, code.id, now, code.intervalSeconds))) throw oauthError("OAUTH_SLOW_DOWN");
  if (code.status === "pending") throw oauthError("OAUTH_AUTHORIZATION_PENDING");
  if (code.status === "denied" || !code.userId) throw oauthError("OAUTH_ACCESS_DENIED");
  if (!(await mayHaveTokens(ctx, code.userId))) throw oauthError("OAUTH_ACCESS_DENIED");
  if (!(await claimDeviceCode(ctx.db, code.id, now))) throw oauthError("OAUTH_INVALID_GRANT");
  const grant: Grant = {
    id: newId(),
    clientId: client.clientId,
    userId: code.userId,
    scopes: code.scopes,
    resource: code.resource,
    authTime: code.authTime,
    nonce: null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ctx.options.oauthProvider.accessTokenExpiresIn * 1000),
    revokedAt: null,
    sessionId: null,
  };
  const refreshToken = issuesRefreshToken(client, code.scopes) ? randomString(43) : undefined;
  await ctx.db.transaction().execute(async (trx) => {
    await insertGrant(trx, grant);
    if (refreshToken) await storeRefreshToken(ctx, trx, grant, refreshToken);
    await auditChange(ctx, trx, {
      subjectId: code.userId!,
      details: { grantId: grant.id, scope: code.scopes.join(" ") },
    });
  });
  return tokensFor(ctx, client, grant, code.scopes, refreshToken, { idToken: true });
}

/** A machine client's token for itself (no user, no refresh token, no ID token). */
async function clientCredentials(ctx: AuthContext, client: OAuthClient, params: Params): Promise<TokenReply> {
  const allowed = client.scopes.filter((scope) => !["openid", "offline_access", "profile", "email"].includes(scope));
  const scopes = param(params, "scope") === undefined ? allowed : narrowScopes(params, allowed);
  const now = ctx.now();
  const grant: Grant = {
    id: newId(),
    clientId: client.clientId,
    userId: null,
    scopes,
    resource: resourceOf(ctx, params, null),
    authTime: null,
    nonce: null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ctx.options.oauthProvider.accessTokenExpiresIn * 1000),
    revokedAt: null,
    sessionId: null,
  };
  await ctx.db.transaction().execute(async (trx) => {
    await insertGrant(trx, grant);
    await auditChange(ctx, trx, { details: { grantId: grant.id, scope: scopes.join(" ") } });
  });
  return tokensFor(ctx, client, grant, scopes, undefined, { idToken: false });
}

async function tokensFor(
  ctx: AuthContext,
  client: OAuthClient,
  grant: Grant,
  scopes: string[],
  refreshToken: string | undefined,
  { idToken }: { idToken: boolean },
): Promise<TokenReply> {
  const { accessTokenExpiresIn, idTokenExpiresIn } = ctx.options.oauthProvider;
  const issuer = issuerOf(ctx);
  const openid = grant.userId !== null && scopes.includes("openid");
  // RFC 8707: bound to the resource asked for; UserInfo is an audience too when openid was granted.
  const audience = [grant.resource ?? issuer, ...(openid ? [userInfoURL(ctx)] : [])];
  const accessToken =
    client.accessTokenFormat === "opaque"
      ? await opaqueAccessToken(ctx, grant, scopes, audience)
      : await signJwt(
          ctx,
          { client_id: client.clientId, scope: scopes.join(" "), jti: newId(), gid: grant.id },
          {
            subject: grant.userId ?? client.clientId,
            issuer,
            audience: audience.length === 1 ? (audience[0] as string) : audience,
            expiresIn: accessTokenExpiresIn,
            typ: ACCESS_TOKEN_TYPE,
          },
        );
  const reply: TokenReply = {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: accessTokenExpiresIn,
    scope: scopes.join(" "),
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
  };
  if (idToken && openid && grant.userId) {
    const user = await findUserById(ctx.db, grant.userId);
    if (user) {
      const claims: JWTPayload = {
        ...userClaims(user, scopes),
        azp: client.clientId,
        at_hash: createHash("sha256").update(accessToken).digest().subarray(0, 16).toString("base64url"),
        ...(grant.authTime ? { auth_time: Math.floor(grant.authTime.getTime() / 1000) } : {}),
        ...(grant.nonce ? { nonce: grant.nonce } : {}),
        // The session that authorized it (Back-Channel Logout 1.0 2.1): a logout token names it.
        ...(grant.sessionId ? { sid: grant.sessionId } : {}),
      };
      delete claims.sub;
      reply.id_token = await signJwt(ctx, claims, {
        subject: user.id,
        issuer,
        audience: client.clientId,
        expiresIn: idTokenExpiresIn,
      });
    }
  }
  return reply;
}

interface ClaimUser {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean | number;
  image: string | null;
  updatedAt: Date | string;
}

/** The claims the scopes release (OpenID Connect Core 5.4). */
function userClaims(user: ClaimUser, scopes: string[]): Record<string, unknown> {
  return {
    sub: user.id,
    ...(scopes.includes("profile")
      ? {
          name: user.name,
          ...(user.image ? { picture: user.image } : {}),
          updated_at: Math.floor(new Date(user.updatedAt).getTime() / 1000),
        }
      : {}),
    ...(scopes.includes("email") ? { email: user.email, email_verified: Boolean(user.emailVerified) } : {}),
  };
}

/** An access token's claims and its live grant; null when it is not a live token of this server. */
/**
 * An opaque access token (the client's `access_token_format`): 256 random bits, its digest kept in
 * the grant with what a JWT would have said (scopes, audience, expiry), read by introspection and
 * UserInfo only.
 */
async function opaqueAccessToken(ctx: AuthContext, grant: Grant, scopes: string[], audience: string[]) {
  const token = randomString(43);
  const now = ctx.now();
  await insertAccessToken(ctx.db, {
    tokenHash: sha256Base64Url(token),
    grantId: grant.id,
    scopes,
    audience,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ctx.options.oauthProvider.accessTokenExpiresIn * 1000),
  });
  return token;
}

/** The claims an opaque token stands for, as its JWT would carry them; null when unknown or expired. */
async function opaqueClaims(ctx: AuthContext, token: string): Promise<JWTPayload | null> {
  const stored = await findAccessToken(ctx.db, sha256Base64Url(token));
  if (!stored || stored.expiresAt.getTime() <= ctx.now().getTime()) return null;
  const grant = await findGrant(ctx.db, stored.grantId);
  if (!grant) return null;
  return {
    iss: issuerOf(ctx),
    sub: grant.userId ?? grant.clientId,
    aud: stored.audience.length === 1 ? stored.audience[0] : stored.audience,
    client_id: grant.clientId,
    scope: stored.scopes,
    gid: grant.id,
    iat: Math.floor(stored.createdAt.getTime() / 1000),
    exp: Math.floor(stored.expiresAt.getTime() / 1000),
  };
}

async function liveAccessToken(ctx: AuthContext, token: string): Promise<{ claims: JWTPayload; grant: Grant } | null> {
  if (token.length > 4096) return null;
  // A JWT has three dot-separated parts; an opaque token is base64url without dots.
  const claims = token.includes(".")
    ? await verifyJwt(ctx, token, { issuer: issuerOf(ctx), typ: ACCESS_TOKEN_TYPE })
    : await opaqueClaims(ctx, token);
  if (!claims || typeof claims.gid !== "string") return null;
  const grant = await findGrant(ctx.db, claims.gid);
  if (!grant || grant.revokedAt !== null || !(await mayHaveTokens(ctx, grant.userId))) return null;
  // A disabled client's tokens stop with it.
  if ((await findClient(ctx.db, grant.clientId))?.disabled !== false) return null;
  return { claims, grant };
}

/** GET /oauth2/userinfo: the bearer token's user, as its openid scopes release. */
export async function userInfo(ctx: AuthContext, authorization: string | undefined): Promise<Record<string, unknown>> {
  const bearer = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
  const live = bearer ? await liveAccessToken(ctx, bearer) : null;
  const scopes = typeof live?.claims.scope === "string" ? live.claims.scope.split(" ") : [];
  const audience = ([] as unknown[]).concat(live?.claims.aud ?? []);
  if (!live?.grant.userId || !scopes.includes("openid") || !audience.includes(userInfoURL(ctx))) {
    throw oauthError("OAUTH_INVALID_TOKEN");
  }
  const user = await findUserById(ctx.db, live.grant.userId);
  if (!user) throw oauthError("OAUTH_INVALID_TOKEN");
  return userClaims(user, scopes);
}

/** POST /oauth2/introspect (RFC 7662): any authenticated client may ask about an access token; a refresh token only its own. */
export async function introspect(
  ctx: AuthContext,
  client: OAuthClient,
  params: Params,
): Promise<Record<string, unknown>> {
  const token = required(params, "token");
  const hint = param(params, "token_type_hint");
  const asRefresh = async () => {
    const stored = await findRefreshToken(ctx.db, sha256Base64Url(token));
    const grant = stored ? await findGrant(ctx.db, stored.grantId) : null;
    if (!stored || !grant || grant.clientId !== client.clientId) return null;
    if (stored.usedAt || grant.revokedAt || stored.expiresAt.getTime() <= ctx.now().getTime()) return null;
    return {
      active: true,
      token_type: "refresh_token",
      client_id: grant.clientId,
      scope: grant.scopes.join(" "),
      ...(grant.userId ? { sub: grant.userId } : {}),
      exp: Math.floor(stored.expiresAt.getTime() / 1000),
      iss: issuerOf(ctx),
    };
  };
  const asAccess = async () => {
    const live = await liveAccessToken(ctx, token);
    if (!live) return null;
    const { claims } = live;
    return {
      active: true,
      token_type: "Bearer",
      client_id: String(claims.client_id),
      scope: String(claims.scope ?? ""),
      sub: claims.sub,
      exp: claims.exp,
      iat: claims.iat,
      iss: claims.iss,
      aud: claims.aud,
      jti: claims.jti,
    };
  };
  const order = hint === "refresh_token" ? [asRefresh, asAccess] : [asAccess, asRefresh];
  for (const attempt of order) {
    const answer = await attempt();
    if (answer) return answer;
  }
  return { active: false };
}

/**
 * POST /oauth2/revoke (RFC 7009): a token of the calling client ends its whole grant (the refresh
 * tokens, and the access tokens, which introspection and UserInfo then refuse). An unknown token,
 * or another client's, is answered alike: 200 and nothing changes.
 */
export async function revoke(ctx: AuthContext, client: OAuthClient, params: Params): Promise<void> {
  const token = required(params, "token");
  noteAudit(ctx, { organizationId: client.organizationId ?? undefined, details: { clientId: client.clientId } });
  let grantId: string | null = null;
  const stored = await findRefreshToken(ctx.db, sha256Base64Url(token));
  if (stored) grantId = stored.grantId;
  else grantId = (await liveAccessToken(ctx, token))?.grant.id ?? null;
  const grant = grantId ? await findGrant(ctx.db, grantId) : null;
  if (!grant || grant.clientId !== client.clientId) return;
  await ctx.db.transaction().execute(async (trx) => {
    if ((await revokeGrants(trx, [grant.id], ctx.now())) > 0) {
      await auditChange(ctx, trx, { subjectId: grant.userId ?? undefined, details: { grantId: grant.id } });
    }
  });
}

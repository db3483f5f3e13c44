import type { z } from "zod";
import type { Session } from "../../../contract/models.js";
import {
  type createOAuthClientBody,
  type oauthClientModel,
  registerOAuthClientBody,
  type updateOAuthClientBody,
} from "../../../contract/oauth-provider.js";
import { auditChange, noteAudit } from "../../audit/trail.service.js";
import { type AuthContext, apiURL } from "../../context.js";
import { safeEqual, sha256Base64Url } from "../../crypto/digest.js";
import { newId, randomString } from "../../crypto/random.js";
import { AuthError } from "../../errors.js";
import type { DB } from "../../store/database.js";
import { findMember } from "../../store/members.js";
import {
  deleteClient,
  findClient,
  insertClient,
  listClients,
  type OAuthClient,
  setClientSecretHash,
  updateClient,
} from "../../store/oauth-provider.js";
import { isAcceptableReceiverUrl } from "../../webhooks/receiver-url.js";
import { isOwnerRole } from "../access-control.js";
import { checkMetadata } from "./client-metadata.js";
import { oauthError } from "./errors.js";
import { resolveClient } from "./metadata-document.js";

/**
 * OAuth clients: registered by a signed-in user for themselves or by an owner for their
 * organization (its owners manage it then), or by the server (auth.api), which alone may mark a
 * client first-party (no consent asked). Secrets are shown once and kept as SHA-256 digests:
 * they are 256 random bits, so a fast digest is not a guessing aid.
 */

const SECRET_LENGTH = 43;

type ClientReply = z.input<typeof oauthClientModel>;

export function clientReply(client: OAuthClient, secret?: string): ClientReply {
  return {
    client_id: client.clientId,
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
    client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
    client_name: client.name,
    redirect_uris: client.redirectUris,
    post_logout_redirect_uris: client.postLogoutRedirectUris,
    token_endpoint_auth_method: client.tokenEndpointAuthMethod,
    grant_types: client.grantTypes as ClientReply["grant_types"],
    response_types: client.grantTypes.includes("authorization_code") ? ["code"] : [],
    scope: client.scopes.join(" "),
    ...(client.clientUri ? { client_uri: client.clientUri } : {}),
    ...(client.logoUri ? { logo_uri: client.logoUri } : {}),
    ...(client.backchannelLogoutUri
      ? { backchannel_logout_uri: client.backchannelLogoutUri, backchannel_logout_session_required: true }
      : {}),
    ...(client.frontchannelLogoutUri
      ? { frontchannel_logout_uri: client.frontchannelLogoutUri, frontchannel_logout_session_required: true }
      : {}),
    access_token_format: client.accessTokenFormat,
    skip_consent: client.skipConsent,
    disabled: client.disabled,
    organizationId: client.organizationId,
    userId: client.userId,
    createdBy: client.createdBy,
    lastUsedAt: client.lastUsedAt,
  };
}

/**
 * A back-channel logout URI is dialled by the server: https to a public host (the same rule as an
 * organization's webhook receiver), unless oauthProvider.allowPrivateUrls.
 */
async function checkBackchannelUri(ctx: AuthContext, uri: string | null): Promise<string | null> {
  if (uri === null) return null;
  if (!(await isAcceptableReceiverUrl(uri, ctx.options.oauthProvider.allowPrivateUrls))) {
    throw new AuthError("OAUTH_INVALID_CLIENT_METADATA", {
      message: "backchannel_logout_uri must be an https URL of a public host",
    });
  }
  return uri;
}

/**
 * A front-channel logout URI is framed in the user's browser, never dialled by the server: Front-Channel
 * Logout 1.0 section 2 asks its scheme, host and port to be a registered redirect URI's, so a client
 * can frame only a page of its own.
 */
function checkFrontchannelUri(uri: string | null, redirectUris: readonly string[]): string | null {
  if (uri === null) return null;
  const origin = new URL(uri).origin;
  const own = redirectUris.some((redirect) => URL.canParse(redirect) && new URL(redirect).origin === origin);
  if (origin === "null" || !own) {
    throw new AuthError("OAUTH_INVALID_CLIENT_METADATA", {
      message: "frontchannel_logout_uri must have the scheme, host and port of a redirect URI",
    });
  }
  return uri;
}

async function requireOrganizationOwner(ctx: AuthContext, db: DB, organizationId: string, userId: string) {
  const member = await findMember(db, organizationId, userId);
  if (!member || !isOwnerRole(ctx, member.role)) throw new AuthError("OAUTH_CLIENT_ACCESS_DENIED");
}

/**
 * How a client comes to be: `server` (auth.api) may mark it first-party; `admin` makes it no one's
 * (the admins manage it); `registration` (RFC 7591) hands out an RFC 7592 registration access token.
 */
interface CreatedBy {
  server: boolean;
  admin?: boolean;
  registration?: boolean;
}

/** The client of a signed-in creator (null: dynamic registration without a session, owned by no one). */
export async function createClient(
  ctx: AuthContext,
  creatorId: string | null,
  input: z.output<typeof createOAuthClientBody>,
  by: CreatedBy,
): Promise<ClientReply> {
  if (input.skip_consent && !by.server) throw new AuthError("OAUTH_TRUSTED_CLIENT_SERVER_ONLY");
  const isPublic = input.token_endpoint_auth_method === "none";
  const { scopes, grantTypes } = checkMetadata(ctx, {
    scope: input.scope,
    grantTypes: input.grant_types,
    isPublic,
    redirectUris: input.redirect_uris,
    postLogoutRedirectUris: input.post_logout_redirect_uris ?? [],
  });
  const secret = isPublic ? undefined : randomString(SECRET_LENGTH);
  const registrationToken = by.registration ? randomString(SECRET_LENGTH) : undefined;
  const now = ctx.now();
  const client: OAuthClient = {
    id: newId(),
    clientId: randomString(32),
    clientSecretHash: secret ? sha256Base64Url(secret) : null,
    name: input.client_name,
    tokenEndpointAuthMethod: input.token_endpoint_auth_method,
    redirectUris: [...new Set(input.redirect_uris)],
    postLogoutRedirectUris: [...new Set(input.post_logout_redirect_uris ?? [])],
    grantTypes,
    scopes,
    clientUri: input.client_uri ?? null,
    logoUri: input.logo_uri ?? null,
    skipConsent: input.skip_consent ?? false,
    disabled: false,
    organizationId: input.organizationId ?? null,
    userId: input.organizationId || by.admin ? null : creatorId,
    createdBy: creatorId,
    createdAt: now,
    updatedAt: now,
    lastUsedAt: null,
    metadataDocumentExpiresAt: null,
    backchannelLogoutUri: await checkBackchannelUri(ctx, input.backchannel_logout_uri ?? null),
    frontchannelLogoutUri: checkFrontchannelUri(input.frontchannel_logout_uri ?? null, input.redirect_uris),
    accessTokenFormat: input.access_token_format ?? "jwt",
    registrationAccessTokenHash: registrationToken ? sha256Base64Url(registrationToken) : null,
  };
  await ctx.db.transaction().execute(async (trx) => {
    if (client.organizationId) {
      if (!creatorId) throw new AuthError("OAUTH_CLIENT_ACCESS_DENIED");
      await requireOrganizationOwner(ctx, trx, client.organizationId, creatorId);
    }
    await insertClient(trx, client);
    await auditChange(ctx, trx, {
      subjectId: creatorId ?? undefined,
      organizationId: client.organizationId ?? undefined,
      details: { clientId: client.clientId, skipConsent: client.skipConsent },
    });
  });
  const reply = clientReply(client, secret);
  return registrationToken
    ? { ...reply, registration_access_token: registrationToken, ...registrationUri(ctx, client) }
    : reply;
}

/** RFC 7592's client configuration endpoint of a registered client. */
export function registrationUri(ctx: AuthContext, client: OAuthClient) {
  return { registration_client_uri: apiURL(ctx, `/oauth2/register/${encodeURIComponent(client.clientId)}`) };
}

/** A client the caller manages (its creator for a personal client, an owner of its organization); a stranger cannot tell it exists. */
export async function managedClient(ctx: AuthContext, session: Session, clientId: string): Promise<OAuthClient> {
  const client = await findClient(ctx.db, clientId);
  if (!client) throw new AuthError("OAUTH_CLIENT_NOT_FOUND");
  if (client.organizationId) {
    const member = await findMember(ctx.db, client.organizationId, session.userId);
    if (!member) throw new AuthError("OAUTH_CLIENT_NOT_FOUND");
    noteAudit(ctx, { organizationId: client.organizationId });
    if (!isOwnerRole(ctx, member.role)) throw new AuthError("OAUTH_CLIENT_ACCESS_DENIED");
  } else if (client.userId !== session.userId) {
    throw new AuthError("OAUTH_CLIENT_NOT_FOUND");
  }
  // The manager acting: their entry names them (an oauth.* action names no account by itself).
  noteAudit(ctx, { subjectId: session.userId, details: { clientId } });
  return client;
}

/** What a consent page shows of a client; a disabled one is as good as gone. */
export async function publicClient(ctx: AuthContext, clientId: string) {
  const client = await findClient(ctx.db, clientId);
  if (!client || client.disabled) throw new AuthError("OAUTH_CLIENT_NOT_FOUND");
  return {
    client_id: client.clientId,
    client_name: client.name,
    client_uri: client.clientUri,
    logo_uri: client.logoUri,
  };
}

export async function listManagedClients(
  ctx: AuthContext,
  session: Session,
  organizationId: string | undefined,
): Promise<ClientReply[]> {
  if (organizationId) await requireOrganizationOwner(ctx, ctx.db, organizationId, session.userId);
  const clients = await listClients(ctx.db, organizationId ? { organizationId } : { userId: session.userId });
  return clients.map((client) => clientReply(client));
}

/** better-auth's update-client. Disabling stops the client at once: no authorization, no token, and its tokens read as inactive. */
export async function changeClient(
  ctx: AuthContext,
  session: Session,
  input: z.output<typeof updateOAuthClientBody>,
): Promise<ClientReply> {
  return applyClientUpdate(ctx, await managedClient(ctx, session, input.client_id), input.update);
}

/** Writes a change to a client its caller may change (its manager, an admin, its registration token). */
export async function applyClientUpdate(
  ctx: AuthContext,
  client: OAuthClient,
  update: z.output<typeof updateOAuthClientBody>["update"],
): Promise<ClientReply> {
  const redirectUris = update.redirect_uris ? [...new Set(update.redirect_uris)] : client.redirectUris;
  const postLogoutRedirectUris = update.post_logout_redirect_uris
    ? [...new Set(update.post_logout_redirect_uris)]
    : client.postLogoutRedirectUris;
  const { scopes, grantTypes } = checkMetadata(ctx, {
    scope: update.scope ?? client.scopes.join(" "),
    grantTypes: update.grant_types ?? client.grantTypes,
    isPublic: client.tokenEndpointAuthMethod === "none",
    redirectUris,
    postLogoutRedirectUris,
  });
  const changed: OAuthClient = {
    ...client,
    name: update.client_name ?? client.name,
    redirectUris,
    postLogoutRedirectUris,
    grantTypes,
    scopes,
    clientUri: update.client_uri === undefined ? client.clientUri : update.client_uri,
    logoUri: update.logo_uri === undefined ? client.logoUri : update.logo_uri,
    backchannelLogoutUri:
      update.backchannel_logout_uri === undefined
        ? client.backchannelLogoutUri
        : await checkBackchannelUri(ctx, update.backchannel_logout_uri),
    // Checked against the redirect URIs as they will be: a change of either may break the rule.
    frontchannelLogoutUri: checkFrontchannelUri(
      update.frontchannel_logout_uri === undefined ? client.frontchannelLogoutUri : update.frontchannel_logout_uri,
      redirectUris,
    ),
    accessTokenFormat: update.access_token_format ?? client.accessTokenFormat,
    disabled: update.disabled ?? client.disabled,
    updatedAt: ctx.now(),
  };
  await ctx.db.transaction().execute(async (trx) => {
    await updateClient(trx, client.clientId, changed);
    await auditChange(ctx, trx, { details: { changed: Object.keys(update) } });
  });
  return clientReply(changed);
}

export async function rotateSecret(ctx: AuthContext, session: Session, clientId: string): Promise<ClientReply> {
  const client = await managedClient(ctx, session, clientId);
  if (client.tokenEndpointAuthMethod === "none") {
    throw new AuthError("OAUTH_INVALID_CLIENT_METADATA", { message: "A public client has no secret" });
  }
  const secret = randomString(SECRET_LENGTH);
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    await setClientSecretHash(trx, clientId, sha256Base64Url(secret), now);
    await auditChange(ctx, trx);
  });
  return clientReply({ ...client, updatedAt: now }, secret);
}

/** Deleting a client deletes its grants, codes, refresh tokens and consents (the foreign keys cascade). */
export async function removeClient(ctx: AuthContext, session: Session, clientId: string): Promise<void> {
  await managedClient(ctx, session, clientId);
  await ctx.db.transaction().execute(async (trx) => {
    if (await deleteClient(trx, clientId)) await auditChange(ctx, trx);
  });
}

/** How a protocol request named its client: Basic (RFC 6749 2.3.1) or form fields. */
function credentialsOf(
  authorization: string | undefined,
  body: Record<string, unknown>,
): { clientId: string; secret: string | null; method: OAuthClient["tokenEndpointAuthMethod"] } | null {
  const basic = authorization ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization) : null;
  const fromBody = (key: string) => (typeof body[key] === "string" ? (body[key] as string) : undefined);
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 1) throw oauthError("OAUTH_INVALID_CLIENT", "Malformed Basic credentials");
    try {
      // Form-urlencoded before base64 (RFC 6749 2.3.1).
      const clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, " "));
      const secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, " "));
      if (fromBody("client_id") !== undefined && fromBody("client_id") !== clientId) {
        throw oauthError("OAUTH_INVALID_REQUEST", "client_id differs from the authenticated client");
      }
      return { clientId, secret, method: "client_secret_basic" };
    } catch (error) {
      if (error instanceof AuthError) throw error;
      throw oauthError("OAUTH_INVALID_CLIENT", "Malformed Basic credentials");
    }
  }
  const clientId = fromBody("client_id");
  if (!clientId) return null;
  const secret = fromBody("client_secret");
  return secret !== undefined
    ? { clientId, secret, method: "client_secret_post" }
    : { clientId, secret: null, method: "none" };
}

/**
 * The client a token, introspection or revocation request authenticates as. A confidential client
 * must present its secret by the method it registered; a public client only names itself (which
 * `allowPublic` permits: at the token endpoint, where PKCE or the refresh token binds it).
 */
export async function authenticateClient(
  ctx: AuthContext,
  authorization: string | undefined,
  body: Record<string, unknown>,
  { allowPublic }: { allowPublic: boolean },
): Promise<OAuthClient> {
  const given = credentialsOf(authorization, body);
  if (!given) throw oauthError("OAUTH_INVALID_CLIENT", "Client authentication is required");
  const client = await resolveClient(ctx, given.clientId);
  const expectedHash = client?.clientSecretHash ?? null;
  const presentedHash = given.secret !== null ? sha256Base64Url(given.secret) : "";
  // Compared even for an unknown client, so the answer takes as long either way.
  const secretMatches = safeEqual(presentedHash, expectedHash ?? sha256Base64Url("unknown-client"));
  if (!client || client.disabled) throw oauthError("OAUTH_INVALID_CLIENT");
  if (client.tokenEndpointAuthMethod === "none") {
    if (given.secret !== null || !allowPublic) throw oauthError("OAUTH_INVALID_CLIENT");
  } else if (!expectedHash || !secretMatches || given.method === "none") {
    // Either secret method is accepted from a confidential client, as most providers do.
    throw oauthError("OAUTH_INVALID_CLIENT");
  }
  return client;
}

/** Registration metadata (RFC 7591), or a refusal in its error shape naming the field. */
export function parseRegistrationMetadata(metadata: Record<string, unknown>) {
  const parsed = registerOAuthClientBody.safeParse(metadata);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join(".") ?? "metadata";
  throw oauthError(
    field.startsWith("redirect_uris") ? "OAUTH_INVALID_REDIRECT_URI" : "OAUTH_INVALID_CLIENT_METADATA",
    `${field}: ${issue?.message ?? "invalid"}`,
  );
}

/** Runs a registration's write, answering the checks' metadata refusals in RFC 7591's error shape. */
export async function inRegistrationErrors<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (
      error instanceof AuthError &&
      (error.code === "OAUTH_INVALID_REDIRECT_URI" || error.code === "OAUTH_INVALID_CLIENT_METADATA")
    ) {
      throw oauthError(error.code, error.message);
    }
    throw error;
  }
}

/**
 * RFC 7591 dynamic registration (off unless allowDynamicClientRegistration): the caller's own
 * client, or with allowUnauthenticatedClientRegistration anyone's, owned by no one. Refusals carry
 * the RFC's error names.
 */
export async function registerClient(
  ctx: AuthContext,
  creatorId: string | null,
  metadata: Record<string, unknown>,
): Promise<ClientReply> {
  const { allowDynamicClientRegistration, allowUnauthenticatedClientRegistration } = ctx.options.oauthProvider;
  if (!allowDynamicClientRegistration || (!creatorId && !allowUnauthenticatedClientRegistration)) {
    throw oauthError("OAUTH_REGISTRATION_DISABLED");
  }
  const input = parseRegistrationMetadata(metadata);
  return inRegistrationErrors(() => createClient(ctx, creatorId, input, { server: false, registration: true }));
}

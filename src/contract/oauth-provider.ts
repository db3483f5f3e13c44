import { z } from "zod";
import { queryInt } from "./fields.js";
import { timestamp } from "./models.js";

/**
 * Gatehouse as an OAuth 2.1 authorization server and OpenID provider, on the wire of better-auth's
 * `@better-auth/oauth-provider` (docs/oauth-provider.md). Client metadata uses RFC 7591's names.
 */

export const TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"] as const;
export const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
export const OAUTH_GRANT_TYPES = [
  "authorization_code",
  "refresh_token",
  "client_credentials",
  DEVICE_CODE_GRANT,
] as const;

const scopeToken = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
/** A space-separated scope list (RFC 6749 3.3). */
export const scopeText = z
  .string()
  .max(2000)
  .refine((value) => value.split(" ").every((s) => s === "" || scopeToken.test(s)), "must be scope tokens");

const uriList = z.array(z.string().min(1).max(2000)).max(20);

/** What a client is registered with (RFC 7591 2). Redirect URIs are checked by the service. */
export const createOAuthClientBody = z.strictObject({
  client_name: z.string().trim().min(1).max(200),
  redirect_uris: uriList.default([]),
  post_logout_redirect_uris: uriList.optional(),
  token_endpoint_auth_method: z.enum(TOKEN_ENDPOINT_AUTH_METHODS).default("client_secret_basic"),
  grant_types: z.array(z.enum(OAUTH_GRANT_TYPES)).min(1).max(4).default(["authorization_code"]),
  response_types: z.array(z.literal("code")).max(1).optional(),
  /** The scopes the client may ask for; the server's scopes when unset. */
  scope: scopeText.optional(),
  client_uri: z.url().max(2000).optional(),
  logo_uri: z.url().max(2000).optional(),
  /** OpenID Connect Back-Channel Logout 1.0: where a logout token is POSTed when the user's session ends. */
  backchannel_logout_uri: z.url().max(2000).optional(),
  /**
   * OpenID Connect Front-Channel Logout 1.0: a page of the client's, framed with `iss` and `sid` when
   * the user signs out through end-session; its scheme, host and port are a redirect URI's.
   */
  frontchannel_logout_uri: z.url().max(2000).optional(),
  /** Access tokens as JWTs (RFC 9068, the default) or opaque strings only introspection reads. */
  access_token_format: z.enum(["jwt", "opaque"]).optional(),
  /** First-party: consent is not asked. Only a server call (auth.api) may set it. */
  skip_consent: z.boolean().optional(),
  /** The organization the client belongs to (its owners manage it); the caller's own client when unset. */
  organizationId: z.string().min(1).max(200).optional(),
});

/**
 * RFC 7591 registration: the same metadata, unknown fields ignored (as the RFC says), no
 * organization and never first-party.
 */
export const registerOAuthClientBody = createOAuthClientBody.omit({ organizationId: true, skip_consent: true }).strip();

/** better-auth's update-client: the client, and the metadata to change (`disabled` stops it at once). */
export const updateOAuthClientBody = z.strictObject({
  client_id: z.string().min(1).max(200),
  update: z.strictObject({
    client_name: z.string().trim().min(1).max(200).optional(),
    redirect_uris: uriList.optional(),
    post_logout_redirect_uris: uriList.optional(),
    grant_types: z.array(z.enum(OAUTH_GRANT_TYPES)).min(1).max(4).optional(),
    scope: scopeText.optional(),
    client_uri: z.url().max(2000).nullable().optional(),
    logo_uri: z.url().max(2000).nullable().optional(),
    backchannel_logout_uri: z.url().max(2000).nullable().optional(),
    frontchannel_logout_uri: z.url().max(2000).nullable().optional(),
    access_token_format: z.enum(["jwt", "opaque"]).optional(),
    disabled: z.boolean().optional(),
  }),
});

/** A client as its managers read it; `client_secret` only in the answer that creates or rotates it. */
export const oauthClientModel = z.object({
  client_id: z.string(),
  client_secret: z.string().optional(),
  client_id_issued_at: z.number().int(),
  client_secret_expires_at: z.number().int().optional(),
  client_name: z.string(),
  redirect_uris: z.array(z.string()),
  post_logout_redirect_uris: z.array(z.string()),
  token_endpoint_auth_method: z.enum(TOKEN_ENDPOINT_AUTH_METHODS),
  grant_types: z.array(z.enum(OAUTH_GRANT_TYPES)),
  response_types: z.array(z.string()),
  scope: z.string(),
  /** Absent when not set (RFC 7591 clients validate the fields they know as strings). */
  client_uri: z.string().optional(),
  logo_uri: z.string().optional(),
  backchannel_logout_uri: z.string().optional(),
  /** Always true when a back-channel logout URI is set: the logout token carries `sid`. */
  backchannel_logout_session_required: z.boolean().optional(),
  frontchannel_logout_uri: z.string().optional(),
  /** Always true when a front-channel logout URI is set: the frame's URL carries `iss` and `sid`. */
  frontchannel_logout_session_required: z.boolean().optional(),
  access_token_format: z.enum(["jwt", "opaque"]),
  skip_consent: z.boolean(),
  disabled: z.boolean(),
  organizationId: z.string().nullable(),
  userId: z.string().nullable(),
  /** Ours: who registered it (null: the server, or a person since deleted) and its last token. */
  createdBy: z.string().nullable().optional(),
  lastUsedAt: timestamp.nullable().optional(),
  /**
   * RFC 7592, in the registration's answer only: the bearer token that reads, replaces or deletes
   * this client at `registration_client_uri` (shown once; kept as a digest).
   */
  registration_access_token: z.string().optional(),
  registration_client_uri: z.string().optional(),
});

/**
 * What the consent page may show of any client (better-auth's /oauth2/public-client): its name,
 * home page and logo, never its settings or owner.
 */
export const oauthPublicClientReply = z.object({
  client_id: z.string(),
  client_name: z.string(),
  client_uri: z.string().nullable(),
  logo_uri: z.string().nullable(),
});

export const oauthClientIdBody = z.strictObject({ client_id: z.string().min(1).max(200) });
export const oauthClientIdQuery = oauthClientIdBody;
export const listOAuthClientsQuery = z.object({ organizationId: z.string().min(1).max(200).optional() });

/**
 * better-auth's /admin/oauth2/create-client: a client owned by no one (the admins manage it), so no
 * organization; `skip_consent` still only from the server.
 */
export const adminCreateOAuthClientBody = createOAuthClientBody.omit({ organizationId: true });
/** Ours: every client, newest first, one page at a time. */
export const adminListOAuthClientsQuery = z.object({
  limit: queryInt(200).optional(),
  offset: queryInt().optional(),
});
export const adminOAuthClientPageModel = z.object({
  clients: z.array(oauthClientModel),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});

/** What the consent page posts (better-auth's /oauth2/consent): the signed query it was sent to. */
export const oauthConsentBody = z.strictObject({
  accept: z.boolean(),
  /** A subset of the requested scopes; all of them when unset. */
  scope: scopeText.optional(),
  oauth_query: z.string().min(1).max(8000),
});

/**
 * The login page's "carry on" after the user signed in (or registered, or chose an account):
 * better-auth's /oauth2/continue. Its client plugin adds `oauth_query` to the body by itself.
 */
export const oauthContinueBody = z.strictObject({
  selected: z.boolean().optional(),
  created: z.boolean().optional(),
  postLogin: z.boolean().optional(),
  oauth_query: z.string().min(1).max(8000),
});

/** Where the browser goes next (better-auth's redirect answer). */
export const oauthRedirectReply = z.object({ redirect: z.literal(true), url: z.string() });

export const oauthConsentModel = z.object({
  id: z.string(),
  clientId: z.string(),
  clientName: z.string(),
  scopes: z.array(z.string()),
  createdAt: z.date(),
  updatedAt: z.date(),
});

export const oauthConsentIdBody = z.strictObject({ id: z.string().min(1).max(200) });

/**
 * Protocol requests carry loose string parameters (RFC 6749 ignores unknown ones); the service
 * checks them and answers RFC 6749 errors, which a schema's VALIDATION_ERROR would not.
 */
export const oauthParameters = z.record(z.string(), z.unknown());

/** RFC 6749 5.1 (with OpenID Connect's id_token). */
export const tokenReply = z.object({
  access_token: z.string(),
  token_type: z.literal("Bearer"),
  expires_in: z.number().int(),
  scope: z.string(),
  refresh_token: z.string().optional(),
  id_token: z.string().optional(),
});

/** RFC 7662 2.2: only `active` for a token that is not. */
export const introspectionReply = z.object({
  active: z.boolean(),
  scope: z.string().optional(),
  client_id: z.string().optional(),
  sub: z.string().optional(),
  exp: z.number().int().optional(),
  iat: z.number().int().optional(),
  iss: z.string().optional(),
  aud: z.union([z.string(), z.array(z.string())]).optional(),
  token_type: z.string().optional(),
  jti: z.string().optional(),
});

/** OpenID Connect Core 5.3.2: the claims the granted scopes release. */
export const userInfoReply = z.looseObject({ sub: z.string() });

/** RFC 8628 3.2. */
export const deviceAuthorizationReply = z.object({
  device_code: z.string(),
  user_code: z.string(),
  verification_uri: z.string(),
  verification_uri_complete: z.string(),
  expires_in: z.number().int(),
  interval: z.number().int(),
});

/** What the app's device page shows before the user approves: which client asks for what. */
export const deviceVerificationReply = z.object({
  user_code: z.string(),
  status: z.enum(["pending", "approved", "denied"]),
  client_id: z.string(),
  client_name: z.string(),
  scope: z.string(),
});
export const deviceUserCodeQuery = z.object({ user_code: z.string().min(1).max(40) });
export const deviceUserCodeBody = z.strictObject({ userCode: z.string().min(1).max(40) });

/** RFC 9728 2. */
export const protectedResourceReply = z.looseObject({
  resource: z.string(),
  authorization_servers: z.array(z.string()),
});

/** RFC 8414 / OpenID Connect Discovery 1.0. */
export const serverMetadataReply = z.looseObject({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  jwks_uri: z.string(),
});

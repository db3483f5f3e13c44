import { defineErrors } from "./define.js";

/**
 * The OAuth 2.1 and OpenID provider (docs/oauth-provider.md). Protocol endpoints (token,
 * introspection, revocation, userinfo) also answer RFC 6749's `error` and `error_description`
 * beside `code` and `message`: OAUTH_WIRE_ERRORS names the RFC's code for each.
 */
export const oauthProviderErrors = defineErrors({
  OAUTH_INVALID_REQUEST: { message: "The request is missing a parameter or has an invalid one", status: 400 },
  OAUTH_INVALID_CLIENT: { message: "Client authentication failed", status: 401 },
  OAUTH_INVALID_GRANT: {
    message: "The grant is invalid, expired, revoked, already used or issued to another client",
    status: 400,
  },
  OAUTH_UNAUTHORIZED_CLIENT: { message: "The client may not use this grant type", status: 400 },
  OAUTH_UNSUPPORTED_GRANT_TYPE: { message: "The grant type is not supported", status: 400 },
  OAUTH_INVALID_SCOPE: { message: "The requested scope is invalid or exceeds what was granted", status: 400 },
  OAUTH_INVALID_TARGET: { message: "The requested resource is not served by this server", status: 400 },
  OAUTH_INVALID_TOKEN: { message: "The access token is invalid, expired or revoked", status: 401 },
  OAUTH_CLIENT_NOT_FOUND: { message: "No such OAuth client", status: 404 },
  OAUTH_CLIENT_ACCESS_DENIED: {
    message: "Only the client's owner, or an owner of its organization, may manage it",
    status: 403,
  },
  OAUTH_INVALID_CLIENT_METADATA: { message: "The client's metadata is invalid", status: 400 },
  OAUTH_INVALID_REDIRECT_URI: {
    message: "A redirect URI must be an absolute https URL (http only for loopback), without a fragment",
    status: 400,
  },
  OAUTH_TRUSTED_CLIENT_SERVER_ONLY: {
    message: "Only the server (auth.api) may create a client that skips consent",
    status: 403,
  },
  OAUTH_AUTHORIZATION_PENDING: { message: "The user has not answered yet: poll again", status: 400 },
  OAUTH_SLOW_DOWN: { message: "Polling too fast: wait the interval (now 5 seconds longer)", status: 400 },
  OAUTH_EXPIRED_TOKEN: { message: "The device code has expired: start again", status: 400 },
  OAUTH_ACCESS_DENIED: { message: "The user denied the request", status: 400 },
  OAUTH_USER_CODE_INVALID: { message: "No pending request has this code, or it has expired", status: 400 },
  OAUTH_REGISTRATION_DISABLED: {
    message: "Dynamic client registration is switched off, or needs a signed-in user",
    status: 403,
  },
  OAUTH_QUERY_INVALID: {
    message: "The authorization request is missing, altered or expired: start again from the application",
    status: 400,
  },
});

type OAuthErrorCode = keyof typeof oauthProviderErrors;

/** RFC 6749 / 6750 / 8707 error names, sent as `error` on the protocol endpoints. */
export const OAUTH_WIRE_ERRORS: Partial<Record<OAuthErrorCode, string>> = {
  OAUTH_INVALID_REQUEST: "invalid_request",
  OAUTH_INVALID_CLIENT: "invalid_client",
  OAUTH_INVALID_GRANT: "invalid_grant",
  OAUTH_UNAUTHORIZED_CLIENT: "unauthorized_client",
  OAUTH_UNSUPPORTED_GRANT_TYPE: "unsupported_grant_type",
  OAUTH_INVALID_SCOPE: "invalid_scope",
  OAUTH_INVALID_TARGET: "invalid_target",
  OAUTH_INVALID_TOKEN: "invalid_token",
  OAUTH_QUERY_INVALID: "invalid_request",
  OAUTH_INVALID_CLIENT_METADATA: "invalid_client_metadata",
  OAUTH_INVALID_REDIRECT_URI: "invalid_redirect_uri",
  OAUTH_REGISTRATION_DISABLED: "access_denied",
  OAUTH_AUTHORIZATION_PENDING: "authorization_pending",
  OAUTH_SLOW_DOWN: "slow_down",
  OAUTH_EXPIRED_TOKEN: "expired_token",
  OAUTH_ACCESS_DENIED: "access_denied",
  OAUTH_USER_CODE_INVALID: "invalid_request",
};

import { z } from "zod";
import * as oauth from "../oauth-provider.js";
import { endpoint } from "./define.js";
import { successReply } from "./replies.js";

const FEATURE = { feature: "oauthProvider" } as const;
const SIGNED_IN = { session: "required", feature: "oauthProvider" } as const;
/**
 * The token, introspection and revocation endpoints take forms, as RFC 6749, 7662 and 7009 say
 * (JSON too). Their callers are servers, not browsers: no cookies, so no origin check applies.
 */
const PROTOCOL_FORM = { form: true, feature: "oauthProvider" } as const;
/**
 * Consenting gives a client tokens that outlive any session: a credential, which an admin's
 * impersonation session may not hand out (services/credential-guard.ts).
 */
const CONSENTING = { ...SIGNED_IN, credentials: "manage" } as const;
const CLIENT_ERRORS = ["OAUTH_CLIENT_NOT_FOUND", "OAUTH_CLIENT_ACCESS_DENIED"] as const;
/**
 * Every client, for the admin area: the oauthClient admin permission (services/admin-access.ts);
 * an impersonation session changes nothing (credential-guard.ts), as for any client change.
 */
const ADMIN_READ = { session: "required", feature: "oauthProviderAdmin" } as const;
const ADMIN_CHANGE = { ...ADMIN_READ, credentials: "manage" } as const;
const ADMIN_REFUSAL = "YOU_ARE_NOT_ALLOWED_TO_MANAGE_OAUTH_CLIENTS" as const;
/** RFC 7592: the registration access token is the caller, not a session. */
const CLIENT_CONFIGURATION = { feature: "oauthProvider" } as const;

/** The OAuth 2.1 authorization server and OpenID provider (docs/oauth-provider.md). */
export const oauthProviderEndpoints = {
  getOpenIdConfig: endpoint({
    method: "GET",
    path: "/.well-known/openid-configuration",
    summary: "OpenID Connect discovery: the provider's endpoints, scopes, algorithms and claims",
    reply: oauth.serverMetadataReply,
    policy: { ...FEATURE, rateLimit: "none" },
  }),
  getOAuthServerConfig: endpoint({
    method: "GET",
    path: "/.well-known/oauth-authorization-server",
    summary: "OAuth 2.0 authorization server metadata (RFC 8414)",
    reply: oauth.serverMetadataReply,
    policy: { ...FEATURE, rateLimit: "none" },
  }),
  getOAuthProtectedResource: endpoint({
    method: "GET",
    path: "/.well-known/oauth-protected-resource",
    summary: "Protected resource metadata (RFC 9728) for this server's own resource (UserInfo)",
    reply: oauth.protectedResourceReply,
    policy: { ...FEATURE, rateLimit: "none" },
  }),
  oauth2Authorize: endpoint({
    method: "GET",
    path: "/oauth2/authorize",
    summary: "Authorization request (code + PKCE): on to the login or consent page, or back with a code",
    query: oauth.oauthParameters,
    reply: null,
    answers: "redirect",
    policy: FEATURE,
  }),
  oauth2Consent: endpoint({
    method: "POST",
    path: "/oauth2/consent",
    summary: "The signed-in user accepts or denies a client's request; answers where the browser goes next",
    body: oauth.oauthConsentBody,
    reply: oauth.oauthRedirectReply,
    errors: ["OAUTH_QUERY_INVALID", "OAUTH_INVALID_REQUEST"],
    policy: CONSENTING,
  }),
  oauth2Continue: endpoint({
    method: "POST",
    path: "/oauth2/continue",
    summary: "After signing in on the login page: carry on with the authorization request it was handed",
    body: oauth.oauthContinueBody,
    reply: oauth.oauthRedirectReply,
    errors: ["OAUTH_QUERY_INVALID"],
    policy: CONSENTING,
  }),
  oauth2Token: endpoint({
    method: "POST",
    path: "/oauth2/token",
    summary: "Token endpoint: authorization_code (PKCE), refresh_token (rotated) and client_credentials",
    body: oauth.oauthParameters,
    reply: oauth.tokenReply,
    errors: [
      "OAUTH_INVALID_REQUEST",
      "OAUTH_INVALID_CLIENT",
      "OAUTH_INVALID_GRANT",
      "OAUTH_UNAUTHORIZED_CLIENT",
      "OAUTH_UNSUPPORTED_GRANT_TYPE",
      "OAUTH_INVALID_SCOPE",
      "OAUTH_INVALID_TARGET",
      "OAUTH_AUTHORIZATION_PENDING",
      "OAUTH_SLOW_DOWN",
      "OAUTH_EXPIRED_TOKEN",
      "OAUTH_ACCESS_DENIED",
    ],
    policy: PROTOCOL_FORM,
  }),
  deviceCode: endpoint({
    method: "POST",
    path: "/device/code",
    summary: "Device authorization request (RFC 8628): a device code to poll with and a user code to show",
    body: oauth.oauthParameters,
    reply: oauth.deviceAuthorizationReply,
    errors: [
      "OAUTH_INVALID_REQUEST",
      "OAUTH_INVALID_CLIENT",
      "OAUTH_UNAUTHORIZED_CLIENT",
      "OAUTH_INVALID_SCOPE",
      "OAUTH_INVALID_TARGET",
    ],
    policy: PROTOCOL_FORM,
  }),
  deviceVerify: endpoint({
    method: "GET",
    path: "/device",
    summary: "What a user code asks for (client and scopes), for the app's device page",
    query: oauth.deviceUserCodeQuery,
    reply: oauth.deviceVerificationReply,
    errors: ["OAUTH_USER_CODE_INVALID"],
    // User codes are short: looking them up is guessing them.
    policy: { ...FEATURE, rateLimit: "credential" },
  }),
  deviceApprove: endpoint({
    method: "POST",
    path: "/device/approve",
    summary: "The signed-in user approves a device's request (consent to its scopes)",
    body: oauth.deviceUserCodeBody,
    reply: successReply,
    errors: ["OAUTH_USER_CODE_INVALID"],
    policy: { ...CONSENTING, rateLimit: "credential" },
  }),
  deviceDeny: endpoint({
    method: "POST",
    path: "/device/deny",
    summary: "The signed-in user denies a device's request",
    body: oauth.deviceUserCodeBody,
    reply: successReply,
    errors: ["OAUTH_USER_CODE_INVALID"],
    policy: { ...SIGNED_IN, rateLimit: "credential" },
  }),
  oauth2Introspect: endpoint({
    method: "POST",
    path: "/oauth2/introspect",
    summary: "Token introspection (RFC 7662) for an authenticated client",
    body: oauth.oauthParameters,
    reply: oauth.introspectionReply,
    errors: ["OAUTH_INVALID_REQUEST", "OAUTH_INVALID_CLIENT"],
    policy: PROTOCOL_FORM,
  }),
  oauth2Revoke: endpoint({
    method: "POST",
    path: "/oauth2/revoke",
    summary: "Token revocation (RFC 7009): ends the token's whole grant",
    body: oauth.oauthParameters,
    reply: z.object({}),
    errors: ["OAUTH_INVALID_REQUEST", "OAUTH_INVALID_CLIENT"],
    policy: PROTOCOL_FORM,
  }),
  oauth2UserInfo: endpoint({
    method: "GET",
    path: "/oauth2/userinfo",
    summary: "OpenID Connect UserInfo for a bearer access token with the openid scope",
    reply: oauth.userInfoReply,
    errors: ["OAUTH_INVALID_TOKEN"],
    policy: FEATURE,
  }),
  oauth2EndSession: endpoint({
    method: "GET",
    path: "/oauth2/end-session",
    summary: "RP-initiated logout: signs the browser out and returns to a registered post-logout URI",
    query: oauth.oauthParameters,
    reply: null,
    answers: "redirect",
    policy: FEATURE,
  }),
  registerOAuthClient: endpoint({
    method: "POST",
    path: "/oauth2/register",
    summary: "Dynamic client registration (RFC 7591), when switched on; the secret is shown once",
    body: oauth.oauthParameters,
    reply: oauth.oauthClientModel,
    errors: ["OAUTH_REGISTRATION_DISABLED", "OAUTH_INVALID_REDIRECT_URI", "OAUTH_INVALID_CLIENT_METADATA"],
    // Registering mints credentials: the strict class keeps a script from minting many.
    policy: { ...FEATURE, rateLimit: "credential" },
  }),
  oauth2UserInfoPost: endpoint({
    method: "POST",
    path: "/oauth2/userinfo",
    summary: "UserInfo by POST (OpenID Connect Core 5.3.1), the bearer token in the Authorization header",
    body: oauth.oauthParameters,
    reply: oauth.userInfoReply,
    errors: ["OAUTH_INVALID_TOKEN"],
    policy: PROTOCOL_FORM,
  }),
  updateOAuthClient: endpoint({
    method: "POST",
    path: "/oauth2/update-client",
    summary: "Change a client's name, redirect URIs, scopes or grant types, or disable it",
    body: oauth.updateOAuthClientBody,
    reply: oauth.oauthClientModel,
    errors: [...CLIENT_ERRORS, "OAUTH_INVALID_REDIRECT_URI", "OAUTH_INVALID_CLIENT_METADATA"],
    policy: { ...SIGNED_IN, credentials: "manage" },
  }),
  createOAuthClient: endpoint({
    method: "POST",
    path: "/oauth2/create-client",
    summary: "Register a client for the caller or an organization they own; the secret is shown once",
    body: oauth.createOAuthClientBody,
    reply: oauth.oauthClientModel,
    errors: [
      "OAUTH_CLIENT_ACCESS_DENIED",
      "OAUTH_INVALID_REDIRECT_URI",
      "OAUTH_INVALID_CLIENT_METADATA",
      "OAUTH_TRUSTED_CLIENT_SERVER_ONLY",
    ],
    policy: { ...SIGNED_IN, credentials: "manage" },
  }),
  getOAuthClients: endpoint({
    method: "GET",
    path: "/oauth2/get-clients",
    summary: "The caller's own clients, or an organization's (its owners)",
    query: oauth.listOAuthClientsQuery,
    reply: z.array(oauth.oauthClientModel),
    errors: ["OAUTH_CLIENT_ACCESS_DENIED"],
    policy: SIGNED_IN,
  }),
  getOAuthClient: endpoint({
    method: "GET",
    path: "/oauth2/get-client",
    summary: "One client the caller manages",
    query: oauth.oauthClientIdQuery,
    reply: oauth.oauthClientModel,
    errors: CLIENT_ERRORS,
    policy: SIGNED_IN,
  }),
  getOAuthClientPublic: endpoint({
    method: "GET",
    path: "/oauth2/public-client",
    summary: "A client's name, home page and logo, for the consent and device pages",
    query: oauth.oauthClientIdQuery,
    reply: oauth.oauthPublicClientReply,
    errors: ["OAUTH_CLIENT_NOT_FOUND"],
    policy: SIGNED_IN,
  }),
  rotateClientSecret: endpoint({
    method: "POST",
    path: "/oauth2/client/rotate-secret",
    summary: "Replace a confidential client's secret; the new one is shown once",
    body: oauth.oauthClientIdBody,
    reply: oauth.oauthClientModel,
    errors: [...CLIENT_ERRORS, "OAUTH_INVALID_CLIENT_METADATA"],
    policy: { ...SIGNED_IN, credentials: "manage" },
  }),
  deleteOAuthClient: endpoint({
    method: "POST",
    path: "/oauth2/delete-client",
    summary: "Delete a client: its grants, tokens and consents end with it",
    body: oauth.oauthClientIdBody,
    reply: successReply,
    errors: CLIENT_ERRORS,
    policy: { ...SIGNED_IN, credentials: "manage" },
  }),
  getOAuthConsents: endpoint({
    method: "GET",
    path: "/oauth2/get-consents",
    summary: "The clients the caller has consented to, with the scopes",
    reply: z.array(oauth.oauthConsentModel),
    policy: SIGNED_IN,
  }),
  deleteOAuthConsent: endpoint({
    method: "POST",
    path: "/oauth2/delete-consent",
    summary: "Withdraw a consent: the client's grants for the caller end too",
    body: oauth.oauthConsentIdBody,
    reply: successReply,
    errors: ["OAUTH_CLIENT_NOT_FOUND"],
    policy: SIGNED_IN,
  }),
  adminCreateOAuthClient: endpoint({
    method: "POST",
    path: "/admin/oauth2/create-client",
    summary: "Admin: register a client owned by no one (the admins manage it); the secret is shown once",
    body: oauth.adminCreateOAuthClientBody,
    reply: oauth.oauthClientModel,
    errors: [
      ADMIN_REFUSAL,
      "OAUTH_INVALID_REDIRECT_URI",
      "OAUTH_INVALID_CLIENT_METADATA",
      "OAUTH_TRUSTED_CLIENT_SERVER_ONLY",
    ],
    policy: ADMIN_CHANGE,
  }),
  adminUpdateOAuthClient: endpoint({
    method: "POST",
    path: "/admin/oauth2/update-client",
    summary: "Admin: change or disable any client",
    body: oauth.updateOAuthClientBody,
    reply: oauth.oauthClientModel,
    errors: [ADMIN_REFUSAL, "OAUTH_CLIENT_NOT_FOUND", "OAUTH_INVALID_REDIRECT_URI", "OAUTH_INVALID_CLIENT_METADATA"],
    policy: ADMIN_CHANGE,
  }),
  adminListOAuthClients: endpoint({
    method: "GET",
    path: "/admin/oauth2/get-clients",
    summary: "Admin: every client, newest first, paged",
    query: oauth.adminListOAuthClientsQuery,
    reply: oauth.adminOAuthClientPageModel,
    errors: [ADMIN_REFUSAL],
    policy: ADMIN_READ,
  }),
  adminDeleteOAuthClient: endpoint({
    method: "POST",
    path: "/admin/oauth2/delete-client",
    summary: "Admin: delete any client; its grants, tokens and consents end with it",
    body: oauth.oauthClientIdBody,
    reply: successReply,
    errors: [ADMIN_REFUSAL, "OAUTH_CLIENT_NOT_FOUND"],
    policy: ADMIN_CHANGE,
  }),
  readRegisteredClient: endpoint({
    method: "GET",
    path: "/oauth2/register/:client_id",
    summary: "RFC 7592: a dynamically registered client reads its registration (Bearer registration access token)",
    reply: oauth.oauthClientModel,
    errors: ["OAUTH_INVALID_TOKEN"],
    policy: CLIENT_CONFIGURATION,
  }),
  replaceRegisteredClient: endpoint({
    method: "PUT",
    path: "/oauth2/register/:client_id",
    summary: "RFC 7592: a dynamically registered client replaces its metadata (Bearer registration access token)",
    body: oauth.oauthParameters,
    reply: oauth.oauthClientModel,
    errors: ["OAUTH_INVALID_TOKEN", "OAUTH_INVALID_REDIRECT_URI", "OAUTH_INVALID_CLIENT_METADATA"],
    policy: CLIENT_CONFIGURATION,
  }),
  deleteRegisteredClient: endpoint({
    method: "DELETE",
    path: "/oauth2/register/:client_id",
    summary: "RFC 7592: a dynamically registered client deletes itself (Bearer registration access token)",
    reply: null,
    answers: "no-content",
    errors: ["OAUTH_INVALID_TOKEN"],
    policy: CLIENT_CONFIGURATION,
  }),
};

import { type AuthContext, apiURL } from "../../context.js";
import { signingAlgorithmsInUse } from "../jwt.js";

/**
 * The issuer: the auth API's own URL (BASE_URL and base path), as better-auth's provider names it,
 * so discovery lives at `<issuer>/.well-known/openid-configuration` under the same handler.
 */
export function issuerOf(ctx: AuthContext): string {
  return apiURL(ctx, "");
}

/** Where the UserInfo endpoint lives: access tokens for the openid scope name it as an audience. */
export function userInfoURL(ctx: AuthContext): string {
  return apiURL(ctx, "/oauth2/userinfo");
}

/** RFC 9728: this server as a resource (its UserInfo), protected by itself. */
export function protectedResourceMetadata(ctx: AuthContext) {
  return {
    resource: issuerOf(ctx),
    authorization_servers: [issuerOf(ctx)],
    bearer_methods_supported: ["header"],
    scopes_supported: ctx.options.oauthProvider.scopes,
  };
}

/** OpenID Connect Discovery 1.0 and RFC 8414 in one document (the provider serves both). */
export function serverMetadata(ctx: AuthContext): Record<string, unknown> & {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
} {
  const { scopes, allowDynamicClientRegistration } = ctx.options.oauthProvider;
  return {
    issuer: issuerOf(ctx),
    authorization_endpoint: apiURL(ctx, "/oauth2/authorize"),
    token_endpoint: apiURL(ctx, "/oauth2/token"),
    userinfo_endpoint: userInfoURL(ctx),
    jwks_uri: apiURL(ctx, "/jwks"),
    introspection_endpoint: apiURL(ctx, "/oauth2/introspect"),
    revocation_endpoint: apiURL(ctx, "/oauth2/revoke"),
    end_session_endpoint: apiURL(ctx, "/oauth2/end-session"),
    ...(allowDynamicClientRegistration ? { registration_endpoint: apiURL(ctx, "/oauth2/register") } : {}),
    scopes_supported: scopes,
    response_types_supported: ["code"],
    response_modes_supported: ["query", "form_post"],
    // Discovery 1.0 section 3 defaults request_uri_parameter_supported to true: say no request objects.
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    device_authorization_endpoint: apiURL(ctx, "/device/code"),
    grant_types_supported: [
      "authorization_code",
      "refresh_token",
      "client_credentials",
      "urn:ietf:params:oauth:grant-type:device_code",
    ],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: signingAlgorithmsInUse(ctx),
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
    introspection_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    revocation_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    code_challenge_methods_supported: ["S256"],
    prompt_values_supported: ["none", "login", "consent", "create", "select_account"],
    claims_supported: [
      "sub",
      "iss",
      "aud",
      "exp",
      "iat",
      "auth_time",
      "nonce",
      "sid",
      "name",
      "picture",
      "email",
      "email_verified",
    ],
    authorization_response_iss_parameter_supported: true,
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
    frontchannel_logout_supported: true,
    frontchannel_logout_session_supported: true,
    ...(ctx.options.oauthProvider.clientIdMetadataDocuments ? { client_id_metadata_document_supported: true } : {}),
    resource_indicators_supported: true,
  };
}

import { defineErrors } from "./define.js";

/** Enterprise single sign-on (docs/sso.md); codes follow better-auth's SSO plugin where it has one. */
export const ssoErrors = defineErrors({
  SSO_PROVIDER_NOT_FOUND: { message: "No SSO provider found", status: 404 },
  SSO_PROVIDER_ID_TAKEN: { message: "SSO provider with this providerId already exists", status: 422 },
  SSO_INSUFFICIENT_ACCESS: {
    message: "Only the organization's owners and admins may manage its SSO providers",
    status: 403,
  },
  SSO_OWNER_REQUIRED: {
    message: "Only the organization's owners may change who asserts identity for a connection",
    status: 403,
  },
  NO_PENDING_CONNECTION_CHANGE: { message: "This connection has no change waiting to be confirmed", status: 404 },
  SSO_TEST_NOT_FOUND: { message: "No test sign-in result found (it is kept 10 minutes)", status: 404 },
  SSO_IDENTIFIER_REQUIRED: {
    message: "Give an email, domain, organizationSlug or providerId",
    status: 400,
  },
  SSO_ROLE_NOT_ALLOWED: {
    message: "A connection may not give the owner role: owners are made in the organization",
    status: 400,
  },
  SAML_CONFIG_INVALID: { message: "The SAML configuration is incomplete or invalid", status: 400 },
  OIDC_CONFIG_REQUIRED: { message: "oidcConfig or samlConfig is required", status: 400 },
  INVALID_ISSUER: { message: "The issuer must be an https URL", status: 400 },
  ISSUER_NOT_PUBLIC: {
    message: "The issuer resolves to a loopback or private address, which this server does not reach",
    status: 400,
  },
  DISCOVERY_FAILED: { message: "The issuer's OpenID Connect discovery document could not be read", status: 400 },
  DOMAIN_NOT_VERIFIED: { message: "Provider domain has not been verified", status: 401 },
  DOMAIN_VERIFIED: { message: "Domain has already been verified", status: 409 },
  DOMAIN_VERIFIED_ELSEWHERE: {
    message: "This domain is already verified for another SSO provider",
    status: 409,
  },
  NO_PENDING_VERIFICATION: { message: "No pending domain verification exists", status: 404 },
  DOMAIN_VERIFICATION_FAILED: {
    message: "Unable to verify domain ownership. Try again later",
    status: 502,
  },
  SSO_REQUIRED: {
    message: "Your organization requires single sign-on for this address",
    status: 403,
  },
});

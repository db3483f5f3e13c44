import { accountEndpoints, accountFlowEndpoints } from "./account.js";
import { adminEndpoints } from "./admin.js";
import { apiKeyEndpoints } from "./api-keys.js";
import type { Endpoint } from "./define.js";
import { oauthProviderEndpoints } from "./oauth-provider.js";
import { organizationEndpoints, teamEndpoints } from "./organization.js";
import { passkeyEndpoints } from "./passkeys.js";
import { passwordlessEndpoints } from "./passwordless.js";
import { scimEndpoints } from "./scim.js";
import { scimProtocolEndpoints } from "./scim-protocol.js";
import { securityActivityEndpoints } from "./security-activity.js";
import { serviceEndpoints } from "./service.js";
import { setupLinkEndpoints } from "./setup.js";
import { socialEndpoints } from "./social.js";
import { ssoEndpoints } from "./sso.js";
import { twoFactorEndpoints } from "./two-factor.js";

export type { AuditPolicy, Endpoint, Feature, HttpMethod, Policy, RateLimitClass, Refresh } from "./define.js";
export {
  accountEndpoints,
  accountFlowEndpoints,
  adminEndpoints,
  apiKeyEndpoints,
  oauthProviderEndpoints,
  organizationEndpoints,
  passkeyEndpoints,
  passwordlessEndpoints,
  scimEndpoints,
  scimProtocolEndpoints,
  securityActivityEndpoints,
  serviceEndpoints,
  setupLinkEndpoints,
  socialEndpoints,
  ssoEndpoints,
  teamEndpoints,
  twoFactorEndpoints,
};

/**
 * Every endpoint of the API, by area: the server routes these, the client calls them and the
 * OpenAPI document describes them. Nothing is served that is not listed here.
 */
export const endpointAreas = {
  service: serviceEndpoints,
  account: accountEndpoints,
  accountFlows: accountFlowEndpoints,
  social: socialEndpoints,
  organization: organizationEndpoints,
  teams: teamEndpoints,
  admin: adminEndpoints,
  twoFactor: twoFactorEndpoints,
  passwordless: passwordlessEndpoints,
  passkeys: passkeyEndpoints,
  scim: scimEndpoints,
  scimProtocol: scimProtocolEndpoints,
  sso: ssoEndpoints,
  securityActivity: securityActivityEndpoints,
  apiKeys: apiKeyEndpoints,
  oauthProvider: oauthProviderEndpoints,
  setupLinks: setupLinkEndpoints,
} as const;

export const allEndpoints: readonly Endpoint[] = Object.values(endpointAreas).flatMap((area) => Object.values(area));

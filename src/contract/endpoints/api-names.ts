import { accountEndpoints, accountFlowEndpoints } from "./account.js";
import { adminEndpoints } from "./admin.js";
import { apiKeyEndpoints } from "./api-keys.js";
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

/*
 * The endpoint table under the names `auth.api` gives each endpoint: the table's own key, renamed
 * where better-auth's server API names the same path otherwise (so code written for it reads the
 * same) or where two areas use one key (admin's update-user and has-permission).
 */
const { jwks: getJwks, token: getToken, errorPage: error, ...service } = serviceEndpoints;
const { resetPasswordLink: requestPasswordResetCallback, ...accountFlows } = accountFlowEndpoints;
const {
  callback: callbackOAuth,
  linkSocial: linkSocialAccount,
  listAccounts: listUserAccounts,
  ...social
} = socialEndpoints;
const {
  checkSlug: checkOrganizationSlug,
  inviteMember: createInvitation,
  // The admin table has calls of the same names (the whole trail).
  listAuditTrail: listOrganizationAuditTrail,
  exportAuditTrail: exportOrganizationAuditTrail,
  ...organization
} = organizationEndpoints;
const { listTeams: listOrganizationTeams, ...teams } = teamEndpoints;
const {
  updateUser: adminUpdateUser,
  hasPermission: userHasPermission,
  listUserAccounts: adminListUserAccounts,
  ...admin
} = adminEndpoints;
const {
  getTotpUri: getTOTPURI,
  verifyTotp: verifyTOTP,
  sendTwoFactorOtp: sendTwoFactorOTP,
  verifyTwoFactorOtp: verifyTwoFactorOTP,
  ...twoFactor
} = twoFactorEndpoints;
const {
  verifyMagicLink: magicLinkVerify,
  sendVerificationOtp: sendVerificationOTP,
  checkVerificationOtp: checkVerificationOTP,
  signInEmailOtp: signInEmailOTP,
  verifyEmailOtp: verifyEmailOTP,
  forgetPasswordEmailOtp: forgetPasswordEmailOTP,
  resetPasswordEmailOtp: resetPasswordEmailOTP,
  ...passwordless
} = passwordlessEndpoints;
const {
  generateRegisterOptions: generatePasskeyRegistrationOptions,
  verifyRegistration: verifyPasskeyRegistration,
  generateAuthenticateOptions: generatePasskeyAuthenticationOptions,
  verifyAuthentication: verifyPasskeyAuthentication,
  ...passkeys
} = passkeyEndpoints;

/** Every endpoint of the table by its `auth.api` name (docs/server-api.md lists them). */
export const apiEndpoints = {
  ...service,
  getJwks,
  getToken,
  error,
  ...accountEndpoints,
  ...accountFlows,
  requestPasswordResetCallback,
  ...social,
  callbackOAuth,
  linkSocialAccount,
  listUserAccounts,
  ...organization,
  checkOrganizationSlug,
  createInvitation,
  listOrganizationAuditTrail,
  exportOrganizationAuditTrail,
  ...teams,
  listOrganizationTeams,
  ...admin,
  adminUpdateUser,
  userHasPermission,
  adminListUserAccounts,
  ...twoFactor,
  getTOTPURI,
  verifyTOTP,
  sendTwoFactorOTP,
  verifyTwoFactorOTP,
  ...passwordless,
  magicLinkVerify,
  sendVerificationOTP,
  checkVerificationOTP,
  signInEmailOTP,
  verifyEmailOTP,
  forgetPasswordEmailOTP,
  resetPasswordEmailOTP,
  ...passkeys,
  generatePasskeyRegistrationOptions,
  verifyPasskeyRegistration,
  generatePasskeyAuthenticationOptions,
  verifyPasskeyAuthentication,
  ...scimEndpoints,
  ...scimProtocolEndpoints,
  ...ssoEndpoints,
  ...securityActivityEndpoints,
  ...apiKeyEndpoints,
  ...oauthProviderEndpoints,
  ...setupLinkEndpoints,
} as const;

export type ApiEndpoints = typeof apiEndpoints;
export type ApiName = keyof ApiEndpoints;

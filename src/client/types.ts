import type { z } from "zod";
import type { Sent } from "../contract/endpoints/define.js";
import type {
  accountEndpoints as account,
  adminEndpoints as admin,
  apiKeyEndpoints as apiKeys,
  Endpoint,
  accountFlowEndpoints as flows,
  oauthProviderEndpoints as oauth,
  organizationEndpoints as org,
  passkeyEndpoints as passkeys,
  passwordlessEndpoints as passwordless,
  scimEndpoints as scim,
  securityActivityEndpoints as securityActivity,
  setupLinkEndpoints as setupLinks,
  socialEndpoints as social,
  ssoEndpoints as sso,
  teamEndpoints as teams,
  twoFactorEndpoints as twoFactor,
} from "../contract/endpoints/index.js";
import type { userModel } from "../contract/models.js";
import type { idTokenInput, signInSocialBody } from "../contract/social.js";
import type { FetchOptions, Result } from "./request.js";

/**
 * The client's calls, each typed from its entry in the endpoint table: the argument is the body's
 * input (plus `query` for the query string), the reply is the reply schema's output (Dates revived).
 * Each call is `fn(arg?, fetchOptions?)`. Whether the argument may be left out is written here.
 */
type Reply<E extends Endpoint> = E["reply"] extends z.ZodType ? z.output<E["reply"]> : never;
type Arg<E extends Endpoint> = (E["body"] extends z.ZodType ? Sent<E["body"]> : unknown) &
  (E["query"] extends z.ZodType ? { query: Sent<E["query"]> } : unknown);
type Call<E extends Endpoint> = (arg: Arg<E>, options?: FetchOptions) => Promise<Result<Reply<E>>>;
type OptionalCall<E extends Endpoint> = (arg?: Partial<Arg<E>>, options?: FetchOptions) => Promise<Result<Reply<E>>>;

export interface Status {
  status: boolean;
  message?: string;
}
export type SignInReply = Reply<typeof account.signInEmail>;
export type TokenAndUser = Reply<typeof account.signUpEmail>;
export interface RedirectReply {
  url: string;
  redirect: boolean;
}
export type IdTokenInput = z.input<typeof idTokenInput>;
export type SocialSignInBody = z.input<typeof signInSocialBody>;
export type User = z.output<typeof userModel>;

export interface AccountCalls {
  signUp: { email: Call<typeof account.signUpEmail> };
  signIn: {
    email: Call<typeof account.signInEmail>;
    social: Call<typeof social.signInSocial>;
    anonymous: OptionalCall<typeof social.signInAnonymous>;
    magicLink: Call<typeof passwordless.signInMagicLink>;
    emailOtp: Call<typeof passwordless.signInEmailOtp>;
    /** Single sign-on by work email, organization slug or provider id (better-auth's ssoClient). */
    sso: Call<typeof sso.signInSSO>;
  };
  magicLink: { verify: Call<typeof passwordless.verifyMagicLink> };
  emailOtp: {
    sendVerificationOtp: Call<typeof passwordless.sendVerificationOtp>;
    checkVerificationOtp: Call<typeof passwordless.checkVerificationOtp>;
    verifyEmail: Call<typeof passwordless.verifyEmailOtp>;
    resetPassword: Call<typeof passwordless.resetPasswordEmailOtp>;
  };
  forgetPassword: { emailOtp: Call<typeof passwordless.forgetPasswordEmailOtp> };
  passkey: PasskeyCalls;
  signOut: OptionalCall<typeof account.signOut>;
  getSession: OptionalCall<typeof account.getSession>;
  updateUser: Call<typeof account.updateUser>;
  /** Additional session fields (input:true only); the active organization and team are not among them. */
  updateSession: Call<typeof account.updateSession>;
  changeEmail: Call<typeof flows.changeEmail>;
  changePassword: Call<typeof account.changePassword>;
  /** Checks the caller's password; it also counts as a fresh proof of identity for adding a passkey. */
  verifyPassword: Call<typeof account.verifyPassword>;
  deleteUser: OptionalCall<typeof flows.deleteUser>;
  sendVerificationEmail: Call<typeof flows.sendVerificationEmail>;
  verifyEmail: Call<typeof flows.verifyEmail>;
  requestPasswordReset: Call<typeof flows.requestPasswordReset>;
  resetPassword: Call<typeof flows.resetPassword>;
  listSessions: OptionalCall<typeof account.listSessions>;
  revokeSession: Call<typeof account.revokeSession>;
  revokeSessions: OptionalCall<typeof account.revokeSessions>;
  revokeOtherSessions: OptionalCall<typeof account.revokeOtherSessions>;
  listAccounts: OptionalCall<typeof social.listAccounts>;
  linkSocial: Call<typeof social.linkSocial>;
  unlinkAccount: Call<typeof social.unlinkAccount>;
  getAccessToken: Call<typeof social.getAccessToken>;
  deleteAnonymousUser: OptionalCall<typeof social.deleteAnonymousUser>;
  oneTap: { callback: Call<typeof social.oneTapCallback> };
  twoFactor: TwoFactorCalls;
  /** An organization's SSO connections (`/sso/...`, owners and admins). */
  sso: SsoCalls;
  /** What the holder of a setup link calls (`/setup/...`; docs/sso.md, "Let the customer set it up"). */
  setup: SetupCalls;
  /** Recent sign-ins and signed-in devices (securityActivity). */
  securityActivity: OptionalCall<typeof securityActivity.securityActivity>;
  /** The new-device mail's "Not you?" token: signs out everywhere, answers a password-reset token. */
  secureAccount: Call<typeof securityActivity.secureAccount>;
}

/** Passkeys (`/passkey/...`): the WebAuthn ceremony itself runs in the browser (navigator.credentials; src/react/webauthn.ts). */
export interface PasskeyCalls {
  generateRegisterOptions: OptionalCall<typeof passkeys.generateRegisterOptions>;
  verifyRegistration: Call<typeof passkeys.verifyRegistration>;
  generateAuthenticateOptions: OptionalCall<typeof passkeys.generateAuthenticateOptions>;
  verifyAuthentication: Call<typeof passkeys.verifyAuthentication>;
  listUserPasskeys: OptionalCall<typeof passkeys.listPasskeys>;
  updatePasskey: Call<typeof passkeys.updatePasskey>;
  deletePasskey: Call<typeof passkeys.deletePasskey>;
}

/** SSO connections: better-auth's ssoClient calls, plus testConnection. */
export interface SsoCalls {
  register: Call<typeof sso.registerSSOProvider>;
  providers: OptionalCall<typeof sso.listSSOProviders>;
  getProvider: Call<typeof sso.getSSOProvider>;
  updateProvider: Call<typeof sso.updateSSOProvider>;
  deleteProvider: Call<typeof sso.deleteSSOProvider>;
  requestDomainVerification: Call<typeof sso.requestDomainVerification>;
  verifyDomain: Call<typeof sso.verifyDomain>;
  testConnection: Call<typeof sso.testSSOConnection>;
  /** Starts a test sign-in; `.result({ query: { testId } })` reads it (GET /sso/test-sign-in/result). */
  testSignIn: Call<typeof sso.startSSOTestSignIn> & { result: Call<typeof sso.getSSOTestResult> };
}

/** A setup link's holder: open it once, then the steps its scopes grant, for its organization. */
export interface SetupCalls {
  open: Call<typeof setupLinks.openSetupLink>;
  grant: OptionalCall<typeof setupLinks.setupLinkGrant>;
  close: OptionalCall<typeof setupLinks.closeSetupLink>;
  sso: {
    providers: OptionalCall<typeof setupLinks.setupListSSOProviders>;
    register: Call<typeof setupLinks.setupRegisterSSOProvider>;
    updateProvider: Call<typeof setupLinks.setupUpdateSSOProvider>;
    testConnection: Call<typeof setupLinks.setupTestSSOConnection>;
    testSignIn: Call<typeof setupLinks.setupStartSSOTestSignIn> & {
      result: Call<typeof setupLinks.setupGetSSOTestResult>;
    };
    requestDomainVerification: Call<typeof setupLinks.setupRequestDomainVerification>;
    verifyDomain: Call<typeof setupLinks.setupVerifyDomain>;
  };
  scim: {
    connections: OptionalCall<typeof setupLinks.setupListSCIMConnections>;
    connectionHealth: Call<typeof setupLinks.setupGetSCIMConnectionHealth>;
    generateToken: Call<typeof setupLinks.setupGenerateSCIMToken>;
  };
  auditStream: {
    create: Call<typeof setupLinks.setupCreateAuditStream>;
    list: OptionalCall<typeof setupLinks.setupListAuditStreams>;
    test: Call<typeof setupLinks.setupTestAuditStream>;
  };
}

/** Second factors (`/two-factor/...`, better-auth's twoFactorClient calls). */
export interface TwoFactorCalls {
  enable: Call<typeof twoFactor.enableTwoFactor>;
  getTotpUri: Call<typeof twoFactor.getTotpUri>;
  verifyTotp: Call<typeof twoFactor.verifyTotp>;
  disable: Call<typeof twoFactor.disableTwoFactor>;
  generateBackupCodes: Call<typeof twoFactor.generateBackupCodes>;
  verifyBackupCode: Call<typeof twoFactor.verifyBackupCode>;
  sendOtp: OptionalCall<typeof twoFactor.sendTwoFactorOtp>;
  verifyOtp: Call<typeof twoFactor.verifyTwoFactorOtp>;
}

/** Organization calls (better-auth's organization client). */
export interface OrganizationCalls {
  create: Call<typeof org.createOrganization>;
  checkSlug: Call<typeof org.checkSlug>;
  update: Call<typeof org.updateOrganization>;
  delete: Call<typeof org.deleteOrganization>;
  list: OptionalCall<typeof org.listOrganizations>;
  /** The organization's audit trail, for its owners. */
  listAuditTrail: Call<typeof org.listAuditTrail>;
  /** The organization alone, without members (by id or slug, else the active one). */
  getOrganization: OptionalCall<typeof org.getOrganization>;
  getFullOrganization: OptionalCall<typeof org.getFullOrganization>;
  setActive: Call<typeof org.setActiveOrganization>;
  inviteMember: Call<typeof org.inviteMember>;
  acceptInvitation: Call<typeof org.acceptInvitation>;
  rejectInvitation: Call<typeof org.rejectInvitation>;
  cancelInvitation: Call<typeof org.cancelInvitation>;
  getInvitation: Call<typeof org.getInvitation>;
  /** Signed out too: what the invitation link shows before the invitee has an account. */
  invitationPreview: Call<typeof org.invitationPreview>;
  listInvitations: OptionalCall<typeof org.listInvitations>;
  listUserInvitations: OptionalCall<typeof org.listUserInvitations>;
  removeMember: Call<typeof org.removeMember>;
  updateMemberRole: Call<typeof org.updateMemberRole>;
  /** Hands the caller's owner role to another member (by memberId or userId); the caller becomes an admin. */
  transferOwnership: Call<typeof org.transferOwnership>;
  getActiveMember: OptionalCall<typeof org.getActiveMember>;
  getActiveMemberRole: OptionalCall<typeof org.getActiveMemberRole>;
  leave: Call<typeof org.leaveOrganization>;
  listMembers: OptionalCall<typeof org.listMembers>;
  hasPermission: Call<typeof org.hasPermission>;
  createTeam: Call<typeof teams.createTeam>;
  updateTeam: Call<typeof teams.updateTeam>;
  removeTeam: Call<typeof teams.removeTeam>;
  listTeams: OptionalCall<typeof teams.listTeams>;
  setActiveTeam: Call<typeof teams.setActiveTeam>;
  listUserTeams: OptionalCall<typeof teams.listUserTeams>;
  listTeamMembers: OptionalCall<typeof teams.listTeamMembers>;
  addTeamMember: Call<typeof teams.addTeamMember>;
  removeTeamMember: Call<typeof teams.removeTeamMember>;
  /** Sets (or with null clears) a member's role within a team (team roles). */
  updateTeamMemberRole: Call<typeof teams.updateTeamMemberRole>;
  /** The organization's policy and how the caller's session stands with it (docs/organization-policy.md). */
  getPolicy: OptionalCall<typeof org.getPolicy>;
  /** Changes the policy (owners); only the fields sent change. */
  updatePolicy: Call<typeof org.updatePolicy>;
  /** The organization's own webhooks (owners; docs/webhooks.md): the secret is in create's and rotate's reply only. */
  createWebhook: Call<typeof org.createWebhook>;
  listWebhooks: OptionalCall<typeof org.listWebhooks>;
  updateWebhook: Call<typeof org.updateWebhook>;
  rotateWebhookSecret: Call<typeof org.rotateWebhookSecret>;
  deleteWebhook: Call<typeof org.deleteWebhook>;
  /** One signed `webhook.test` delivery to the webhook, to check its receiver. */
  testWebhook: Call<typeof org.testWebhook>;
  /** Setup links (owners; docs/sso.md, "Let the customer set it up"): the token is in create's reply only. */
  createSetupLink: Call<typeof setupLinks.createSetupLink>;
  listSetupLinks: OptionalCall<typeof setupLinks.listSetupLinks>;
  revokeSetupLink: Call<typeof setupLinks.revokeSetupLink>;
}

/** An organization's SCIM connections (`/scim/...`, owners only; docs/scim.md). */
export interface ScimCalls {
  /** Creates or rotates a connection; its token is in the reply only. */
  generateToken: Call<typeof scim.generateSCIMToken>;
  listProviderConnections: OptionalCall<typeof scim.listSCIMProviderConnections>;
  getProviderConnection: Call<typeof scim.getSCIMProviderConnection>;
  /** Turns linkExistingMembers on or off; the token stays. */
  updateProviderConnection: Call<typeof scim.updateSCIMProviderConnection>;
  deleteProviderConnection: Call<typeof scim.deleteSCIMProviderConnection>;
  /** Its last call, what it provisioned, its latest refused calls. */
  connectionHealth: Call<typeof scim.getSCIMConnectionHealth>;
  /** The people the connection provisioned. */
  listUsers: Call<typeof scim.listSCIMUsers>;
  listGroups: Call<typeof scim.listSCIMGroups>;
  updateGroupMapping: Call<typeof scim.updateSCIMGroupMapping>;
}

/** API keys (`/api-key/...`, better-auth's apiKeyClient calls; docs/api-keys.md). */
export interface ApiKeyCalls {
  /** The key itself is in this reply only. */
  create: Call<typeof apiKeys.createApiKey>;
  get: Call<typeof apiKeys.getApiKey>;
  /** The caller's own keys, or `{ query: { organizationId } }`'s. */
  list: OptionalCall<typeof apiKeys.listApiKeys>;
  update: Call<typeof apiKeys.updateApiKey>;
  /** New text for the key, the old text valid for a grace period (ours). */
  rotate: Call<typeof apiKeys.rotateApiKey>;
  delete: Call<typeof apiKeys.deleteApiKey>;
}
export type ApiKeyEntry = Reply<typeof apiKeys.getApiKey>;

/** The OAuth provider's calls for the app's pages (`/oauth2/...`; docs/oauth-provider.md). */
export interface OAuth2Calls {
  /** The consent page's answer; replies `{ redirect: true, url }`, which the client follows. */
  consent: Call<typeof oauth.oauth2Consent>;
  /** The login page's "carry on" once signed in; replies `{ redirect: true, url }`, followed too. */
  continue: Call<typeof oauth.oauth2Continue>;
  publicClient: Call<typeof oauth.getOAuthClientPublic>;
  getConsents: OptionalCall<typeof oauth.getOAuthConsents>;
  deleteConsent: Call<typeof oauth.deleteOAuthConsent>;
  /** The caller's own clients, or `{ query: { organizationId } }`'s. */
  getClients: OptionalCall<typeof oauth.getOAuthClients>;
  getClient: Call<typeof oauth.getOAuthClient>;
  /** The secret is in this reply only. */
  createClient: Call<typeof oauth.createOAuthClient>;
  updateClient: Call<typeof oauth.updateOAuthClient>;
  deleteClient: Call<typeof oauth.deleteOAuthClient>;
  client: { rotateSecret: Call<typeof oauth.rotateClientSecret> };
}
export type OAuthClientEntry = Reply<typeof oauth.getOAuthClient>;
export type OAuthConsentEntry = Reply<typeof oauth.getOAuthConsents>[number];
export type OAuthPublicClient = Reply<typeof oauth.getOAuthClientPublic>;

/** The device page's calls (RFC 8628): `device({ query: { user_code } })` reads what a code asks for. */
export type DeviceCalls = Call<typeof oauth.deviceVerify> & {
  approve: Call<typeof oauth.deviceApprove>;
  deny: Call<typeof oauth.deviceDeny>;
};
export type DeviceRequest = Reply<typeof oauth.deviceVerify>;

/** get-active-member's answer: the membership, and how the session stands with the organization's policy. */
export type ActiveMember = Reply<typeof org.getActiveMember>;

/** Administration calls (`/admin/...`). */
export interface AdminCalls {
  createUser: Call<typeof admin.createUser>;
  listUsers: OptionalCall<typeof admin.listUsers>;
  getUser: Call<typeof admin.getUser>;
  updateUser: Call<typeof admin.updateUser>;
  setRole: Call<typeof admin.setRole>;
  banUser: Call<typeof admin.banUser>;
  unbanUser: Call<typeof admin.unbanUser>;
  removeUser: Call<typeof admin.removeUser>;
  setUserPassword: Call<typeof admin.setUserPassword>;
  listUserSessions: Call<typeof admin.listUserSessions>;
  revokeUserSession: Call<typeof admin.revokeUserSession>;
  revokeUserSessions: Call<typeof admin.revokeUserSessions>;
  impersonateUser: Call<typeof admin.impersonateUser>;
  stopImpersonating: OptionalCall<typeof admin.stopImpersonating>;
  hasPermission: Call<typeof admin.hasPermission>;
  listAuditLog: OptionalCall<typeof admin.listAuditLog>;
  /** The security audit trail (docs/audit.md); export-audit-trail answers a file, fetched directly. */
  listAuditTrail: OptionalCall<typeof admin.listAuditTrail>;
  verifyAuditTrail: OptionalCall<typeof admin.verifyAuditTrail>;
  listUserMemberships: Call<typeof admin.listUserMemberships>;
  listUserAccounts: Call<typeof admin.listUserAccounts>;
  /** Every OAuth client (`/admin/oauth2/...`; docs/oauth-provider.md, "Admin-managed clients"). */
  oauth2: {
    createClient: Call<typeof oauth.adminCreateOAuthClient>;
    updateClient: Call<typeof oauth.adminUpdateOAuthClient>;
    getClients: OptionalCall<typeof oauth.adminListOAuthClients>;
    deleteClient: Call<typeof oauth.adminDeleteOAuthClient>;
  };
}
export type AdminOAuthClientPage = Reply<typeof oauth.adminListOAuthClients>;

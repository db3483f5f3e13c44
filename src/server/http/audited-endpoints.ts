import type { AuditAction } from "../../contract/audit.js";
import {
  accountEndpoints,
  accountFlowEndpoints,
  adminEndpoints,
  apiKeyEndpoints,
  type Endpoint,
  oauthProviderEndpoints,
  organizationEndpoints,
  passkeyEndpoints,
  passwordlessEndpoints,
  scimEndpoints,
  scimProtocolEndpoints,
  securityActivityEndpoints,
  setupLinkEndpoints,
  socialEndpoints,
  ssoEndpoints,
  teamEndpoints,
  twoFactorEndpoints,
} from "../../contract/endpoints/index.js";

/**
 * What an endpoint's audit entry says: its action, the sign-in method or factor it is about, and
 * `whenChanged` for a flow whose refusals are redirects rather than errors (an entry only when the
 * change is made). Endpoints not listed here are not audited (reads, probes, sending a link).
 */
export interface AuditDeclaration {
  action: AuditAction;
  details?: { method?: string; factor?: string };
  whenChanged?: boolean;
}

const a = accountEndpoints;
const f = accountFlowEndpoints;
const o = organizationEndpoints;
const t = teamEndpoints;
const m = adminEndpoints;
const s = socialEndpoints;
const p = passkeyEndpoints;
const w = passwordlessEndpoints;
const z = twoFactorEndpoints;
const sso = ssoEndpoints;
const scim = scimEndpoints;
const directory = scimProtocolEndpoints;
const op = oauthProviderEndpoints;
const setup = setupLinkEndpoints;

const signIn = (method: string, whenChanged = false): AuditDeclaration => ({
  action: "user.sign_in",
  details: { method },
  whenChanged,
});
const factor = (name: string): AuditDeclaration => ({ action: "user.two_factor_verified", details: { factor: name } });

/** The one table of audited endpoints (docs/audit.md lists the actions). */
const declarations: [Endpoint, AuditDeclaration][] = [
  [a.signUpEmail, { action: "user.sign_up", details: { method: "email" } }],
  [a.signInEmail, signIn("email")],
  [a.signOut, { action: "user.sign_out" }],
  [a.updateUser, { action: "user.updated" }],
  [a.revokeSession, { action: "session.revoked" }],
  [a.revokeSessions, { action: "session.revoked_all" }],
  [a.revokeOtherSessions, { action: "session.revoked_others" }],
  [a.changePassword, { action: "user.password_changed" }],
  [f.changeEmail, { action: "user.email_change_requested" }],
  [f.requestPasswordReset, { action: "user.password_reset_requested" }],
  [f.forgetPassword, { action: "user.password_reset_requested" }],
  [f.resetPassword, { action: "user.password_reset" }],
  [f.verifyEmail, { action: "user.email_verified", whenChanged: true }],
  [f.confirmEmailVerification, { action: "user.email_verified" }],
  [f.deleteUser, { action: "user.deleted", whenChanged: true }],
  [f.deleteUserCallback, { action: "user.deleted", whenChanged: true }],
  [s.callback, signIn("social", true)],
  [s.callbackFormPost, signIn("social", true)],
  [s.unlinkAccount, { action: "user.social_unlinked" }],
  [s.signInAnonymous, signIn("anonymous")],
  [s.deleteAnonymousUser, { action: "user.deleted" }],
  [s.oneTapCallback, signIn("one-tap")],
  [w.verifyMagicLink, signIn("magic-link", true)],
  [w.confirmMagicLink, signIn("magic-link")],
  [w.signInEmailOtp, signIn("email-otp")],
  [w.verifyEmailOtp, { action: "user.email_verified", details: { method: "email-otp" } }],
  [w.forgetPasswordEmailOtp, { action: "user.password_reset_requested", details: { method: "email-otp" } }],
  [w.resetPasswordEmailOtp, { action: "user.password_reset", details: { method: "email-otp" } }],
  [p.verifyRegistration, { action: "user.passkey_added" }],
  [p.verifyAuthentication, signIn("passkey")],
  [p.deletePasskey, { action: "user.passkey_removed" }],
  [z.enableTwoFactor, { action: "user.two_factor_enabled" }],
  [z.disableTwoFactor, { action: "user.two_factor_disabled" }],
  [z.generateBackupCodes, { action: "user.backup_codes_generated" }],
  [z.verifyTotp, factor("totp")],
  [z.verifyBackupCode, factor("backup-code")],
  [z.verifyTwoFactorOtp, factor("otp")],
  [o.createOrganization, { action: "organization.created" }],
  [o.updateOrganization, { action: "organization.updated" }],
  [o.deleteOrganization, { action: "organization.deleted" }],
  [o.inviteMember, { action: "organization.invitation_created" }],
  [o.acceptInvitation, { action: "organization.invitation_accepted" }],
  [o.rejectInvitation, { action: "organization.invitation_rejected" }],
  [o.cancelInvitation, { action: "organization.invitation_canceled" }],
  [o.removeMember, { action: "organization.member_removed" }],
  [o.updateMemberRole, { action: "organization.member_role_updated" }],
  [o.transferOwnership, { action: "organization.ownership_transferred" }],
  [o.leaveOrganization, { action: "organization.member_left" }],
  [o.createWebhook, { action: "organization.webhook_created" }],
  [o.updateWebhook, { action: "organization.webhook_updated" }],
  [o.deleteWebhook, { action: "organization.webhook_deleted" }],
  [o.rotateWebhookSecret, { action: "organization.webhook_secret_rotated" }],
  [sso.registerSSOProvider, { action: "organization.sso_connection_created" }],
  [sso.updateSSOProvider, { action: "organization.sso_connection_updated" }],
  [sso.confirmSSOProviderChange, { action: "organization.sso_connection_updated" }],
  [sso.cancelSSOProviderChange, { action: "organization.sso_connection_updated" }],
  [sso.deleteSSOProvider, { action: "organization.sso_connection_deleted" }],
  [sso.verifyDomain, { action: "organization.sso_domain_verified" }],
  [sso.startSSOTestSignIn, { action: "organization.sso_connection_tested" }],
  [sso.callbackSSO, signIn("sso", true)],
  [sso.callbackSSOSAML, signIn("sso", true)],
  [sso.acsEndpoint, signIn("sso", true)],
  [scim.generateSCIMToken, { action: "organization.scim_token_generated" }],
  [scim.updateSCIMProviderConnection, { action: "organization.scim_connection_updated" }],
  [scim.deleteSCIMProviderConnection, { action: "organization.scim_connection_deleted" }],
  [scim.updateSCIMGroupMapping, { action: "organization.scim_group_mapping_updated" }],
  [directory.createSCIMUser, { action: "directory.user_provisioned" }],
  [directory.updateSCIMUser, { action: "directory.user_updated" }],
  [directory.patchSCIMUser, { action: "directory.user_updated" }],
  [directory.deleteSCIMUser, { action: "directory.user_deprovisioned" }],
  [directory.createSCIMGroup, { action: "directory.group_created" }],
  [directory.updateSCIMGroup, { action: "directory.group_updated" }],
  [directory.patchSCIMGroup, { action: "directory.group_updated" }],
  [directory.deleteSCIMGroup, { action: "directory.group_deleted" }],
  [setup.createSetupLink, { action: "organization.setup_link_created" }],
  [setup.revokeSetupLink, { action: "organization.setup_link_revoked" }],
  [setup.openSetupLink, { action: "organization.setup_link_opened" }],
  // What a link's holder does is audited as the owners' own calls are, its actor the link.
  [setup.setupRegisterSSOProvider, { action: "organization.sso_connection_created" }],
  [setup.setupUpdateSSOProvider, { action: "organization.sso_connection_updated" }],
  [setup.setupStartSSOTestSignIn, { action: "organization.sso_connection_tested" }],
  [setup.setupVerifyDomain, { action: "organization.sso_domain_verified" }],
  [setup.setupGenerateSCIMToken, { action: "organization.scim_token_generated" }],
  [setup.setupCreateAuditStream, { action: "organization.webhook_created" }],
  [t.createTeam, { action: "organization.team_created" }],
  [t.updateTeam, { action: "organization.team_updated" }],
  [t.removeTeam, { action: "organization.team_removed" }],
  [t.addTeamMember, { action: "organization.team_member_added" }],
  [t.removeTeamMember, { action: "organization.team_member_removed" }],
  [m.createUser, { action: "admin.user_created" }],
  [m.updateUser, { action: "admin.user_updated" }],
  [m.setRole, { action: "admin.role_set" }],
  [m.banUser, { action: "admin.user_banned" }],
  [m.unbanUser, { action: "admin.user_unbanned" }],
  [m.removeUser, { action: "admin.user_removed" }],
  [m.setUserPassword, { action: "admin.password_set" }],
  [m.revokeUserSession, { action: "admin.session_revoked" }],
  [m.revokeUserSessions, { action: "admin.sessions_revoked" }],
  [m.impersonateUser, { action: "admin.impersonation_started" }],
  [m.stopImpersonating, { action: "admin.impersonation_stopped" }],
  [apiKeyEndpoints.createApiKey, { action: "api_key.created" }],
  [apiKeyEndpoints.updateApiKey, { action: "api_key.updated" }],
  [apiKeyEndpoints.rotateApiKey, { action: "api_key.rotated" }],
  [apiKeyEndpoints.deleteApiKey, { action: "api_key.revoked" }],
  [op.oauth2EndSession, { action: "user.sign_out", details: { method: "oauth2-end-session" }, whenChanged: true }],
  [op.createOAuthClient, { action: "oauth.client_created" }],
  [op.updateOAuthClient, { action: "oauth.client_updated" }],
  [op.rotateClientSecret, { action: "oauth.client_secret_rotated" }],
  [op.deleteOAuthClient, { action: "oauth.client_deleted" }],
  [op.adminCreateOAuthClient, { action: "oauth.client_created" }],
  [op.adminUpdateOAuthClient, { action: "oauth.client_updated" }],
  [op.adminDeleteOAuthClient, { action: "oauth.client_deleted" }],
  [op.replaceRegisteredClient, { action: "oauth.client_updated" }],
  [op.deleteRegisteredClient, { action: "oauth.client_deleted" }],
  [op.oauth2Consent, { action: "oauth.consent_granted", whenChanged: true }],
  [op.deviceApprove, { action: "oauth.consent_granted", details: { method: "device" } }],
  [op.deleteOAuthConsent, { action: "oauth.consent_revoked" }],
  // Every issue (code exchange, refresh, client credentials) and every refusal, replays included.
  [op.oauth2Token, { action: "oauth.token_issued" }],
  [op.oauth2Revoke, { action: "oauth.token_revoked" }],
  [securityActivityEndpoints.secureAccount, { action: "session.revoked_all", details: { method: "secure-account" } }],
];

const byEndpoint = new Map<Endpoint, AuditDeclaration>(declarations);

/** The endpoint's audit declaration, or undefined when it is not audited. */
export function auditDeclarationOf(endpoint: Endpoint): AuditDeclaration | undefined {
  return byEndpoint.get(endpoint);
}

/** Admin endpoints act as an admin. */
export const isAdminEndpoint = (endpoint: Endpoint): boolean => endpoint.path.startsWith("/admin/");

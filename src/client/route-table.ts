// Written by src/client/route-table.test.ts from the endpoint table (src/contract/endpoints); do not edit.
import type { Refresh } from "../contract/endpoints/define.js";

export interface Route {
  readonly methods: readonly ("GET" | "POST")[];
  readonly refreshes: readonly Refresh[];
}

export const ROUTES: Readonly<Record<string, Route>> = {
  "/.well-known/oauth-authorization-server": {
    methods: ["GET"],
    refreshes: [],
  },
  "/.well-known/oauth-protected-resource": {
    methods: ["GET"],
    refreshes: [],
  },
  "/.well-known/openid-configuration": {
    methods: ["GET"],
    refreshes: [],
  },
  "/account-info": {
    methods: ["GET", "POST"],
    refreshes: [],
  },
  "/admin/ban-user": {
    methods: ["POST"],
    refreshes: [],
  },
  "/admin/create-user": {
    methods: ["POST"],
    refreshes: [],
  },
  "/admin/export-audit-trail": {
    methods: ["GET"],
    refreshes: [],
  },
  "/admin/get-user": {
    methods: ["GET"],
    refreshes: [],
  },
  "/admin/has-permission": {
    methods: ["POST"],
    refreshes: [],
  },
  "/admin/impersonate-user": {
    methods: ["POST"],
    refreshes: ["organizations", "session"],
  },
  "/admin/list-audit-log": {
    methods: ["GET"],
    refreshes: [],
  },
  "/admin/list-audit-trail": {
    methods: ["GET"],
    refreshes: [],
  },
  "/admin/list-user-accounts": {
    methods: ["GET"],
    refreshes: [],
  },
  "/admin/list-user-memberships": {
    methods: ["GET"],
    refreshes: [],
  },
  "/admin/list-user-sessions": {
    methods: ["POST"],
    refreshes: [],
  },
  "/admin/list-users": {
    methods: ["GET"],
    refreshes: [],
  },
  "/admin/oauth2/create-client": {
    methods: ["POST"],
    refreshes: [],
  },
  "/admin/oauth2/delete-client": {
    methods: ["POST"],
    refreshes: [],
  },
  "/admin/oauth2/get-clients": {
    methods: ["GET"],
    refreshes: [],
  },
  "/admin/oauth2/update-client": {
    methods: ["POST"],
    refreshes: [],
  },
  "/admin/remove-user": {
    methods: ["POST"],
    refreshes: [],
  },
  "/admin/revoke-user-session": {
    methods: ["POST"],
    refreshes: [],
  },
  "/admin/revoke-user-sessions": {
    methods: ["POST"],
    refreshes: [],
  },
  "/admin/set-role": {
    methods: ["POST"],
    refreshes: [],
  },
  "/admin/set-user-password": {
    methods: ["POST"],
    refreshes: [],
  },
  "/admin/stop-impersonating": {
    methods: ["POST"],
    refreshes: ["organizations", "session"],
  },
  "/admin/unban-user": {
    methods: ["POST"],
    refreshes: [],
  },
  "/admin/update-user": {
    methods: ["POST"],
    refreshes: [],
  },
  "/admin/verify-audit-trail": {
    methods: ["GET"],
    refreshes: [],
  },
  "/api-key/create": {
    methods: ["POST"],
    refreshes: [],
  },
  "/api-key/delete": {
    methods: ["POST"],
    refreshes: [],
  },
  "/api-key/get": {
    methods: ["GET"],
    refreshes: [],
  },
  "/api-key/list": {
    methods: ["GET"],
    refreshes: [],
  },
  "/api-key/rotate": {
    methods: ["POST"],
    refreshes: [],
  },
  "/api-key/update": {
    methods: ["POST"],
    refreshes: [],
  },
  "/api-key/verify": {
    methods: ["POST"],
    refreshes: [],
  },
  "/app-config": {
    methods: ["GET"],
    refreshes: [],
  },
  "/callback/:id": {
    methods: ["GET", "POST"],
    refreshes: [],
  },
  "/change-email": {
    methods: ["POST"],
    refreshes: ["session"],
  },
  "/change-password": {
    methods: ["POST"],
    refreshes: ["session"],
  },
  "/delete-anonymous-user": {
    methods: ["POST"],
    refreshes: ["session"],
  },
  "/delete-user": {
    methods: ["POST"],
    refreshes: ["session"],
  },
  "/delete-user/callback": {
    methods: ["GET"],
    refreshes: [],
  },
  "/dev/outbox": {
    methods: ["GET"],
    refreshes: [],
  },
  "/device": {
    methods: ["GET"],
    refreshes: [],
  },
  "/device/approve": {
    methods: ["POST"],
    refreshes: [],
  },
  "/device/code": {
    methods: ["POST"],
    refreshes: [],
  },
  "/device/deny": {
    methods: ["POST"],
    refreshes: [],
  },
  "/email-otp/check-verification-otp": {
    methods: ["POST"],
    refreshes: [],
  },
  "/email-otp/reset-password": {
    methods: ["POST"],
    refreshes: [],
  },
  "/email-otp/send-verification-otp": {
    methods: ["POST"],
    refreshes: [],
  },
  "/email-otp/verify-email": {
    methods: ["POST"],
    refreshes: ["session"],
  },
  "/error": {
    methods: ["GET"],
    refreshes: [],
  },
  "/forget-password": {
    methods: ["POST"],
    refreshes: [],
  },
  "/forget-password/email-otp": {
    methods: ["POST"],
    refreshes: [],
  },
  "/get-access-token": {
    methods: ["POST"],
    refreshes: [],
  },
  "/get-session": {
    methods: ["GET"],
    refreshes: [],
  },
  "/jwks": {
    methods: ["GET"],
    refreshes: [],
  },
  "/link-social": {
    methods: ["POST"],
    refreshes: [],
  },
  "/list-accounts": {
    methods: ["GET"],
    refreshes: [],
  },
  "/list-sessions": {
    methods: ["GET"],
    refreshes: [],
  },
  "/magic-link/verify": {
    methods: ["GET", "POST"],
    refreshes: ["organizations", "session"],
  },
  "/oauth2/authorize": {
    methods: ["GET"],
    refreshes: [],
  },
  "/oauth2/client/rotate-secret": {
    methods: ["POST"],
    refreshes: [],
  },
  "/oauth2/consent": {
    methods: ["POST"],
    refreshes: [],
  },
  "/oauth2/continue": {
    methods: ["POST"],
    refreshes: [],
  },
  "/oauth2/create-client": {
    methods: ["POST"],
    refreshes: [],
  },
  "/oauth2/delete-client": {
    methods: ["POST"],
    refreshes: [],
  },
  "/oauth2/delete-consent": {
    methods: ["POST"],
    refreshes: [],
  },
  "/oauth2/end-session": {
    methods: ["GET"],
    refreshes: [],
  },
  "/oauth2/get-client": {
    methods: ["GET"],
    refreshes: [],
  },
  "/oauth2/get-clients": {
    methods: ["GET"],
    refreshes: [],
  },
  "/oauth2/get-consents": {
    methods: ["GET"],
    refreshes: [],
  },
  "/oauth2/introspect": {
    methods: ["POST"],
    refreshes: [],
  },
  "/oauth2/public-client": {
    methods: ["GET"],
    refreshes: [],
  },
  "/oauth2/register": {
    methods: ["POST"],
    refreshes: [],
  },
  "/oauth2/register/:client_id": {
    methods: ["GET"],
    refreshes: [],
  },
  "/oauth2/revoke": {
    methods: ["POST"],
    refreshes: [],
  },
  "/oauth2/token": {
    methods: ["POST"],
    refreshes: [],
  },
  "/oauth2/update-client": {
    methods: ["POST"],
    refreshes: [],
  },
  "/oauth2/userinfo": {
    methods: ["GET", "POST"],
    refreshes: [],
  },
  "/ok": {
    methods: ["GET"],
    refreshes: [],
  },
  "/one-tap/callback": {
    methods: ["POST"],
    refreshes: ["session"],
  },
  "/openapi.json": {
    methods: ["GET"],
    refreshes: [],
  },
  "/organization/accept-invitation": {
    methods: ["POST"],
    refreshes: ["activeOrganization", "organizations", "session"],
  },
  "/organization/add-team-member": {
    methods: ["POST"],
    refreshes: ["activeOrganization"],
  },
  "/organization/cancel-invitation": {
    methods: ["POST"],
    refreshes: ["activeOrganization"],
  },
  "/organization/check-slug": {
    methods: ["POST"],
    refreshes: ["activeOrganization"],
  },
  "/organization/create": {
    methods: ["POST"],
    refreshes: ["activeOrganization", "organizations", "session"],
  },
  "/organization/create-setup-link": {
    methods: ["POST"],
    refreshes: [],
  },
  "/organization/create-team": {
    methods: ["POST"],
    refreshes: ["activeOrganization"],
  },
  "/organization/create-webhook": {
    methods: ["POST"],
    refreshes: [],
  },
  "/organization/delete": {
    methods: ["POST"],
    refreshes: ["activeOrganization", "organizations", "session"],
  },
  "/organization/delete-webhook": {
    methods: ["POST"],
    refreshes: [],
  },
  "/organization/export-audit-trail": {
    methods: ["GET"],
    refreshes: [],
  },
  "/organization/get-active-member": {
    methods: ["GET"],
    refreshes: [],
  },
  "/organization/get-active-member-role": {
    methods: ["GET"],
    refreshes: [],
  },
  "/organization/get-full-organization": {
    methods: ["GET"],
    refreshes: [],
  },
  "/organization/get-invitation": {
    methods: ["GET"],
    refreshes: [],
  },
  "/organization/get-organization": {
    methods: ["GET"],
    refreshes: [],
  },
  "/organization/get-policy": {
    methods: ["GET"],
    refreshes: [],
  },
  "/organization/has-permission": {
    methods: ["POST"],
    refreshes: ["activeOrganization"],
  },
  "/organization/invitation-preview": {
    methods: ["GET"],
    refreshes: [],
  },
  "/organization/invite-member": {
    methods: ["POST"],
    refreshes: ["activeOrganization"],
  },
  "/organization/leave": {
    methods: ["POST"],
    refreshes: ["activeOrganization", "organizations", "session"],
  },
  "/organization/list": {
    methods: ["GET"],
    refreshes: [],
  },
  "/organization/list-audit-trail": {
    methods: ["GET"],
    refreshes: [],
  },
  "/organization/list-invitations": {
    methods: ["GET"],
    refreshes: [],
  },
  "/organization/list-members": {
    methods: ["GET"],
    refreshes: [],
  },
  "/organization/list-setup-links": {
    methods: ["GET"],
    refreshes: [],
  },
  "/organization/list-team-members": {
    methods: ["GET"],
    refreshes: [],
  },
  "/organization/list-teams": {
    methods: ["GET"],
    refreshes: [],
  },
  "/organization/list-user-invitations": {
    methods: ["GET"],
    refreshes: [],
  },
  "/organization/list-user-teams": {
    methods: ["GET"],
    refreshes: [],
  },
  "/organization/list-webhooks": {
    methods: ["GET"],
    refreshes: [],
  },
  "/organization/reject-invitation": {
    methods: ["POST"],
    refreshes: ["activeOrganization"],
  },
  "/organization/remove-member": {
    methods: ["POST"],
    refreshes: ["activeMember", "activeOrganization", "session"],
  },
  "/organization/remove-team": {
    methods: ["POST"],
    refreshes: ["activeOrganization"],
  },
  "/organization/remove-team-member": {
    methods: ["POST"],
    refreshes: ["activeOrganization"],
  },
  "/organization/revoke-setup-link": {
    methods: ["POST"],
    refreshes: [],
  },
  "/organization/rotate-webhook-secret": {
    methods: ["POST"],
    refreshes: [],
  },
  "/organization/set-active": {
    methods: ["POST"],
    refreshes: ["activeOrganization", "session"],
  },
  "/organization/set-active-team": {
    methods: ["POST"],
    refreshes: ["activeOrganization", "session"],
  },
  "/organization/test-webhook": {
    methods: ["POST"],
    refreshes: [],
  },
  "/organization/transfer-ownership": {
    methods: ["POST"],
    refreshes: ["activeMember", "activeOrganization"],
  },
  "/organization/update": {
    methods: ["POST"],
    refreshes: ["activeOrganization", "organizations"],
  },
  "/organization/update-member-role": {
    methods: ["POST"],
    refreshes: ["activeMember", "activeOrganization"],
  },
  "/organization/update-policy": {
    methods: ["POST"],
    refreshes: ["activeMember"],
  },
  "/organization/update-team": {
    methods: ["POST"],
    refreshes: ["activeOrganization"],
  },
  "/organization/update-team-member-role": {
    methods: ["POST"],
    refreshes: ["activeOrganization"],
  },
  "/organization/update-webhook": {
    methods: ["POST"],
    refreshes: [],
  },
  "/passkey/delete-passkey": {
    methods: ["POST"],
    refreshes: [],
  },
  "/passkey/generate-authenticate-options": {
    methods: ["GET"],
    refreshes: [],
  },
  "/passkey/generate-register-options": {
    methods: ["GET"],
    refreshes: [],
  },
  "/passkey/list-user-passkeys": {
    methods: ["GET"],
    refreshes: [],
  },
  "/passkey/update-passkey": {
    methods: ["POST"],
    refreshes: [],
  },
  "/passkey/verify-authentication": {
    methods: ["POST"],
    refreshes: ["organizations", "session"],
  },
  "/passkey/verify-registration": {
    methods: ["POST"],
    refreshes: [],
  },
  "/ready": {
    methods: ["GET"],
    refreshes: [],
  },
  "/reference": {
    methods: ["GET"],
    refreshes: [],
  },
  "/reference/:asset": {
    methods: ["GET"],
    refreshes: [],
  },
  "/refresh-token": {
    methods: ["POST"],
    refreshes: [],
  },
  "/request-password-reset": {
    methods: ["POST"],
    refreshes: [],
  },
  "/reset-password": {
    methods: ["POST"],
    refreshes: [],
  },
  "/reset-password/:token": {
    methods: ["GET"],
    refreshes: [],
  },
  "/revoke-other-sessions": {
    methods: ["POST"],
    refreshes: ["session"],
  },
  "/revoke-session": {
    methods: ["POST"],
    refreshes: ["session"],
  },
  "/revoke-sessions": {
    methods: ["POST"],
    refreshes: ["session"],
  },
  "/scim/connection-health": {
    methods: ["GET"],
    refreshes: [],
  },
  "/scim/delete-provider-connection": {
    methods: ["POST"],
    refreshes: [],
  },
  "/scim/generate-token": {
    methods: ["POST"],
    refreshes: [],
  },
  "/scim/get-provider-connection": {
    methods: ["GET"],
    refreshes: [],
  },
  "/scim/list-groups": {
    methods: ["GET"],
    refreshes: [],
  },
  "/scim/list-provider-connections": {
    methods: ["GET"],
    refreshes: [],
  },
  "/scim/list-users": {
    methods: ["GET"],
    refreshes: [],
  },
  "/scim/update-group-mapping": {
    methods: ["POST"],
    refreshes: [],
  },
  "/scim/update-provider-connection": {
    methods: ["POST"],
    refreshes: [],
  },
  "/secure-account": {
    methods: ["POST"],
    refreshes: [],
  },
  "/security-activity": {
    methods: ["GET"],
    refreshes: [],
  },
  "/send-verification-email": {
    methods: ["POST"],
    refreshes: [],
  },
  "/setup/audit-stream/create": {
    methods: ["POST"],
    refreshes: [],
  },
  "/setup/audit-stream/list": {
    methods: ["GET"],
    refreshes: [],
  },
  "/setup/audit-stream/test": {
    methods: ["POST"],
    refreshes: [],
  },
  "/setup/close": {
    methods: ["POST"],
    refreshes: [],
  },
  "/setup/grant": {
    methods: ["GET"],
    refreshes: [],
  },
  "/setup/open": {
    methods: ["POST"],
    refreshes: [],
  },
  "/setup/scim/connection-health": {
    methods: ["GET"],
    refreshes: [],
  },
  "/setup/scim/connections": {
    methods: ["GET"],
    refreshes: [],
  },
  "/setup/scim/generate-token": {
    methods: ["POST"],
    refreshes: [],
  },
  "/setup/sso/providers": {
    methods: ["GET"],
    refreshes: [],
  },
  "/setup/sso/register": {
    methods: ["POST"],
    refreshes: [],
  },
  "/setup/sso/request-domain-verification": {
    methods: ["POST"],
    refreshes: [],
  },
  "/setup/sso/test-connection": {
    methods: ["POST"],
    refreshes: [],
  },
  "/setup/sso/test-sign-in": {
    methods: ["POST"],
    refreshes: [],
  },
  "/setup/sso/test-sign-in/result": {
    methods: ["GET"],
    refreshes: [],
  },
  "/setup/sso/update-provider": {
    methods: ["POST"],
    refreshes: [],
  },
  "/setup/sso/verify-domain": {
    methods: ["POST"],
    refreshes: [],
  },
  "/sign-in/anonymous": {
    methods: ["POST"],
    refreshes: ["organizations", "session"],
  },
  "/sign-in/email": {
    methods: ["POST"],
    refreshes: ["organizations", "session"],
  },
  "/sign-in/email-otp": {
    methods: ["POST"],
    refreshes: ["organizations", "session"],
  },
  "/sign-in/magic-link": {
    methods: ["POST"],
    refreshes: [],
  },
  "/sign-in/social": {
    methods: ["POST"],
    refreshes: ["organizations"],
  },
  "/sign-in/sso": {
    methods: ["POST"],
    refreshes: [],
  },
  "/sign-out": {
    methods: ["POST"],
    refreshes: ["organizations", "session"],
  },
  "/sign-up/email": {
    methods: ["POST"],
    refreshes: ["organizations", "session"],
  },
  "/sso/callback/:providerId": {
    methods: ["GET"],
    refreshes: [],
  },
  "/sso/cancel-provider-change": {
    methods: ["POST"],
    refreshes: [],
  },
  "/sso/confirm-provider-change": {
    methods: ["POST"],
    refreshes: [],
  },
  "/sso/delete-provider": {
    methods: ["POST"],
    refreshes: [],
  },
  "/sso/get-provider": {
    methods: ["GET"],
    refreshes: [],
  },
  "/sso/providers": {
    methods: ["GET"],
    refreshes: [],
  },
  "/sso/register": {
    methods: ["POST"],
    refreshes: [],
  },
  "/sso/request-domain-verification": {
    methods: ["POST"],
    refreshes: [],
  },
  "/sso/saml2/callback/:providerId": {
    methods: ["POST"],
    refreshes: [],
  },
  "/sso/saml2/sp/acs/:providerId": {
    methods: ["POST"],
    refreshes: [],
  },
  "/sso/saml2/sp/metadata": {
    methods: ["GET"],
    refreshes: [],
  },
  "/sso/test-connection": {
    methods: ["POST"],
    refreshes: [],
  },
  "/sso/test-sign-in": {
    methods: ["POST"],
    refreshes: [],
  },
  "/sso/test-sign-in/result": {
    methods: ["GET"],
    refreshes: [],
  },
  "/sso/update-provider": {
    methods: ["POST"],
    refreshes: [],
  },
  "/sso/verify-domain": {
    methods: ["POST"],
    refreshes: [],
  },
  "/token": {
    methods: ["GET"],
    refreshes: [],
  },
  "/two-factor/disable": {
    methods: ["POST"],
    refreshes: ["session"],
  },
  "/two-factor/enable": {
    methods: ["POST"],
    refreshes: ["session"],
  },
  "/two-factor/generate-backup-codes": {
    methods: ["POST"],
    refreshes: [],
  },
  "/two-factor/get-totp-uri": {
    methods: ["POST"],
    refreshes: [],
  },
  "/two-factor/send-otp": {
    methods: ["POST"],
    refreshes: [],
  },
  "/two-factor/verify-backup-code": {
    methods: ["POST"],
    refreshes: ["organizations", "session"],
  },
  "/two-factor/verify-otp": {
    methods: ["POST"],
    refreshes: ["organizations", "session"],
  },
  "/two-factor/verify-totp": {
    methods: ["POST"],
    refreshes: ["organizations", "session"],
  },
  "/unlink-account": {
    methods: ["POST"],
    refreshes: [],
  },
  "/update-session": {
    methods: ["POST"],
    refreshes: ["session"],
  },
  "/update-user": {
    methods: ["POST"],
    refreshes: ["session"],
  },
  "/verify-email": {
    methods: ["GET", "POST"],
    refreshes: ["session"],
  },
  "/verify-password": {
    methods: ["POST"],
    refreshes: [],
  },
};

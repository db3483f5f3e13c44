import type { Migration } from "kysely";
import type { DialectName } from "../dialect.js";
import { initialMigration } from "./0001_initial.js";
import { organizationIndexesMigration } from "./0004_organization_indexes.js";
import { adminAuditMigration } from "./0005_admin_audit.js";
import { jwksGenerationMigration } from "./0006_jwks_generation.js";
import { invitationInviterIndexMigration } from "./0007_invitation_inviter_index.js";
import { signInThrottleMigration } from "./0008_sign_in_throttle.js";
import { outboxRecipientIndexMigration } from "./0009_outbox_recipient_index.js";
import { twoFactorMigration } from "./0010_two_factor.js";
import { passkeysMigration } from "./0011_passkeys.js";
import { webhooksMigration } from "./0012_webhooks.js";
import { memberInvitedByMigration } from "./0013_member_invited_by.js";
import { memberListVersionMigration } from "./0014_member_list_version.js";
import { sessionProofMigration } from "./0016_session_proof.js";
import { attemptCountersMigration } from "./0017_attempt_counters.js";
import { invitationSendsMigration } from "./0018_invitation_sends.js";
import { ssoMigration } from "./0019_sso.js";
import { scimMigration } from "./0020_scim.js";
import { auditTrailMigration } from "./0021_audit_trail.js";
import { pruningIndexesMigration } from "./0022_pruning_indexes.js";
import { ssoSamlMigration } from "./0023_sso_saml.js";
import { organizationPolicyMigration } from "./0024_organization_policy.js";
import { scimGroupsMigration } from "./0025_scim_groups.js";
import { knownDevicesMigration } from "./0026_known_devices.js";
import { scimLastUsedMigration } from "./0028_scim_last_used.js";
import { auditSubjectIndexMigration } from "./0029_audit_subject_index.js";
import { organizationWebhooksMigration } from "./0031_organization_webhooks.js";
import { auditOrganizationIndexMigration } from "./0032_audit_organization_index.js";
import { tenantBoundariesMigration } from "./0033_tenant_boundaries.js";
import { auditSealingMigration } from "./0034_audit_sealing.js";
import { apiKeysMigration } from "./0035_api_keys.js";
import { oauthProviderMigration } from "./0036_oauth_provider.js";
import { setupLinksMigration } from "./0037_setup_links.js";
import { machineIdentitiesMigration } from "./0038_machine_identities.js";
import { oauthProtocolMigration } from "./0039_oauth_protocol.js";
import { scimErrorsMigration } from "./0040_scim_errors.js";
import { auditUnsealedPagesMigration } from "./0041_audit_unsealed_pages.js";
import { oauthClientRegistrationMigration } from "./0043_oauth_client_registration.js";
import { apiKeyExpiryMigration } from "./0044_api_key_expiry.js";
import { setupLinkExpiryMigration } from "./0045_setup_link_expiry.js";
import { auditRowidSealingMigration } from "./0046_audit_rowid_sealing.js";
import { oauthFrontchannelLogoutMigration } from "./0047_oauth_frontchannel_logout.js";

/** All migrations in order. Names sort by their numeric prefix; never rename or edit a landed one. */
export function migrations(dialect: DialectName): Record<string, Migration> {
  return {
    "0001_initial": initialMigration(dialect),
    "0004_organization_indexes": organizationIndexesMigration(),
    "0005_admin_audit": adminAuditMigration(dialect),
    "0006_jwks_generation": jwksGenerationMigration(),
    "0007_invitation_inviter_index": invitationInviterIndexMigration(),
    "0008_sign_in_throttle": signInThrottleMigration(dialect),
    "0009_outbox_recipient_index": outboxRecipientIndexMigration(),
    "0010_two_factor": twoFactorMigration(dialect),
    "0011_passkeys": passkeysMigration(dialect),
    "0012_webhooks": webhooksMigration(dialect),
    "0013_member_invited_by": memberInvitedByMigration(),
    "0014_member_list_version": memberListVersionMigration(dialect),
    "0016_session_proof": sessionProofMigration(dialect),
    "0017_attempt_counters": attemptCountersMigration(dialect),
    "0018_invitation_sends": invitationSendsMigration(dialect),
    "0019_sso": ssoMigration(dialect),
    "0020_scim": scimMigration(dialect),
    "0021_audit_trail": auditTrailMigration(dialect),
    "0022_pruning_indexes": pruningIndexesMigration(),
    "0023_sso_saml": ssoSamlMigration(),
    "0024_organization_policy": organizationPolicyMigration(dialect),
    "0025_scim_groups": scimGroupsMigration(dialect),
    "0026_known_devices": knownDevicesMigration(dialect),
    "0028_scim_last_used": scimLastUsedMigration(dialect),
    "0029_audit_subject_index": auditSubjectIndexMigration(),
    "0031_organization_webhooks": organizationWebhooksMigration(dialect),
    "0032_audit_organization_index": auditOrganizationIndexMigration(),
    "0033_tenant_boundaries": tenantBoundariesMigration(dialect),
    "0034_audit_sealing": auditSealingMigration(dialect),
    "0035_api_keys": apiKeysMigration(dialect),
    "0036_oauth_provider": oauthProviderMigration(dialect),
    "0037_setup_links": setupLinksMigration(dialect),
    "0038_machine_identities": machineIdentitiesMigration(dialect),
    "0039_oauth_protocol": oauthProtocolMigration(dialect),
    "0040_scim_errors": scimErrorsMigration(dialect),
    "0041_audit_unsealed_pages": auditUnsealedPagesMigration(dialect),
    "0043_oauth_client_registration": oauthClientRegistrationMigration(),
    "0044_api_key_expiry": apiKeyExpiryMigration(),
    "0045_setup_link_expiry": setupLinkExpiryMigration(),
    "0046_audit_rowid_sealing": auditRowidSealingMigration(dialect),
    "0047_oauth_frontchannel_logout": oauthFrontchannelLogoutMigration(),
  };
}

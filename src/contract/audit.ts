import { z } from "zod";
import { queryInt } from "./fields.js";
import { timestamp } from "./models.js";

/**
 * Every action the audit trail names (docs/audit.md): one declared list, so a reader can filter on a
 * name and know it is spelled one way. Sign-in methods and factors go in an entry's details.
 */
export const AUDIT_ACTIONS = [
  "user.sign_up",
  "user.sign_in",
  "user.sign_out",
  "user.two_factor_verified",
  "user.updated",
  "user.deleted",
  "user.password_changed",
  "user.password_reset_requested",
  "user.password_reset",
  "user.email_change_requested",
  "user.email_verified",
  "user.two_factor_enabled",
  "user.two_factor_disabled",
  "user.backup_codes_generated",
  "user.passkey_added",
  "user.passkey_removed",
  "user.passkey_renamed",
  "user.social_linked",
  "user.social_unlinked",
  "session.revoked",
  "session.revoked_all",
  "session.revoked_others",
  "organization.created",
  "organization.updated",
  "organization.deleted",
  "organization.member_added",
  "organization.member_removed",
  "organization.member_left",
  "organization.member_role_updated",
  "organization.ownership_transferred",
  "organization.invitation_created",
  "organization.invitation_accepted",
  "organization.invitation_rejected",
  "organization.invitation_canceled",
  "organization.team_created",
  "organization.team_updated",
  "organization.team_removed",
  "organization.team_member_added",
  "organization.team_member_removed",
  "organization.team_member_role_updated",
  "organization.policy_updated",
  "organization.sso_break_glass_sign_in",
  "organization.webhook_created",
  "organization.webhook_updated",
  "organization.webhook_deleted",
  "organization.webhook_secret_rotated",
  "organization.sso_connection_created",
  "organization.sso_connection_updated",
  "organization.sso_connection_deleted",
  "organization.sso_domain_verified",
  "organization.sso_connection_tested",
  "organization.scim_token_generated",
  "organization.scim_connection_updated",
  "organization.scim_connection_deleted",
  "organization.scim_group_mapping_updated",
  "api_key.created",
  "api_key.updated",
  "api_key.rotated",
  "api_key.revoked",
  "api_key.used_from_new_address",
  "organization.setup_link_created",
  "organization.setup_link_revoked",
  "organization.setup_link_opened",
  "directory.user_provisioned",
  "directory.user_updated",
  "directory.user_deprovisioned",
  "directory.group_created",
  "directory.group_updated",
  "directory.group_deleted",
  "directory.user_created",
  "directory.account_linked",
  "directory.member_added",
  "directory.member_role_updated",
  "admin.user_created",
  "admin.user_updated",
  "admin.role_set",
  "admin.user_banned",
  "admin.user_unbanned",
  "admin.user_removed",
  "admin.password_set",
  "admin.session_revoked",
  "admin.sessions_revoked",
  "admin.impersonation_started",
  "admin.impersonation_stopped",
  "oauth.client_created",
  "oauth.client_updated",
  "oauth.client_secret_rotated",
  "oauth.client_deleted",
  "oauth.consent_granted",
  "oauth.consent_revoked",
  "oauth.device_denied",
  "oauth.token_issued",
  "oauth.token_revoked",
  "audit.pruned",
  "request.refused",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Who acted: a signed-in user, an admin (or an admin impersonating), the service itself, a directory
 * (an organization's SCIM connection, or its SSO connection provisioning at sign-in), or the holder
 * of an organization's setup link (actorId: the link's id; docs/sso.md, "Let the customer set it up"),
 * or an API key (actorId: the key's id; details name it; docs/api-keys.md).
 */
export const AUDIT_ACTOR_TYPES = ["user", "admin", "system", "directory", "setup-link", "key"] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/** `challenged`: a sign-in that now owes a second factor (no session yet). */
export const AUDIT_OUTCOMES = ["success", "failure", "challenged"] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/**
 * An entry's own fields, in their stored and hashed order: the one declaration the wire model, the
 * table's insert and row type, the hash's input and the CSV export's columns all come from (a new
 * field: a line here and a migration adding its column; docs/audit.md, "Adding a field").
 */
export const AUDIT_ENTRY_FIELDS = {
  id: z.string(),
  createdAt: timestamp,
  action: z.enum(AUDIT_ACTIONS),
  outcome: z.enum(AUDIT_OUTCOMES),
  actorType: z.enum(AUDIT_ACTOR_TYPES),
  actorId: z.string().nullable(),
  subjectId: z.string().nullable(),
  organizationId: z.string().nullable(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  requestId: z.string().nullable(),
  /** Stored as JSON text. */
  details: z.record(z.string(), z.unknown()).nullable(),
};
export type AuditEntryField = keyof typeof AUDIT_ENTRY_FIELDS;
/** The fields' names, in AUDIT_ENTRY_FIELDS' order. */
export const AUDIT_ENTRY_COLUMNS = Object.keys(AUDIT_ENTRY_FIELDS) as readonly AuditEntryField[];

/** One entry of the trail as it is read: its number, its fields, and `hash`, chaining it to the one before (docs/audit.md). */
export const auditTrailEntryModel = z.object({ seq: z.number().int(), ...AUDIT_ENTRY_FIELDS, hash: z.string() });
export type AuditTrailEntry = z.output<typeof auditTrailEntryModel>;

/** A page, newest first; `nextCursor` asks for the next (older) page, null on the last. */
export const auditTrailPageModel = z.object({
  entries: z.array(auditTrailEntryModel),
  nextCursor: z.string().nullable(),
});
export type AuditTrailPage = z.output<typeof auditTrailPageModel>;

/**
 * What a check of the sealed chain found (GET /admin/verify-audit-trail, `gatehouse audit verify`),
 * and the unsealed tail no hash covers yet; `overdue`: its oldest entry has waited longer than
 * audit.sealWithinSeconds (docs/audit.md, "Sealing").
 */
export const auditChainCheckModel = z.object({
  ok: z.boolean(),
  checked: z.number().int(),
  anchorSeq: z.number().int(),
  headSeq: z.number().int(),
  headHash: z.string(),
  firstBad: z
    .object({
      seq: z.number().int(),
      id: z.string().nullable(),
      reason: z.enum(["edited", "missing", "head-mismatch"]),
    })
    .nullable(),
  unsealed: z.object({
    count: z.number().int(),
    oldestCreatedAt: timestamp.nullable(),
    oldestAgeSeconds: z.number(),
    overdue: z.boolean(),
  }),
});
export type AuditChainCheck = z.output<typeof auditChainCheckModel>;

const isoTime = z.iso.datetime({ offset: true }).transform((text) => new Date(text));

/** The filters both readers take: actor, action, a time range [from, to), a cursor and a page size. */
const trailFilter = {
  actorId: z.string().min(1).max(200).optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  from: isoTime.optional(),
  to: isoTime.optional(),
};

export const listAuditTrailQuery = z.object({
  ...trailFilter,
  cursor: z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/)
    .optional(),
  limit: queryInt(500).optional(),
});

export const exportAuditTrailQuery = z.object({ ...trailFilter, format: z.enum(["jsonl", "csv"]).optional() });

/** An organization's trail: the same, for one organization its caller owns. */
export const listOrganizationAuditTrailQuery = listAuditTrailQuery.extend({ organizationId: z.string().min(1) });
export const exportOrganizationAuditTrailQuery = exportAuditTrailQuery.extend({ organizationId: z.string().min(1) });

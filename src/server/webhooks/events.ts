import { type AuditTrailEntry, auditTrailEntryModel } from "../../contract/audit.js";
import {
  type Invitation,
  invitationModel,
  type Member,
  memberModel,
  type Organization,
  organizationModel,
  type User,
  userModel,
} from "../../contract/models.js";
import { WEBHOOK_EVENTS } from "../webhook-settings.js";

export { WEBHOOK_EVENTS };
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** A session as a webhook tells it: never its token (nor the token's digest). */
export interface WebhookSession {
  id: string;
  userId: string;
  ipAddress: string | null;
  userAgent: string | null;
  expiresAt: Date;
}

/** What a service hands to enqueue for each event (a row may carry more; only these fields are sent). */
export interface WebhookEventData {
  "user.created": User;
  "user.updated": User;
  "user.deleted": User;
  "session.created": SessionLike;
  "session.revoked": SessionLike;
  "organization.created": Organization;
  "organization.updated": Organization;
  "organization.deleted": Organization;
  "member.added": Member;
  "member.updated": Member;
  "member.removed": Member;
  "invitation.created": Invitation;
  "invitation.accepted": Invitation;
  "invitation.rejected": Invitation;
  "invitation.canceled": Invitation;
  /** One entry of the audit trail once sealed (number and hash included), queued in the sealing batch's transaction. */
  "audit.entry": AuditTrailEntry;
}

/** A session row or wire session: dates may still be the driver's text or numbers. */
export interface SessionLike {
  id: string;
  userId: string;
  ipAddress: string | null;
  userAgent: string | null;
  expiresAt: Date | string | number;
}

/**
 * The object a payload carries, in its wire shape. Each family goes through an allow-list (the zod
 * models strip unknown keys, the session is picked field by field), so a row that carries a password
 * hash, a token or its digest can never leak it into a payload.
 */
export function wireData<E extends WebhookEvent>(event: E, data: WebhookEventData[E]): unknown {
  const family = event.slice(0, event.indexOf("."));
  switch (family) {
    case "user":
      return userModel.parse(data);
    case "organization":
      return organizationModel.parse(data);
    case "member":
      return memberModel.parse(data);
    case "invitation":
      return invitationModel.parse(data);
    case "audit":
      return auditTrailEntryModel.parse(data);
    default: {
      const session = data as SessionLike;
      const expiresAt = session.expiresAt instanceof Date ? session.expiresAt : new Date(session.expiresAt);
      return {
        id: session.id,
        userId: session.userId,
        ipAddress: session.ipAddress,
        userAgent: session.userAgent,
        expiresAt,
      } satisfies WebhookSession;
    }
  }
}

/** The organization an event's item belongs to, or null for an event of none (a user, a session). */
export function organizationOfEvent(event: WebhookEvent, data: unknown): string | null {
  const row = data as { id?: unknown; organizationId?: unknown };
  const found = event.startsWith("organization.") ? row.id : row.organizationId;
  return typeof found === "string" ? found : null;
}

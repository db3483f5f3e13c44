import { z } from "zod";
import { timestamp } from "./models.js";

/**
 * Webhooks an organization's owners manage (docs/webhooks.md): the events of that organization
 * only (its own, its members' and invitations', and audit entries, which name their organization).
 * The server's WEBHOOK_EVENTS include these.
 */
export const ORGANIZATION_WEBHOOK_EVENTS = [
  "organization.created",
  "organization.updated",
  "organization.deleted",
  "member.added",
  "member.updated",
  "member.removed",
  "invitation.created",
  "invitation.accepted",
  "invitation.rejected",
  "invitation.canceled",
  "audit.entry",
] as const;
export type OrganizationWebhookEvent = (typeof ORGANIZATION_WEBHOOK_EVENTS)[number];

/** Long enough for any receiver's URL with a path and query; far below what a row should hold. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

const organizationId = z.string().min(1).max(255);
const webhookId = z.string().min(1).max(255);
const url = z.string().min(1).max(MAX_WEBHOOK_URL_LENGTH);
const events = z
  .array(z.enum(ORGANIZATION_WEBHOOK_EVENTS))
  .min(1)
  .max(ORGANIZATION_WEBHOOK_EVENTS.length)
  .refine((list) => new Set(list).size === list.length, "lists an event twice");

export const createWebhookBody = z.object({
  /** Default: the active organization. */
  organizationId: organizationId.optional(),
  url,
  events,
  enabled: z.boolean().optional(),
});

/** The fields sent change, the rest stay. */
export const updateWebhookBody = z.object({
  webhookId,
  url: url.optional(),
  events: events.optional(),
  enabled: z.boolean().optional(),
});

export const webhookIdBody = z.object({ webhookId });

export const listWebhooksQuery = z.object({ organizationId: organizationId.optional() });

/** A webhook as its owners see it: never its secret (shown once, at creation and at rotation). */
export const organizationWebhookModel = z.object({
  id: z.string(),
  organizationId: z.string(),
  url: z.string(),
  events: z.array(z.enum(ORGANIZATION_WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  createdBy: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  /** The last delivery attempt, and its error (null: delivered). */
  lastDeliveryAt: timestamp.nullable(),
  lastDeliveryError: z.string().nullable(),
});
export type OrganizationWebhook = z.output<typeof organizationWebhookModel>;

/**
 * The type of the one delivery test-webhook sends: not an event anyone subscribes to, so it reaches
 * only the webhook it was asked for.
 */
export const WEBHOOK_TEST_EVENT = "webhook.test";

/** The test delivery's id: its `webhook-id` header, so the receiver's logs can be matched to it. */
export const testWebhookReply = z.object({ deliveryId: z.string() });

/** The Standard Webhooks secret (`whsec_...`), in this reply only. */
export const webhookWithSecretModel = organizationWebhookModel.extend({ secret: z.string() });

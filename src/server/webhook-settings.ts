/**
 * What the option parser checks of a webhook, kept apart from the webhooks folder so options.ts
 * does not load the delivery code.
 */

import { ORGANIZATION_WEBHOOK_EVENTS } from "../contract/organization-webhooks.js";

/** Every event a webhook may subscribe to (docs/webhooks.md). */
export const WEBHOOK_EVENTS = [
  "user.created",
  "user.updated",
  "user.deleted",
  "session.created",
  "session.revoked",
  ...ORGANIZATION_WEBHOOK_EVENTS,
] as const;

/**
 * The events that concern one organization: a subscription scoped to an organization (configured, or
 * an owner's own) takes only these.
 */
export const ORGANIZATION_EVENTS: ReadonlySet<string> = new Set(ORGANIZATION_WEBHOOK_EVENTS);

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` and the
 * base64 of 24 to 64 random bytes; each request carries `webhook-signature: v1,<base64 HMAC-SHA256
 * of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the decoded bytes.
 */
export const SECRET_PREFIX = "whsec_";
const MIN_SECRET_BYTES = 24;
const MAX_SECRET_BYTES = 64;

/** Why a secret is not in the Standard Webhooks format, or null when it is. */
export function secretFormatProblem(secret: string): string | null {
  const format = `must be "${SECRET_PREFIX}" followed by the base64 of ${MIN_SECRET_BYTES} to ${MAX_SECRET_BYTES} random bytes (e.g. "${SECRET_PREFIX}$(openssl rand -base64 32)")`;
  if (!secret.startsWith(SECRET_PREFIX)) return format;
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return format;
  const bytes = Buffer.from(encoded, "base64").length;
  if (bytes < MIN_SECRET_BYTES || bytes > MAX_SECRET_BYTES) return format;
  return null;
}

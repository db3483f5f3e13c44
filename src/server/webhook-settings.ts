/**
 * What the option parser checks of a webhook, kept apart from the webhooks folder so options.ts
 * does not load the delivery code.
 */

/** Every event a webhook may subscribe to (docs/webhooks.md). */
export const WEBHOOK_EVENTS = [
  "user.created",
  "user.updated",
  "user.deleted",
  "session.created",
  "session.revoked",
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

/**
 * The events that concern one organization: a subscription scoped to an organization takes only these
 * (its own, its members' and invitations', and audit entries, which name their organization).
 */
export const ORGANIZATION_EVENTS: ReadonlySet<string> = new Set(
  WEBHOOK_EVENTS.filter((event) => /^(organization|member|invitation)\./.test(event) || event === "audit.entry"),
);

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

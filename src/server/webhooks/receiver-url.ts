import { randomBytes } from "node:crypto";
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { deriveKey } from "../crypto/encryption.js";
import { isLoopbackHostname } from "../loopback.js";
import { isPublicAddress } from "../providers/public-fetch.js";
import { SECRET_PREFIX } from "../webhook-settings.js";

/**
 * Whether an organization owner may name this URL as a receiver: https, no credentials or fragment,
 * and a host that is (and now resolves to) public addresses only, unless private URLs are allowed
 * (then plain http on loopback too). The check at creation tells the owner early; the one that
 * counts is at delivery (providers/public-fetch.ts), on the address actually dialled.
 */
export async function isAcceptableReceiverUrl(raw: string, allowPrivate: boolean): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  const plainAllowed = allowPrivate && isLoopbackHostname(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && plainAllowed)) return false;
  if (url.username || url.password || url.hash) return false;
  if (allowPrivate) return true;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return isPublicAddress(host);
  if (host === "localhost" || host.endsWith(".localhost")) return false;
  try {
    const addresses = await lookup(host, { all: true });
    return addresses.every((entry) => isPublicAddress(entry.address));
  } catch {
    // Not resolvable now (a receiver not yet in DNS): delivery refuses it if it resolves privately.
    return true;
  }
}

/** A new Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString("base64")}`;
}

/** The key organization webhooks' secrets are encrypted under, derived from AUTH_SECRET. */
export function webhookSecretKey(authSecret: string): Buffer {
  return deriveKey(authSecret, "organization-webhook-secret");
}

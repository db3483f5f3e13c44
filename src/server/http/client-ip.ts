import { isIP } from "node:net";
import type { Context } from "hono";
import type { AuthEnv } from "./env.js";

/**
 * The caller's IP: from the configured proxy headers when there are any (the right-most valid entry,
 * the one our own proxy appended), else the socket's address. Never from a header the operator did
 * not name, so a client cannot choose its own rate-limit bucket.
 */
export function resolveClientIp(c: Context<AuthEnv>, headerNames: readonly string[]): string | null {
  return proxiedClientIp((name) => c.req.header(name), headerNames) ?? socketAddress(c);
}

/** The client IP from the configured proxy headers only (auth.api calls have no socket), or null. */
export function proxiedClientIp(
  readHeader: (name: string) => string | null | undefined,
  headerNames: readonly string[],
): string | null {
  for (const name of headerNames) {
    const value = readHeader(name);
    if (!value) continue;
    const candidates = value.split(",").map((part) => part.trim());
    for (let i = candidates.length - 1; i >= 0; i -= 1) {
      const candidate = candidates[i] ?? "";
      if (isIP(candidate)) return candidate;
    }
  }
  return null;
}

/**
 * The TCP peer's address (IPv4-mapped IPv6 as plain IPv4), from the server adapter's binding
 * (@hono/node-server's carries the socket); null when the adapter gives none.
 */
export function socketAddress(c: Context<AuthEnv>): string | null {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  const address = incoming?.socket?.remoteAddress;
  if (!address) return null;
  return address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/** Rate-limit key part for an IP: IPv6 addresses are grouped by /64, one subscriber's usual allocation. */
export function rateLimitSubject(ip: string | null): string {
  if (!ip) return "unknown";
  if (isIP(ip) !== 6) return ip;
  const [head = "", tail = ""] = ip.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

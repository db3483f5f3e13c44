import { isIP } from "node:net";
import type { Context } from "hono";
import { serviceEndpoints } from "../../contract/endpoints/index.js";
import { socketAddress } from "../http/client-ip.js";
import type { AuthEnv } from "../http/env.js";
import type { Route } from "../http/route.js";

/** Headers a proxy adds: behind one, the socket's loopback address says nothing about the client. */
const FORWARDING_HEADERS = ["forwarded", "x-forwarded-for", "x-forwarded-host", "x-real-ip"];

function isLoopbackAddress(address: string): boolean {
  return isIP(address) === 4 ? address.startsWith("127.") : address === "::1";
}

/**
 * Only this machine may read the outbox: the TCP peer is loopback (not a header a client can
 * write), nothing was forwarded through a proxy, and the Host header names this machine or
 * BASE_URL's host, so a DNS-rebinding page (evil.example resolving to 127.0.0.1) is refused too.
 */
function isLocalRequest(c: Context<AuthEnv>): boolean {
  const peer = socketAddress(c);
  if (!peer || !isLoopbackAddress(peer)) return false;
  if (FORWARDING_HEADERS.some((name) => c.req.header(name) !== undefined)) return false;
  const host = c.req.header("host");
  if (!host) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    return false;
  }
  const allowed = ["localhost", "127.0.0.1", "[::1]", new URL(c.get("auth").baseURL).hostname];
  return allowed.includes(hostname);
}

/**
 * The development mail outbox, read by the application's outbox page: mail stays in the outbox
 * table, and a developer follows its links from there. Served only when asked for (mail.devOutbox,
 * which production refuses) and only to this machine (the links are live sign-in and reset tokens):
 * anything else gets a plain 404.
 */
export function devOutboxRoutes(route: Route): void {
  route(serviceEndpoints.developmentOutbox, async (c) => {
    const ctx = c.get("auth");
    if (!isLocalRequest(c)) return c.body(null, 404);
    c.header("Cache-Control", "no-store");
    const entries = await ctx.mail.list();
    return entries.map(({ id, to, subject, text, html, kind, createdAt, sentAt }) => ({
      id,
      to,
      subject,
      text,
      html,
      kind,
      createdAt,
      sentAt,
    }));
  });
}

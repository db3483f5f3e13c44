import type { Context } from "hono";
import type { SetupScope } from "../../contract/setup-links.js";
import type { SetupLinkCaller } from "../services/caller.js";
import { authenticateSetupLink, requireSetupScope } from "../services/setup-links.js";
import { expireCookie, readSignedCookie, writeSignedCookie } from "./cookies.js";
import type { AuthEnv } from "./env.js";

/**
 * The setup link's cookie: the link's token, signed like every cookie, set when its holder opens it
 * (POST /setup/open) and read only by the routes whose policy names `setupLink`. It is no session:
 * no other route reads it, and every request checks the link again (expiry, revocation).
 */
export function writeSetupLinkCookie(c: Context<AuthEnv>, token: string, link: SetupLinkCaller): void {
  const seconds = Math.max(0, Math.floor((link.expiresAt.getTime() - c.get("auth").now().getTime()) / 1000));
  writeSignedCookie(c, "setup_link", token, seconds);
}

export function expireSetupLinkCookie(c: Context<AuthEnv>): void {
  expireCookie(c, "setup_link");
}

/**
 * Tells the request's audit entry that the link acted: its actor is the link, its organization the
 * link's (whatever organization the input named).
 */
export function auditAsSetupLink(c: Context<AuthEnv>, link: SetupLinkCaller): void {
  const scope = c.get("auth").audit;
  if (!scope) return;
  scope.actorType = "setup-link";
  scope.actorId = link.id;
  scope.organizationId = link.organizationId;
}

/** The link the request's cookie names, live and granting one of `scopes`; else SETUP_LINK_INVALID or _SCOPE_DENIED. */
export async function requireSetupLink(c: Context<AuthEnv>, scopes: readonly SetupScope[]): Promise<SetupLinkCaller> {
  const token = readSignedCookie(c, "setup_link");
  const link = await authenticateSetupLink(c.get("auth"), token ?? "");
  auditAsSetupLink(c, link);
  requireSetupScope(link, scopes);
  return link;
}

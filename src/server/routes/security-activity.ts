import { securityActivityEndpoints } from "../../contract/endpoints/index.js";
import { clearSessionCookies } from "../http/cookies.js";
import type { Route } from "../http/route.js";
import { secureAccount, securityActivity } from "../services/security-activity.js";

/** Routed only while securityActivity is on (docs/security-activity.md). */
export function securityActivityRoutes(route: Route): void {
  route(securityActivityEndpoints.securityActivity, (c, { caller }) => securityActivity(c.get("auth"), caller));

  route(securityActivityEndpoints.secureAccount, async (c, { body }) => {
    const reply = await secureAccount(c.get("auth"), body.token);
    // Every session ended, this browser's too if it had one.
    clearSessionCookies(c);
    return reply;
  });
}

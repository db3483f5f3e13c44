import { secureAccountBody, secureAccountReply, securityActivityReply } from "../security-activity.js";
import { endpoint } from "./define.js";

/** Security activity for the signed-in user, and the new-device mail's "Not you?" link (docs/security-activity.md). */
export const securityActivityEndpoints = {
  securityActivity: endpoint({
    method: "GET",
    path: "/security-activity",
    summary: "The caller's recent sign-ins and signed-in devices",
    reply: securityActivityReply,
    policy: { session: "required", feature: "securityActivity" },
  }),
  secureAccount: endpoint({
    method: "POST",
    path: "/secure-account",
    summary: "Sign out everywhere with a new-device mail's link and get a password-reset token",
    body: secureAccountBody,
    reply: secureAccountReply,
    errors: ["INVALID_TOKEN"],
    audit: { action: "session.revoked_all", details: { method: "secure-account" } },
    policy: { feature: "securityActivity", rateLimit: "credential" },
  }),
} as const;

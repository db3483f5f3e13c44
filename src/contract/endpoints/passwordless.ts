import { z } from "zod";
import { sessionModel, userModel } from "../models.js";
import { magicLinkVerifyQuery, signInMagicLinkBody } from "../passwordless.js";
import { twoFactorRedirectReply } from "../two-factor.js";
import { endpoint } from "./define.js";
import { statusReply } from "./replies.js";

/** Sign-in by a link sent by mail (better-auth's magic-link wire). */
export const passwordlessEndpoints = {
  signInMagicLink: endpoint({
    method: "POST",
    path: "/sign-in/magic-link",
    summary: "Mail a single-use sign-in link (the same answer whether or not the address has an account)",
    body: signInMagicLinkBody,
    reply: statusReply,
    errors: ["INVALID_EMAIL"],
    policy: { origin: "login", rateLimit: "mail", feature: "magicLink" },
  }),
  verifyMagicLink: endpoint({
    method: "GET",
    path: "/magic-link/verify",
    summary: "Use a sign-in link: redirects to callbackURL signed in (or answers JSON without one)",
    query: magicLinkVerifyQuery,
    reply: z.union([z.object({ token: z.string(), user: userModel, session: sessionModel }), twoFactorRedirectReply]),
    answers: "json-or-redirect",
    errors: ["INVALID_TOKEN", "BANNED_USER"],
    policy: { rateLimit: "credential", feature: "magicLink", refreshes: ["session", "organizations"] },
  }),
} as const;

import { routePath as matchedRoutePath } from "hono/route";
import { AuthError } from "../errors.js";
import type { AuthOptions } from "../options.js";
import { rateLimitSubject } from "./client-ip.js";
import type { RequestStep } from "./env.js";

interface Rule {
  window: number;
  max: number;
}

/** Stricter windows where guessing or mail bombing is the risk (WIRE 1.6). */
const BUILT_IN_RULES: readonly [(path: string) => boolean, Rule][] = [
  [(p) => p.startsWith("/sign-in") || p.startsWith("/sign-up"), { window: 10, max: 3 }],
  [(p) => p === "/change-password" || p === "/change-email" || p === "/verify-password", { window: 10, max: 3 }],
  [
    (p) => p === "/request-password-reset" || p === "/send-verification-email" || p.startsWith("/forget-password"),
    { window: 60, max: 3 },
  ],
];

function matchesCustomPath(pattern: string, path: string): boolean {
  return pattern.endsWith("*") ? path.startsWith(pattern.slice(0, -1)) : pattern === path;
}

/** The rule for a path: a custom rule first (false exempts), then the built-in ones, then the default. */
export function ruleFor(path: string, config: AuthOptions["rateLimit"]): Rule | null {
  for (const [pattern, rule] of Object.entries(config.customRules)) {
    if (matchesCustomPath(pattern, path)) return rule === false ? null : rule;
  }
  // Load balancers probe readiness often, from one address; it reads nothing anyone could abuse.
  if (path === "/ready") return null;
  for (const [matches, rule] of BUILT_IN_RULES) if (matches(path)) return rule;
  return { window: config.window, max: config.max };
}

/** Per client IP and path; 429 with Retry-After when a window is used up. */
export function createRateLimit(config: AuthOptions["rateLimit"], routePath: (path: string) => string): RequestStep {
  return async (c) => {
    if (!config.enabled) return;
    const path = routePath(c.req.path);
    const rule = ruleFor(path, config);
    if (!rule) return;
    const ctx = c.get("auth");
    // Keyed by the matched route pattern, not the raw path: random paths (404s, tokens in a path)
    // share one window instead of each adding an entry to the store.
    const key = `${rateLimitSubject(c.get("clientIp"))}|${matchedRoutePath(c, -1)}`;
    let decision: Awaited<ReturnType<typeof ctx.rateLimitStore.hit>>;
    try {
      decision = await ctx.rateLimitStore.hit(key, rule.window, rule.max, ctx.now().getTime());
    } catch (error) {
      // Counter storage down (e.g. Redis): serve unlimited rather than fail every request.
      ctx.logger.warn("rate limit store unavailable; request not limited", { error: String(error) });
      return;
    }
    if (!decision.allowed) throw new AuthError("TOO_MANY_REQUESTS", { retryAfterSeconds: decision.retryAfterSeconds });
    return;
  };
}

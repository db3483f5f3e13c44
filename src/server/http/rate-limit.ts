import type { Endpoint, RateLimitClass } from "../../contract/endpoints/index.js";
import { AuthError } from "../errors.js";
import type { AuthOptions } from "../options.js";
import { rateLimitSubject } from "./client-ip.js";
import type { RequestStep } from "./env.js";

interface Rule {
  window: number;
  max: number;
}

/** Stricter windows where guessing or mail bombing is the risk (WIRE 1.6). */
// The sign-in screens pace "Resend" by this "mail" rule (contract/mail-limits.ts).
const CLASS_RULES: Readonly<Record<Exclude<RateLimitClass, "default" | "none">, Rule>> = {
  credential: { window: 10, max: 3 },
  mail: { window: 60, max: 3 },
};

function matchesCustomPath(pattern: string, path: string): boolean {
  return pattern.endsWith("*") ? path.startsWith(pattern.slice(0, -1)) : pattern === path;
}

/** An endpoint's rule: a custom rule first (false exempts), then its class, then the default. */
export function ruleFor(endpoint: Pick<Endpoint, "path" | "policy">, config: AuthOptions["rateLimit"]): Rule | null {
  for (const [pattern, rule] of Object.entries(config.customRules)) {
    if (matchesCustomPath(pattern, endpoint.path)) return rule === false ? null : rule;
  }
  const kind = endpoint.policy.rateLimit ?? "default";
  if (kind === "none") return null;
  if (kind === "default") return { window: config.window, max: config.max };
  return CLASS_RULES[kind];
}

/**
 * Per client IP and endpoint; 429 with Retry-After when a window is used up. Keyed by the endpoint's
 * path pattern, so tokens in a path share one window instead of each adding an entry to the store.
 */
export function createRateLimit(endpoint: Endpoint, config: AuthOptions["rateLimit"]): RequestStep | null {
  const rule = config.enabled ? ruleFor(endpoint, config) : null;
  if (!rule) return null;
  return async (c) => {
    const ctx = c.get("auth");
    const key = `${rateLimitSubject(c.get("clientIp"))}|${endpoint.path}`;
    let decision: Awaited<ReturnType<typeof ctx.rateLimitStore.hit>>;
    try {
      decision = await ctx.rateLimitStore.hit(key, rule.window, rule.max, ctx.now().getTime());
    } catch (error) {
      // Counter storage down (e.g. Redis): serve unlimited rather than fail every request.
      ctx.logger.warn("rate limit store unavailable; request not limited", { error: String(error) });
      return;
    }
    if (!decision.allowed) throw new AuthError("TOO_MANY_REQUESTS", { retryAfterSeconds: decision.retryAfterSeconds });
  };
}

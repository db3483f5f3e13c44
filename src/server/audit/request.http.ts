import type { Context } from "hono";
import type { AuditPolicy, Endpoint } from "../../contract/endpoints/index.js";
import type { SessionWithUser } from "../../contract/models.js";
import type { AuditScope } from "../context.js";
import { isAuthError } from "../errors.js";
import { rateLimitSubject } from "../http/client-ip.js";
import type { AuthEnv, RequestStep } from "../http/env.js";
import { requestId } from "../http/request-start.js";
import { isMemberOf } from "../services/organization-access.js";
import { auditedContext, auditOutcome } from "./trail.service.js";

const textIn = (value: unknown, key: string): string | undefined => {
  const found = (value as Record<string, unknown> | undefined)?.[key];
  return typeof found === "string" && found.length > 0 && found.length <= 200 ? found : undefined;
};

/**
 * Runs an audited endpoint's request (prelude and handler) with its audit scope in the request's
 * context (`c.get("auth")`, which handlers hand to services), and writes what no transaction wrote: a failure always (on its own: its change, if any, rolled back), a success that
 * made no change the outbox was told of.
 */
export async function runAudited(
  c: Context<AuthEnv>,
  endpoint: Endpoint,
  declared: AuditPolicy,
  serve: () => Promise<Response>,
): Promise<Response> {
  const scope = scopeOf(c, endpoint, declared);
  c.set("auth", auditedContext(c.get("auth"), scope));
  let response: Response;
  try {
    response = await serve();
  } catch (error) {
    scope.details.code = isAuthError(error) ? error.code : "INTERNAL_SERVER_ERROR";
    noteAttemptedEmail(c, scope);
    // A refusal by the rate limiter or the origin check: once per client, endpoint and code a window.
    if (!refusalOf(error) || (await claimRefusalEntry(c, endpoint, String(scope.details.code)))) {
      if (await strangerFailureAllowed(c, scope)) await writeOutcome(c, scope, "failure");
    }
    throw error;
  }
  if (response.status < 400) await writeOutcome(c, scope, "success");
  else if (await strangerFailureAllowed(c, scope)) await writeOutcome(c, scope, "failure");
  return response;
}

/**
 * An endpoint the table does not audit (a read, a probe, sending a link): only a refusal by the rate
 * limiter or the origin check is recorded, as `request.refused` naming the path, with the same bound.
 */
export async function runRefusalAudited(
  c: Context<AuthEnv>,
  endpoint: Endpoint,
  serve: () => Promise<Response>,
): Promise<Response> {
  try {
    return await serve();
  } catch (error) {
    if (refusalOf(error)) {
      const code = isAuthError(error) ? error.code : "INTERNAL_SERVER_ERROR";
      if (await claimRefusalEntry(c, endpoint, code)) {
        const scope = scopeOf(c, endpoint, { action: "request.refused" });
        Object.assign(scope.details, { code, method: endpoint.method, path: endpoint.path });
        await writeOutcome(c, scope, "failure");
      }
    }
    throw error;
  }
}

function scopeOf(c: Context<AuthEnv>, endpoint: Endpoint, declared: AuditPolicy): AuditScope {
  // A SCIM route's caller is the directory (scim/protocol.http.ts names the connection once it is known).
  const actorType = endpoint.policy.directory ? "directory" : (declared.actor ?? "user");
  const ctx = c.get("auth");
  return {
    action: declared.action,
    whenChanged: declared.whenChanged === true,
    actorType,
    actorId: null,
    subjectId: null,
    sessionUserId: null,
    organizationId: null,
    sessionOrganizationId: null,
    ipAddress: ctx.options.advanced.ipAddress.disableIpTracking ? null : c.get("clientIp"),
    userAgent: c.req.header("user-agent")?.slice(0, 512) ?? null,
    requestId: requestId(c),
    details: { ...declared.details },
    challenged: false,
    written: false,
  };
}

/** The prelude steps whose refusals are audited under a bound (a flood of them is the usual attack). */
type RefusalKind = "rate-limit" | "origin" | "token";
const refusals = new WeakMap<object, RefusalKind>();

function markRefusal(error: unknown, kind: RefusalKind): unknown {
  if (typeof error === "object" && error !== null && !refusals.has(error)) refusals.set(error, kind);
  return error;
}

/** Which of those steps threw `error`, if one did. */
export function refusalOf(error: unknown): RefusalKind | undefined {
  return typeof error === "object" && error !== null ? refusals.get(error) : undefined;
}

/** Marks what `step` throws as its kind of refusal (only with auditing on: no wrapper otherwise). */
export function refusingStep(step: RequestStep, kind: RefusalKind): RequestStep {
  return (c) => {
    let pending: void | Promise<void>;
    try {
      pending = step(c);
    } catch (error) {
      throw markRefusal(error, kind);
    }
    return pending?.catch((error: unknown) => {
      throw markRefusal(error, kind);
    });
  };
}

/**
 * Claims the one refusal entry a client (the rate limiter's subject: an IPv4 address or IPv6 /64) may
 * leave per endpoint and code in `audit.refusalWindowSeconds`, atomically, in the rate limiter's store
 * (shared across instances when that store is). A flood of refused requests then writes at most one
 * row per client, endpoint and code a window, however fast it comes. If the store cannot answer, the
 * entry is written: the rate limiter lets requests through then too, so there is no flood to bound.
 */
function claimRefusalEntry(c: Context<AuthEnv>, endpoint: Endpoint, code: string): Promise<boolean> {
  const key = `audit-refusal|${rateLimitSubject(c.get("clientIp"))}|${endpoint.method} ${endpoint.path}|${code}`;
  return claimOnceAWindow(c, key);
}

/**
 * A failure caused by someone who is not a member of the organization it names lands in that
 * organization's trail, which its owners read and export: at most one per caller (the user, else the
 * client) and organization in `audit.refusalWindowSeconds`, however many endpoints or codes they try,
 * and with nothing they chose in it (no user agent; of the details, the code only), so a stranger can
 * neither flood another organization's trail nor write text into it. A member's failures stay whole.
 */
async function strangerFailureAllowed(c: Context<AuthEnv>, scope: AuditScope): Promise<boolean> {
  const { organizationId, sessionUserId } = scope;
  if (!organizationId || (scope.actorType !== "user" && scope.actorType !== "key")) return true;
  if (c.get("apiKey")?.organizationId === organizationId) return true;
  const ctx = c.get("auth");
  if (sessionUserId && (await isMemberOf(ctx, organizationId, sessionUserId))) return true;
  scope.userAgent = null;
  scope.details = scope.details.code === undefined ? {} : { code: scope.details.code };
  const caller = sessionUserId ? `user:${sessionUserId}` : `client:${rateLimitSubject(c.get("clientIp"))}`;
  return claimOnceAWindow(c, `audit-stranger|${caller}|${organizationId}`);
}

/** Claims `key` for the refusal window in the rate limiter's store; true when this request holds it. */
async function claimOnceAWindow(c: Context<AuthEnv>, key: string): Promise<boolean> {
  const ctx = c.get("auth");
  try {
    const decision = await ctx.rateLimitStore.hit(key, ctx.options.audit.refusalWindowSeconds, 1, ctx.now().getTime());
    return decision.allowed;
  } catch (error) {
    ctx.logger.warn("rate limit store unavailable; refusal audited unbounded", { error: String(error) });
    return true;
  }
}

/** A refused sign-in or sign-up names the address it tried (the account may not exist). */
function noteAttemptedEmail(c: Context<AuthEnv>, scope: AuditScope): void {
  if (scope.subjectId || !(scope.action === "user.sign_in" || scope.action === "user.sign_up")) return;
  const email = textIn(c.get("body"), "email");
  if (email) scope.details.email = email.toLowerCase();
}

async function writeOutcome(c: Context<AuthEnv>, scope: AuditScope, outcome: "success" | "failure"): Promise<void> {
  try {
    await auditOutcome(c.get("auth"), scope, outcome);
  } catch (error) {
    // The answer stands; a trail that cannot be written is an operator's alarm, not the caller's error.
    c.get("auth").logger.error("audit entry not written", { error: String(error), requestId: scope.requestId });
  }
}

/**
 * What the prelude and session tell the request's entry: the caller (an impersonating admin acts as
 * the admin), and the organization or user the input names.
 */
export function noteAuditCaller(
  c: Context<AuthEnv>,
  declared: AuditPolicy,
  caller: SessionWithUser | undefined,
  query: unknown,
): void {
  const scope = c.get("auth").audit;
  if (!scope) return;
  const body = c.get("body");
  const inInput = (field: string) => textIn(body, field) ?? textIn(query, field) ?? null;
  if (declared.organization) scope.organizationId ??= inInput(declared.organization);
  if (declared.subject) scope.subjectId ??= inInput(declared.subject);
  if (!caller) return;
  scope.sessionUserId = caller.user.id;
  const impersonator = caller.session.impersonatedBy;
  const key = c.get("apiKey");
  if (key) {
    // The key acted: it is named (id and name) and its organization's trail gets the entry.
    scope.actorType = "key";
    scope.actorId = key.id;
    scope.details.apiKeyName = key.name;
    if (key.userId) scope.details.apiKeyUserId = key.userId;
    scope.organizationId ??= key.organizationId;
  } else if (impersonator) {
    scope.actorType = "admin";
    scope.actorId = impersonator;
    scope.details.impersonating = caller.user.id;
  } else {
    scope.actorId = caller.user.id;
  }
  if (scope.action.startsWith("organization."))
    scope.sessionOrganizationId = caller.session.activeOrganizationId ?? null;
}

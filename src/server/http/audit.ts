import type { Context } from "hono";
import type { Endpoint } from "../../contract/endpoints/index.js";
import type { SessionWithUser } from "../../contract/models.js";
import { isAuthError } from "../errors.js";
import { type AuditScope, auditOutcome, currentAuditScope, runInAuditScope } from "../services/audit-trail.js";
import { type AuditDeclaration, isAdminEndpoint } from "./audited-endpoints.js";
import type { AuthEnv } from "./env.js";
import { requestId } from "./request-start.js";

const textIn = (value: unknown, key: string): string | undefined => {
  const found = (value as Record<string, unknown> | undefined)?.[key];
  return typeof found === "string" && found.length > 0 && found.length <= 200 ? found : undefined;
};

/**
 * Runs an audited endpoint's request (prelude and handler) in its audit scope, and writes what no
 * transaction wrote: a failure always (on its own: its change, if any, rolled back), a success that
 * made no change the outbox was told of.
 */
export async function runAudited(
  c: Context<AuthEnv>,
  endpoint: Endpoint,
  declared: AuditDeclaration,
  serve: () => Promise<Response>,
): Promise<Response> {
  const ctx = c.get("auth");
  const scope: AuditScope = {
    action: declared.action,
    whenChanged: declared.whenChanged === true,
    actorType: isAdminEndpoint(endpoint) ? "admin" : "user",
    actorId: null,
    subjectId: null,
    sessionUserId: null,
    organizationId: null,
    ipAddress: ctx.options.advanced.ipAddress.disableIpTracking ? null : c.get("clientIp"),
    userAgent: c.req.header("user-agent")?.slice(0, 512) ?? null,
    requestId: requestId(c),
    details: { ...declared.details },
    challenged: false,
    written: false,
  };
  let response: Response;
  try {
    response = await runInAuditScope(scope, serve);
  } catch (error) {
    scope.details.code = isAuthError(error) ? error.code : "INTERNAL_SERVER_ERROR";
    noteAttemptedEmail(c, scope);
    await writeOutcome(c, scope, "failure");
    throw error;
  }
  await writeOutcome(c, scope, response.status >= 400 ? "failure" : "success");
  return response;
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
export function noteAuditCaller(c: Context<AuthEnv>, caller: SessionWithUser | undefined, query: unknown): void {
  const scope = currentAuditScope();
  if (!scope) return;
  const body = c.get("body");
  scope.organizationId ??= textIn(body, "organizationId") ?? textIn(query, "organizationId") ?? null;
  if (scope.actorType === "admin") scope.subjectId ??= textIn(body, "userId") ?? null;
  if (!caller) return;
  scope.sessionUserId = caller.user.id;
  const impersonator = caller.session.impersonatedBy;
  if (impersonator) {
    scope.actorType = "admin";
    scope.actorId = impersonator;
    scope.details.impersonating = caller.user.id;
  } else {
    scope.actorId = caller.user.id;
  }
  if (scope.action.startsWith("organization.")) scope.organizationId ??= caller.session.activeOrganizationId ?? null;
}

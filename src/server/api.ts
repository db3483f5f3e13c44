import type { Hono } from "hono";
import { z } from "zod";
import { getSessionQuery } from "../contract/account.js";
import { apiEndpoints } from "../contract/endpoints/api-names.js";
import { organizationEndpoints, setupLinkEndpoints } from "../contract/endpoints/index.js";
import { addMemberInput } from "../contract/organization.js";
import { type CallInput, callThroughRoute, checkShape } from "./api-call.js";
import type { ServerApi } from "./api-types.js";
import { auditedSystemCall, noteAudit } from "./audit/trail.service.js";
import type { AuthContext } from "./context.js";
import { AuthError } from "./errors.js";
import type { AuthEnv } from "./http/env.js";
import { sessionFromHeaders } from "./http/header-session.js";
import { isRouted } from "./http/route.js";
import { addMember } from "./services/members.js";
import { createOrganization } from "./services/organizations.js";
import { setPassword } from "./services/passwords.js";
import { createSetupLink } from "./services/setup-links.js";
import { parseInput } from "./validation.js";

export type { ApiFunction, ApiInput, ApiReply, CallOptions, ServerApi, ServerOnlyApi } from "./api-types.js";

type Call = (input?: CallInput) => Promise<unknown>;

/**
 * `auth.api`: one call per endpoint of the table (docs/server-api.md), each run through its route
 * in process (api-call.ts), plus the calls that have no route. Four calls add a server's own path:
 * getSession reads without writing, createOrganization acts for a userId and createSetupLink for an
 * organizationId without headers, and the server-only ones act directly.
 */
export function createServerApi(ctx: AuthContext, app: Hono<AuthEnv>): ServerApi {
  const calls: Record<string, Call> = {};
  for (const [name, endpoint] of Object.entries(apiEndpoints)) calls[name] = callThroughRoute(ctx, app, name, endpoint);

  const viaRoute = {
    getSession: calls.getSession as Call,
    createOrganization: calls.createOrganization as Call,
    createSetupLink: calls.createSetupLink as Call,
  };

  /**
   * A page's or middleware's session check: what get-session answers, in one read and without a
   * write (no response to renew a cookie with). asResponse/returnHeaders run the route itself, which
   * may slide the session and hand back its renewed cookie.
   */
  calls.getSession = async (input = {}) => {
    checkShape("getSession", input);
    if (input.asResponse || input.returnHeaders) return viaRoute.getSession(input);
    const query = parseInput(getSessionQuery, stringFlags(input.query), "query");
    return input.headers ? sessionFromHeaders(ctx, input.headers, query) : null;
  };

  /** Without headers, the server creates the organization for `body.userId` (better-auth's server-only form). */
  calls.createOrganization = async (input = {}) => {
    checkShape("createOrganization", input);
    const body = input.body as { userId?: unknown } | undefined;
    if (input.headers !== undefined || input.asResponse || input.returnHeaders || body?.userId === undefined) {
      return viaRoute.createOrganization(input);
    }
    const endpoint = organizationEndpoints.createOrganization;
    if (!isRouted(endpoint, ctx)) throw new AuthError("NOT_FOUND");
    const fields = parseInput(endpoint.body, body, "body");
    const created = await wakingWebhooks(ctx, () =>
      auditedSystemCall(ctx, "organization.created", (audited) => createOrganization(audited, null, fields)),
    );
    return created.organization;
  };

  /** Without headers, the server creates a setup link for `body.organizationId` (docs/sso.md, "Let the customer set it up"). */
  calls.createSetupLink = async (input = {}) => {
    checkShape("createSetupLink", input);
    if (input.headers !== undefined || input.asResponse || input.returnHeaders) return viaRoute.createSetupLink(input);
    const endpoint = setupLinkEndpoints.createSetupLink;
    if (!isRouted(endpoint, ctx)) throw new AuthError("NOT_FOUND");
    const fields = parseInput(endpoint.body, input.body, "body");
    return wakingWebhooks(ctx, () =>
      auditedSystemCall(ctx, "organization.setup_link_created", (audited) => createSetupLink(audited, null, fields)),
    );
  };

  calls.addMember = async (input) => {
    checkShape("addMember", input);
    const fields = parseInput(addMemberInput, input?.body, "body");
    return wakingWebhooks(ctx, () =>
      auditedSystemCall(ctx, "organization.member_added", (audited) => addMember(audited, fields)),
    );
  };

  calls.setPassword = async (input) => {
    checkShape("setPassword", input);
    const { userId, newPassword } = parseInput(setPasswordBody, input?.body, "body");
    await wakingWebhooks(ctx, () =>
      auditedSystemCall(ctx, "user.password_changed", async (audited) => {
        noteAudit(audited, { subjectId: userId });
        await setPassword(audited, userId, newPassword);
      }),
    );
    return { status: true };
  };

  return calls as unknown as ServerApi;
}

const setPasswordBody = z.object({ userId: z.string().min(1), newPassword: z.string() });

/** getSession's flags as the URL would carry them (false: left out). */
function stringFlags(query: Record<string, unknown> = {}): Record<string, string> {
  const flags: Record<string, string> = {};
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== false) flags[key] = String(value);
  return flags;
}

/** As at each request's end: once the call's transactions committed, its queued webhooks go out at once. */
async function wakingWebhooks<T>(ctx: AuthContext, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } finally {
    ctx.webhooks.wakeIfQueued();
  }
}

import type { Context, Hono, MiddlewareHandler } from "hono";
import type { Parsed, ReplyOf } from "../../contract/endpoints/define.js";
import type { Endpoint, Feature } from "../../contract/endpoints/index.js";
import type { SessionWithUser } from "../../contract/models.js";
import type { SetupScope } from "../../contract/setup-links.js";
import { noteAuditCaller, refusingStep, runAudited, runRefusalAudited } from "../audit/request.http.js";
import { type AuthContext, requestContext } from "../context.js";
import { AuthError } from "../errors.js";
import type { ScimConnectionRow } from "../scim/connections.service.js";
import { authenticateDirectory, parseScimBody, scimRefusal } from "../scim/protocol.http.js";
import { authenticateApiKey, keyInHeaders, keySession } from "../services/api-key-verification.js";
import type { SetupLinkCaller } from "../services/caller.js";
import { guardCredentialChange } from "../services/credential-guard.js";
import {
  actedInOrganization,
  enforceOrganizationPolicy,
  organizationStanding,
  type Standing,
} from "../services/organization-policy.js";
import type { CallerRead, RowsOf } from "../services/sessions.js";
import { parseInput } from "../validation.js";
import { parseBody } from "./body.js";
import { hookContext, runAfterHook, runBeforeHook } from "./endpoint-hooks.js";
import type { AuthEnv, RequestStep } from "./env.js";
import { readBody, readQuery } from "./input.js";
import { checkInputBounds, checkUrlBounds } from "./input-bounds.js";
import { continueOAuthAfterSignIn } from "./oauth-continue.js";
import { checkRedirectTargets, originCheck } from "./origin-check.js";
import { createRateLimit } from "./rate-limit.js";
import { startingRequest } from "./request-start.js";
import { isServerCall } from "./server-call.js";
import { requireSession, requireSessionWith } from "./session.js";
import { requireSetupLink } from "./setup-link.js";

/**
 * Who called, as the entry's policy says it is proven: a session (or, where the table accepts keys,
 * an API key acting as one) when the policy requires one; the SCIM connection whose bearer token
 * called (policy `directory`); the live setup link granting one of the policy's scopes. A handler
 * always calls it `caller`.
 */
export type CallerOf<P> = P extends { session: "required" | "fresh" }
  ? SessionWithUser
  : P extends { directory: true }
    ? ScimConnectionRow
    : P extends { setupLink: readonly SetupScope[] }
      ? SetupLinkCaller
      : undefined;

/**
 * What a handler receives: the parsed body and query, the caller its policy requires, and the rows
 * its route's `reads` named, read in the same statement as the session.
 */
export interface Input<E extends Endpoint, R extends CallerRead | null = null> {
  body: Parsed<E["body"]>;
  query: Parsed<E["query"]>;
  caller: CallerOf<E["policy"]>;
  rows: R extends CallerRead ? RowsOf<R> | (null extends R ? undefined : never) : undefined;
  /**
   * For an endpoint whose policy says `organizationRules: "state"`: how the caller's session stands
   * with the policy of the organization the request names (null: it has none).
   */
  standing?: Standing | null;
}

/** A reply already made into JSON (a cookie cache's copy): sent as it is. */
export class JsonReply {
  constructor(readonly json: string) {}
}

/**
 * A reply's timestamps as a handler may give them: a Date, or the ISO 8601 text JSON makes of it
 * (the hot reads' rows keep the text they were read as).
 */
export type TimestampsAsText<T> = T extends Date
  ? Date | string
  : T extends readonly (infer U)[]
    ? TimestampsAsText<U>[]
    : T extends object
      ? { [K in keyof T]: TimestampsAsText<T[K]> }
      : T;

/** What a handler may answer for an endpoint: its reply, timestamps as Dates or text. */
type Answer<E extends Endpoint> = TimestampsAsText<ReplyOf<E>>;

/**
 * A handler returns its reply (answered as JSON, status 200), the same already as JSON, or a Response
 * of its own (redirects, pages).
 */
export type Handler<E extends Endpoint, R extends CallerRead | null = null> = (
  c: Context<AuthEnv>,
  input: Input<E, R>,
) => Answer<E> | JsonReply | Response | Promise<Answer<E> | JsonReply | Response>;

/** What a route may add to its handler. */
export interface RouteExtras<E extends Endpoint, R extends CallerRead | null> {
  /** Wraps a handler that serves HTML (its security headers). */
  page?: MiddlewareHandler;
  /**
   * A signed-in read's rows for this input, read in the statement that finds the session (one
   * round trip); null: this input reads nothing with the session (the handler reads its own).
   */
  reads?: (ctx: AuthContext, query: Parsed<E["query"]>) => R;
}

/** Registers one endpoint of the table with its handler; the table decides method, path and prelude. */
export type Route = <E extends Endpoint, R extends CallerRead | null = null>(
  endpoint: E,
  handler: Handler<E, R>,
  extras?: RouteExtras<E, R>,
) => void;

/** Whether each feature's endpoints are routed: options are fixed at start-up, so an off switch is a 404. */
function featureSwitches(ctx: AuthContext): Record<Feature, boolean> {
  const { options } = ctx;
  return {
    admin: options.admin.enabled,
    jwt: options.jwt.enabled,
    anonymous: options.anonymous.enabled,
    oneTap: options.oneTap.enabled,
    deleteUser: options.user.deleteUser.enabled,
    organization: options.organization.enabled,
    teams: options.organization.enabled && options.organization.teams.enabled,
    developmentOutbox: ctx.devOutbox,
    twoFactor: options.twoFactor.enabled,
    magicLink: options.magicLink.enabled,
    emailOTP: options.emailOTP.enabled,
    passkey: options.passkey.enabled,
    scim: options.organization.enabled && options.scim.enabled,
    // Connections belong to organizations: without them there is nothing to sign in to.
    sso: options.sso.enabled && options.organization.enabled,
    securityActivity: options.securityActivity.enabled,
    organizationWebhooks: options.organization.enabled && options.organizationWebhooks.enabled,
    apiKey: options.apiKey.enabled,
    oauthProvider: options.oauthProvider.enabled,
    // Every client in the admin area: both switches.
    oauthProviderAdmin: options.oauthProvider.enabled && options.admin.enabled,
    // A setup link configures connections or a directory: there is nothing to hand out without one.
    setupLinks: options.organization.enabled && (options.sso.enabled || options.scim.enabled),
  };
}

/** The areas whose signed-in endpoints act in an organization (organization policy applies). */
const ORGANIZATION_AREAS: ReadonlySet<Feature> = new Set<Feature>([
  "organization",
  "teams",
  "sso",
  "scim",
  "organizationWebhooks",
  "setupLinks",
]);

/**
 * How organization policy applies to an endpoint: `enforce` (it acts in an organization), `state`
 * (it reports the caller's standing), or `exempt`. Decided once, at start-up.
 */
function organizationRulesOf(endpoint: Endpoint): "enforce" | "state" | "exempt" {
  const { session, feature, organizationRules } = endpoint.policy;
  if (!session || feature === undefined || !ORGANIZATION_AREAS.has(feature)) return "exempt";
  return organizationRules ?? "enforce";
}

const SESSION_ONLY = { rows: "none" } as const;

/** Whether an endpoint is routed with these options. */
export function isRouted(endpoint: Endpoint, ctx: AuthContext): boolean {
  return endpoint.policy.feature === undefined || featureSwitches(ctx)[endpoint.policy.feature];
}

/**
 * The steps before a handler, in this order: rate limit -> body -> input bounds -> origin and
 * redirect checks. Each endpoint's steps are chosen once, at start-up, from its policy: no lookup
 * per request. A server call (auth.api, http/server-call.ts) is trusted, as better-auth's server
 * API is: no rate limit and no browser origin check; its redirect targets are still checked.
 */
function preludeFor(endpoint: Endpoint, ctx: AuthContext, via: "client" | "server"): RequestStep[] {
  // With auditing on, the rate limiter's and the origin check's refusals are marked to be audited.
  const refusing = via === "client" && ctx.options.audit.enabled ? refusingStep : (step: RequestStep) => step;
  const rateLimit = via === "client" ? createRateLimit(endpoint, ctx.options.rateLimit) : null;
  const steps: RequestStep[] = rateLimit ? [refusing(rateLimit, "rate-limit")] : [];
  // A directory's bearer token stands for the session; its body is SCIM's (bounded by the SCIM services).
  if (endpoint.policy.directory) steps.push(refusing(authenticateDirectory, "token"));
  if (!takesBody(endpoint)) steps.push(checkUrlBounds);
  else if (endpoint.policy.directory) steps.push(parseScimBody);
  else steps.push(parseBody(endpoint.policy.form === true), checkInputBounds);
  steps.push(via === "client" ? refusing(originCheck(endpoint.policy.origin), "origin") : checkRedirectTargets);
  return steps;
}

const NO_BODY: Record<string, unknown> = Object.freeze({});

/** POST, PUT and PATCH carry a body; any other method's is the empty NO_BODY. */
const takesBody = (endpoint: Endpoint) =>
  endpoint.method === "POST" || endpoint.method === "PUT" || endpoint.method === "PATCH";

/** The `password` a credential route's body may carry as its proof of identity (better-auth's two-factor wire). */
function passwordIn(body: unknown): string | undefined {
  const password = (body as { password?: unknown } | undefined)?.password;
  return typeof password === "string" ? password : undefined;
}

/**
 * Under test every JSON reply is also checked against its reply schema at run time, so the OpenAPI
 * document cannot drift from what the server sends (types alone miss casts and `any`).
 */
const CHECK_REPLIES = process.env.GATEHOUSE_CHECK_REPLIES === "1";

/** Exactly what JSON.stringify makes of a Date. */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Whether an issue is only a timestamp given as ISO text (TimestampsAsText), which JSON sends alike. */
function isTimestampText(reply: unknown, issue: { code: string; path: PropertyKey[]; expected?: unknown }): boolean {
  if (issue.code !== "invalid_type" || issue.expected !== "date") return false;
  let value = reply;
  for (const key of issue.path) value = (value as Record<PropertyKey, unknown> | null)?.[key];
  return typeof value === "string" && ISO_TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value));
}

function assertReplyMatches(endpoint: Endpoint, reply: unknown): void {
  if (!endpoint.reply) throw new Error(`${endpoint.method} ${endpoint.path} has no JSON reply but answered one`);
  const result = endpoint.reply.safeParse(reply);
  if (!result.success && !result.error.issues.every((issue) => isTimestampText(reply, issue))) {
    throw new Error(`${endpoint.method} ${endpoint.path} answered outside its reply schema: ${result.error.message}`);
  }
}

/**
 * The JSON of frozen replies (kept pages, sent again unchanged): made once each. A frozen reply's
 * parts must not change either.
 */
const keptJson = new WeakMap<object, string>();

const isKept = (reply: unknown): reply is object =>
  typeof reply === "object" && reply !== null && Object.isFrozen(reply);

function sendKept(c: Context<AuthEnv>, reply: object): Response {
  let json = keptJson.get(reply);
  if (json === undefined) {
    json = JSON.stringify(reply);
    keptJson.set(reply, json);
  }
  return c.body(json, 200, { "Content-Type": "application/json" });
}

export function createRoute(app: Hono<AuthEnv>, ctx: AuthContext): Route {
  const switches = featureSwitches(ctx);
  return (endpoint, handler, { page, reads } = {}) => {
    if (endpoint.policy.feature !== undefined && !switches[endpoint.policy.feature]) return;
    const prelude = preludeFor(endpoint, ctx, "client");
    const serverPrelude = preludeFor(endpoint, ctx, "server");
    const sessionRule = endpoint.policy.session;
    const fresh = sessionRule === "fresh";
    const credentials = endpoint.policy.credentials;
    const hooks = ctx.hooks;
    const audit = ctx.options.audit.enabled ? endpoint.audit : undefined;
    const organizationRules = organizationRulesOf(endpoint);
    const continuesOAuth = ctx.options.oauthProvider.enabled && endpoint.policy.origin === "login";
    const withRules = organizationRules !== "exempt";
    const keysOn = ctx.options.apiKey.enabled;
    const acceptsKeys = endpoint.policy.apiKeys === "accepted";
    const setupScopes = endpoint.policy.setupLink;
    const answer = async (c: Context<AuthEnv>, changedQuery?: Record<string, string>): Promise<Response> => {
      // A key is the caller only where the table accepts keys; anywhere else a request with one is refused.
      const key = keysOn ? keyInHeaders(ctx, (name) => c.req.header(name)) : null;
      let byKey = false;
      if (key !== null) {
        if (!acceptsKeys) throw new AuthError("API_KEY_NOT_ACCEPTED");
        const from = ctx.options.advanced.ipAddress.disableIpTracking ? null : c.get("clientIp");
        const row = await authenticateApiKey(c.get("auth"), key, undefined, from);
        c.set("apiKey", row);
        // The request's own context carries the key, so organization permission checks ask it.
        c.set("auth", requestContext(c.get("auth"), { apiKeyCaller: row }));
        c.set("session", keySession(row));
        byKey = true;
      }
      const body = endpoint.body ? readBody(c, endpoint.body) : undefined;
      const query = endpoint.query
        ? changedQuery
          ? parseInput(endpoint.query, changedQuery, "query")
          : readQuery(c, endpoint.query)
        : undefined;
      const read = sessionRule && reads && !byKey ? reads(ctx, query as never) : null;
      // A route acting in an organization reads what its policy needs in the session's own statement.
      const withRows = read
        ? await requireSessionWith(c, read, { fresh, rules: withRules })
        : withRules && c.get("session") === undefined
          ? await requireSessionWith(c, SESSION_ONLY, { fresh, rules: true })
          : null;
      const input = {
        body,
        query,
        caller: withRows
          ? withRows.caller
          : sessionRule
            ? await requireSession(c, { fresh })
            : (c.get("directory") ?? undefined),
        rows: withRows?.rows,
      } as Input<typeof endpoint>;
      // The caller as a person (a session, or a key acting as one), for the steps that speak of people.
      const person = sessionRule ? (input.caller as SessionWithUser) : undefined;
      if (audit) noteAuditCaller(c, audit, person, query);
      // After noteAuditCaller: the link's organization, not one the input names, gets the entry.
      if (setupScopes) (input as { caller?: SetupLinkCaller }).caller = await requireSetupLink(c, setupScopes);
      // Organization policy speaks of people (second factors, SSO): a key's permissions decide for it.
      if (withRules && person && !byKey) {
        const actedIn = actedInOrganization(
          endpoint.policy.feature,
          [body, query],
          person.session.activeOrganizationId,
        );
        // The request's context: an audited request's carries its scope (audit/request.http.ts).
        const requestCtx = c.get("auth");
        if (organizationRules === "enforce")
          await enforceOrganizationPolicy(requestCtx, person, withRows?.rules, actedIn);
        else input.standing = await organizationStanding(requestCtx, person, withRows?.rules, actedIn);
      }
      if (credentials && person && !byKey) {
        await guardCredentialChange(c.get("auth"), person, credentials, passwordIn(body));
      }
      const reply = await handler(c, input as never);
      if (reply instanceof Response) return reply;
      if (reply instanceof JsonReply) {
        if (CHECK_REPLIES) assertReplyMatches(endpoint, JSON.parse(reply.json));
        return c.body(reply.json, 200, { "Content-Type": "application/json" });
      }
      if (CHECK_REPLIES) assertReplyMatches(endpoint, reply);
      return isKept(reply) ? sendKept(c, reply) : c.json(reply as object);
    };
    const servePlain = async (c: Context<AuthEnv>) => {
      if (!takesBody(endpoint)) c.set("body", NO_BODY);
      for (const step of isServerCall(c) ? serverPrelude : prelude) {
        // Most steps are synchronous (bounds, origin): awaiting only a promise saves a turn each.
        const pending = step(c);
        if (pending) await pending;
      }
      // Awaited, not returned: an async function resolving with a promise takes two more turns.
      if (!hooks) return await answer(c);
      // The app's endpoint hooks (createAuth's `hooks`): after the prelude, around the handler.
      const hookCtx = await hookContext(c, endpoint);
      const changedQuery = hooks.before ? await runBeforeHook(c, hooks.before, hookCtx) : undefined;
      const response = await answer(c, changedQuery);
      return hooks.after ? runAfterHook(hooks.after, hookCtx, response) : response;
    };
    // A sign-in from a login page the OAuth provider sent the user to carries on the authorization.
    const serveOnce = continuesOAuth
      ? async (c: Context<AuthEnv>) => continueOAuthAfterSignIn(c, await servePlain(c))
      : servePlain;
    // An audited endpoint's prelude and handler run in its audit scope (audit/request.http.ts); any other
    // endpoint's refusals by the rate limiter or the origin check are audited too.
    const audited = audit
      ? (c: Context<AuthEnv>) => runAudited(c, endpoint, audit, () => serveOnce(c))
      : ctx.options.audit.enabled
        ? (c: Context<AuthEnv>) => runRefusalAudited(c, endpoint, () => serveOnce(c))
        : serveOnce;
    // A SCIM route answers its refusals in SCIM's format, after the audit saw them.
    const serve = endpoint.policy.directory
      ? (c: Context<AuthEnv>) => audited(c).catch((error: unknown) => scimRefusal(c, error))
      : audited;
    // Each API route is one handler, which Hono calls directly (no middleware chain composed per
    // request); a page's security headers wrap it, started first as before.
    if (page) app.on(endpoint.method, endpoint.path, startingRequest(ctx, endpoint, page), serve);
    else app.on(endpoint.method, endpoint.path, startingRequest(ctx, endpoint, serve));
  };
}

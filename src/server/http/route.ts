import type { Context, Hono, MiddlewareHandler } from "hono";
import type { Parsed, ReplyOf } from "../../contract/endpoints/define.js";
import type { Endpoint, Feature } from "../../contract/endpoints/index.js";
import type { SessionWithUser } from "../../contract/models.js";
import type { AuthContext } from "../context.js";
import { guardCredentialChange } from "../services/credential-guard.js";
import type { CallerSessionRead } from "../store/caller-session.js";
import { parseBody } from "./body.js";
import type { AuthEnv, RequestStep } from "./env.js";
import { readBody, readQuery } from "./input.js";
import { checkInputBounds, checkUrlBounds } from "./input-bounds.js";
import { originCheck } from "./origin-check.js";
import { createRateLimit } from "./rate-limit.js";
import { startingRequest } from "./request-start.js";
import { requireSession, requireSessionWith } from "./session.js";

/** What a handler receives: the parsed body and query, and the session when the policy requires one. */
export interface Input<E extends Endpoint> {
  body: Parsed<E["body"]>;
  query: Parsed<E["query"]>;
  session: E["policy"] extends { session: "required" | "fresh" } ? SessionWithUser : undefined;
}

/** A reply already made into JSON (a kept members page, a cookie cache's copy): sent as it is. */
export class JsonReply {
  constructor(readonly json: string) {}
}

/**
 * A handler returns its reply (answered as JSON, status 200), the same already as JSON, or a Response
 * of its own (redirects, pages).
 */
export type Handler<E extends Endpoint> = (
  c: Context<AuthEnv>,
  input: Input<E>,
) => ReplyOf<E> | JsonReply | Response | Promise<ReplyOf<E> | JsonReply | Response>;

/**
 * A signed-in read answered in one round trip: `read` names the route's rows for this input, read in
 * the session lookup's own statement (null: this input takes the handler, session first), and
 * `answer` makes the reply from them, as the handler would from its own read.
 */
export interface JoinedRead<E extends Endpoint, Row> {
  read: (ctx: AuthContext, query: Parsed<E["query"]>) => CallerSessionRead<Row> | null;
  answer: (
    c: Context<AuthEnv>,
    input: Input<E>,
    rows: Row[],
  ) => ReplyOf<E> | JsonReply | Promise<ReplyOf<E> | JsonReply>;
}

/** What a route may add to its handler: `page` wraps one that serves HTML (its security headers). */
export interface RouteExtras<E extends Endpoint> {
  page?: MiddlewareHandler;
  /** Each route's rows are its own type; its read and answer agree on it. */
  joined?: JoinedRead<E, any>;
}

/** Registers one endpoint of the table with its handler; the table decides method, path and prelude. */
export type Route = <E extends Endpoint>(endpoint: E, handler: Handler<E>, extras?: RouteExtras<E>) => void;

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
    developmentOutbox: ctx.mail.transportName === "development" && process.env.NODE_ENV !== "production",
    twoFactor: options.twoFactor.enabled,
    magicLink: options.magicLink.enabled,
    emailOTP: options.emailOTP.enabled,
    passkey: options.passkey.enabled,
  };
}

/** Whether an endpoint is routed with these options. */
export function isRouted(endpoint: Endpoint, ctx: AuthContext): boolean {
  return endpoint.policy.feature === undefined || featureSwitches(ctx)[endpoint.policy.feature];
}

/**
 * The steps before a handler, in this order: rate limit -> body -> input bounds -> origin and
 * redirect checks. Each endpoint's steps are chosen once, at start-up, from its policy: no lookup
 * per request.
 */
function preludeFor(endpoint: Endpoint, ctx: AuthContext): RequestStep[] {
  const rateLimit = createRateLimit(endpoint, ctx.options.rateLimit);
  const steps: RequestStep[] = rateLimit ? [rateLimit] : [];
  // Only a POST has a body to parse and bound; any other method's is the empty NO_BODY.
  if (endpoint.method === "POST") steps.push(parseBody(endpoint.policy.form === true), checkInputBounds);
  else steps.push(checkUrlBounds);
  steps.push(originCheck(endpoint.policy.origin));
  return steps;
}

const NO_BODY: Record<string, unknown> = Object.freeze({});

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

export function createRoute(app: Hono<AuthEnv>, ctx: AuthContext): Route {
  const switches = featureSwitches(ctx);
  return (endpoint, handler, { page, joined } = {}) => {
    if (endpoint.policy.feature !== undefined && !switches[endpoint.policy.feature]) return;
    const prelude = preludeFor(endpoint, ctx);
    const sessionRule = endpoint.policy.session;
    const fresh = sessionRule === "fresh";
    const credentials = endpoint.policy.credentials;
    const serve = async (c: Context<AuthEnv>) => {
      if (endpoint.method !== "POST") c.set("body", NO_BODY);
      for (const step of prelude) {
        // Most steps are synchronous (bounds, origin): awaiting only a promise saves a turn each.
        const pending = step(c);
        if (pending) await pending;
      }
      const body = endpoint.body ? readBody(c, endpoint.body) : undefined;
      const query = endpoint.query ? readQuery(c, endpoint.query) : undefined;
      const read = sessionRule && joined ? joined.read(ctx, query as never) : null;
      const withRows = read ? await requireSessionWith(c, read, { fresh }) : null;
      const input = {
        body,
        query,
        session: withRows ? withRows.data : sessionRule ? await requireSession(c, { fresh }) : undefined,
      } as Input<typeof endpoint>;
      if (credentials && input.session) {
        await guardCredentialChange(ctx, input.session as SessionWithUser, credentials, passwordIn(body));
      }
      const reply = withRows && joined ? await joined.answer(c, input, withRows.rows) : await handler(c, input);
      if (reply instanceof Response) return reply;
      if (reply instanceof JsonReply) {
        if (CHECK_REPLIES) assertReplyMatches(endpoint, JSON.parse(reply.json));
        return c.body(reply.json, 200, { "Content-Type": "application/json" });
      }
      if (CHECK_REPLIES) assertReplyMatches(endpoint, reply);
      return c.json(reply as object);
    };
    // Each API route is one handler, which Hono calls directly (no middleware chain composed per
    // request); a page's security headers wrap it, started first as before.
    if (page) app.on(endpoint.method, endpoint.path, startingRequest(ctx, page), serve);
    else app.on(endpoint.method, endpoint.path, startingRequest(ctx, serve));
  };
}

import type { z } from "zod";
import type { SignInEmailBody, SignUpEmailBody } from "../contract/account.js";
import type { createUserBody } from "../contract/admin.js";
import type { Endpoint } from "../contract/endpoints/define.js";
import { accountEndpoints, adminEndpoints, organizationEndpoints } from "../contract/endpoints/index.js";
import type { ListedSession, Member, Organization, Session, SessionWithUser, User } from "../contract/models.js";
import { type AddMemberInput, addMemberInput } from "../contract/organization.js";
import type { TwoFactorRedirectReply } from "../contract/two-factor.js";
import type { AuthContext } from "./context.js";
import { AuthError } from "./errors.js";
import { type HeaderSessionOptions, type RequestHeaders, sessionFromHeaders } from "./http/header-session.js";
import { isRouted } from "./http/route.js";
import { requestMetaFromHeaders } from "./http/session.js";
import type { AdminActor } from "./services/admin-access.js";
import { createUserAsAdmin, listUserSessionsAsAdmin, revokeUserSessionsAsAdmin } from "./services/admin-users.js";
import { signInEmail, signUpEmail } from "./services/email-password.js";
import { addMember, hasPermission } from "./services/members.js";
import { createOrganization } from "./services/organizations.js";
import { setPassword } from "./services/passwords.js";
import { TwoFactorRequired } from "./services/sessions.js";
import { twoFactorMethods } from "./services/two-factor.js";
import { parseInput } from "./validation.js";

/**
 * The caller's request headers, for calls made on behalf of a browser: the Cookie header carries
 * their session (signed, as the routes read it); User-Agent and the configured proxy IP headers are
 * recorded on a new session. Pass `request.headers` as they are.
 */
export interface CallerHeaders {
  headers?: HeadersInit;
}

/** A call that acts as the signed-in caller: their headers are required. */
export interface SignedInCaller {
  headers: HeadersInit;
}

/** The app's own user fields (user.additionalFields) ride along; the server may set input:false ones. */
export type SignUpEmailInput = SignUpEmailBody & CallerHeaders & { [field: string]: unknown };
export type SignInEmailInput = SignInEmailBody & CallerHeaders;
export type CreateUserInput = z.input<typeof createUserBody> & SignedInCaller;
/** The app's own organization fields ride along; the server may set input:false ones. */
export type CreateOrganizationInput = z.input<typeof organizationEndpoints.createOrganization.body> &
  CallerHeaders & { [field: string]: unknown };
export type HasPermissionInput = {
  organizationId?: string;
  permissions: Record<string, string[]>;
} & SignedInCaller;

/** sign-up: the session token is null when the user must verify their email first or autoSignIn is off. */
export interface SignUpEmailResult {
  token: string | null;
  user: User;
  session: Session | null;
}

/** sign-in: a session, or (for a user with two-factor on, from an untrusted device) the second-factor answer. */
export type SignInEmailResult =
  | { redirect: boolean; token: string; url?: string; user: User; session: Session }
  | TwoFactorRedirectReply;

/**
 * Calls for the embedding server, in process (no HTTP round trip). Each takes one plain object: the
 * fields of the matching route's JSON body, plus `headers` where a caller's session or request
 * matters. Each checks its input with the route's schema, applies the same rules, answers what the
 * route answers and throws AuthError with the code (and status) the route would send. Calls whose
 * route is switched off by the options throw NOT_FOUND (404), as the route does.
 */
export interface ServerApi {
  /** POST /sign-up/email. `headers` (optional): a guest (anonymous) session there hands its work over. */
  signUpEmail(input: SignUpEmailInput): Promise<SignUpEmailResult>;
  /**
   * POST /sign-in/email: the session token (set your own cookie with it, or send it as the signed
   * session cookie) and the user; `{twoFactorRedirect: true}` for a user who owes a second factor,
   * which they complete through the HTTP sign-in flow. EMAIL_NOT_VERIFIED, BANNED_USER and
   * INVALID_EMAIL_OR_PASSWORD as the route.
   */
  signInEmail(input: SignInEmailInput): Promise<SignInEmailResult>;
  /** POST /admin/create-user, as the admin whose session the headers carry. */
  createUser(input: CreateUserInput): Promise<{ user: User }>;
  /** POST /admin/list-user-sessions, as the admin whose session the headers carry. */
  listUserSessions(input: { userId: string } & SignedInCaller): Promise<{ sessions: ListedSession[] }>;
  /** POST /admin/revoke-user-sessions, as the admin whose session the headers carry. */
  revokeUserSessions(input: { userId: string } & SignedInCaller): Promise<{ success: true }>;
  /**
   * POST /organization/create. With `headers`: for that session's user, and it becomes the session's
   * active organization. Without: for `userId` (required then), the server acting for that user.
   */
  createOrganization(input: CreateOrganizationInput): Promise<Organization & { members: Member[] }>;
  /** POST /organization/has-permission: whether the caller's role in the organization grants every permission. */
  hasPermission(input: HasPermissionInput): Promise<{ error: null; success: boolean }>;
  /** Adds an existing user to an organization (WIRE 8.2: server only, 404 over HTTP). */
  addMember(input: AddMemberInput): Promise<Member>;
  /** Gives a user without a credential password one; USER_ALREADY_HAS_PASSWORD when they have one. */
  setPassword(userId: string, newPassword: string): Promise<{ status: true }>;
  /**
   * The session GET /get-session would answer for these request headers (their Cookie), or null; one
   * call, no HTTP. For a server's own pages and middleware: `auth.api.getSession({ headers: request.headers })`.
   */
  getSession(input: { headers: RequestHeaders; query?: HeaderSessionOptions }): Promise<SessionWithUser | null>;
}

export function createServerApi(ctx: AuthContext): ServerApi {
  /** The route's body schema applied to the call's fields (without headers): the same 400 VALIDATION_ERROR. */
  const body = <S extends z.ZodType>(endpoint: Endpoint & { body: S }, input: object): z.output<S> => {
    if (!isRouted(endpoint, ctx)) throw new AuthError("NOT_FOUND");
    const { headers: _headers, ...fields } = input as CallerHeaders;
    return parseInput(endpoint.body, fields, "body");
  };
  const headersOf = (input: CallerHeaders) => new Headers(input.headers);
  // Read from the database as the routes do: a cookie cache could still carry a role or ban since changed.
  const callerOf = async (input: CallerHeaders): Promise<SessionWithUser | null> =>
    input.headers ? sessionFromHeaders(ctx, headersOf(input), { disableCookieCache: true }) : null;
  /** The caller's session, or 401 UNAUTHORIZED as a route with a required session answers. */
  const requireCaller = async (input: CallerHeaders): Promise<SessionWithUser> => {
    const caller = await callerOf(input);
    if (!caller) throw new AuthError("UNAUTHORIZED");
    return caller;
  };
  const adminActor = async (input: CallerHeaders): Promise<AdminActor> => ({
    user: (await requireCaller(input)).user,
    meta: requestMetaFromHeaders(ctx, headersOf(input)),
  });

  return wakeWebhooksAfterEachCall(ctx, {
    async signUpEmail(input) {
      const fields = body(accountEndpoints.signUpEmail, input);
      const rememberMe = fields.rememberMe ?? true;
      const guest = await callerOf(input);
      const meta = requestMetaFromHeaders(ctx, headersOf(input));
      // meta carries the caller's language (accept-language): a verification mail speaks it.
      // The server may set the app's input:false fields too.
      const additional = { from: input, source: "server" as const };
      const result = await signUpEmail(ctx, { ...fields, rememberMe, guest, additional }, meta);
      return { token: result.session?.token ?? null, user: result.user, session: result.session };
    },

    async signInEmail(input) {
      const fields = body(accountEndpoints.signInEmail, input);
      const rememberMe = fields.rememberMe ?? true;
      const guest = await callerOf(input);
      const meta = requestMetaFromHeaders(ctx, headersOf(input));
      let result: Awaited<ReturnType<typeof signInEmail>>;
      try {
        result = await signInEmail(ctx, { ...fields, rememberMe, guest }, meta);
      } catch (error) {
        // No browser to hold a challenge cookie here: the answer only says a second factor is owed.
        if (error instanceof TwoFactorRequired) return twoFactorMethods(ctx, error.userId);
        throw error;
      }
      if (result.status === "email-not-verified") throw new AuthError("EMAIL_NOT_VERIFIED");
      const { callbackURL } = fields;
      return {
        redirect: Boolean(callbackURL),
        token: result.session.token,
        ...(callbackURL ? { url: callbackURL } : {}),
        user: result.user,
        session: result.session,
      };
    },

    async createUser(input) {
      const fields = body(adminEndpoints.createUser, input);
      return { user: await createUserAsAdmin(ctx, await adminActor(input), fields) };
    },

    async listUserSessions(input) {
      const { userId } = body(adminEndpoints.listUserSessions, input);
      return { sessions: await listUserSessionsAsAdmin(ctx, await adminActor(input), userId) };
    },

    async revokeUserSessions(input) {
      const { userId } = body(adminEndpoints.revokeUserSessions, input);
      await revokeUserSessionsAsAdmin(ctx, await adminActor(input), userId);
      return { success: true };
    },

    async createOrganization(input) {
      const fields = body(organizationEndpoints.createOrganization, input);
      // Headers that carry no live session are refused, never read as "the server acting".
      const caller = input.headers ? await requireCaller(input) : null;
      const additional = { from: input, source: "server" as const };
      const result = await createOrganization(ctx, caller?.session ?? null, { ...fields, additional });
      return result.organization;
    },

    async hasPermission(input) {
      const fields = body(organizationEndpoints.hasPermission, input);
      const { session } = await requireCaller(input);
      const permissions = fields.permissions ?? fields.permission ?? {};
      const success = await hasPermission(ctx, session, { organizationId: fields.organizationId, permissions });
      return { error: null, success };
    },

    async addMember(input) {
      return addMember(ctx, parseInput(addMemberInput, input, "input"));
    },

    async setPassword(userId, newPassword) {
      await setPassword(ctx, userId, newPassword);
      return { status: true };
    },
    getSession({ headers, query }) {
      return sessionFromHeaders(ctx, headers, query);
    },
  });
}

/**
 * What the HTTP app does at each request's end: once a call's transactions have committed, the
 * webhooks it queued are delivered at once instead of at the outbox's next poll.
 */
function wakeWebhooksAfterEachCall(ctx: AuthContext, api: ServerApi): ServerApi {
  const calls = api as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const [name, call] of Object.entries(calls)) {
    calls[name] = async (...args) => {
      try {
        return await call(...args);
      } finally {
        ctx.webhooks.wakeIfQueued();
      }
    };
  }
  return api;
}

import type { HttpMethod } from "../contract/endpoints/index.js";
import type { Member, Organization, SessionWithUser, User } from "../contract/models.js";
import { ConfigError } from "./options.js";
import type { OrganizationPatch } from "./store/organizations.js";
import type { NewSession, RevokedSessionRow, SessionRow } from "./store/sessions.js";
import type { NewUser, UserPatch } from "./store/users.js";

export type { OrganizationPatch, UserPatch };

/**
 * Hooks an app gives createAuth in code (functions, so never in AUTH_CONFIG's JSON): around every
 * endpoint (`hooks`) and around the writes of users, sessions, accounts, organizations and members
 * (`databaseHooks`), named as better-auth names them. docs/hooks.md tells what each one sees.
 */

type Awaitable<T> = T | Promise<T>;
/** What a hook may answer: a change, or nothing (a function without `return` is the common case). */
// biome-ignore lint/suspicious/noConfusingVoidType: a hook that returns nothing is typed void
type Maybe<T> = T | undefined | void;

/** What a before hook sees: the request as the endpoint will read it. */
export interface EndpointHookContext {
  /** The endpoint's path as on the wire, below the base path: `/sign-up/email`, `/get-session`. */
  readonly path: string;
  readonly method: HttpMethod;
  /** The JSON (or form) body, before the endpoint's schema checks it; undefined for a GET. */
  readonly body: Record<string, unknown> | undefined;
  /** The query string's values (the first of repeated keys). */
  readonly query: Record<string, string>;
  readonly headers: Headers;
  /** The caller's session when the request carries a live one, else null. */
  readonly session: SessionWithUser | null;
}

/** A before hook's change: the body and/or query the endpoint reads instead (checked by its schema). */
export interface EndpointInputChange {
  body?: Record<string, unknown>;
  query?: Record<string, string>;
}

/** What an after hook sees: the request, and the reply the endpoint gave. */
export interface AfterEndpointHookContext extends EndpointHookContext {
  readonly reply: {
    readonly status: number;
    /** The reply's JSON; undefined when it is not JSON (a redirect, a page). */
    readonly json: unknown;
    readonly headers: Headers;
  };
}

export interface EndpointHooks {
  /** Runs before every endpoint's handler: throw AuthError to refuse, or return a changed input. */
  before?: (ctx: EndpointHookContext) => Awaitable<Maybe<EndpointInputChange>>;
  /** Runs after every endpoint's handler that replied: return `{ json }` to change a JSON reply, or throw. */
  after?: (ctx: AfterEndpointHookContext) => Awaitable<Maybe<{ json: unknown }>>;
}

/** A before hook's answer: false refuses (403 FORBIDDEN), `{ data }` changes what is written. */
export type BeforeWrite<Data> = Maybe<false | { data: Partial<Data> }>;

/**
 * The hooks of one kind of row. `Data` is what is about to be written; `Row` what was written;
 * `Removed` what a delete hook sees of the row.
 */
export interface ModelHooks<Data, Row, Patch, Removed = Row> {
  create?: {
    before?: (data: Data) => Awaitable<BeforeWrite<Data>>;
    after?: (row: Row) => Awaitable<void>;
  };
  update?: {
    before?: (patch: Patch, target: { id: string }) => Awaitable<BeforeWrite<Patch>>;
    after?: (row: Row) => Awaitable<void>;
  };
  delete?: {
    before?: (row: Removed) => Awaitable<Maybe<false>>;
    after?: (row: Removed) => Awaitable<void>;
  };
}

/** A new user as written (`now` becomes createdAt and updatedAt). */
export type UserData = NewUser;

/** A new session as written: the token is stored only as its digest. */
export type SessionData = NewSession;

/** A new account: a password account (`passwordHash`) or a provider's (`providerId`, `accountId`). */
export interface AccountData {
  id: string;
  userId: string;
  providerId: string;
  accountId: string;
  now: Date;
}

export interface OrganizationData {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  /** JSON text, as stored. */
  metadata: string | null;
  now: Date;
}

export interface MemberData {
  id: string;
  organizationId: string;
  userId: string;
  role: string;
  now: Date;
  invitedBy?: string | null;
}

export interface DatabaseHooks {
  user?: ModelHooks<UserData, User, UserPatch>;
  /** A deleted session is seen as its id, userId, ipAddress, userAgent and expiresAt. */
  session?: ModelHooks<SessionData, SessionRow, never, RevokedSessionRow>;
  account?: ModelHooks<AccountData, AccountData, never>;
  organization?: ModelHooks<OrganizationData, Organization, OrganizationPatch>;
  member?: ModelHooks<MemberData, Member, { role: string }>;
}

const MODELS = ["user", "session", "account", "organization", "member"] as const;
const ACTIONS = ["create", "update", "delete"] as const;

/** Checks hooks given in code at start-up: a wrong shape is a ConfigError naming the key. */
export function checkHooks(hooks: unknown, databaseHooks: unknown): void {
  if (hooks !== undefined) checkFunctions(hooks, "hooks", ["before", "after"]);
  if (databaseHooks === undefined) return;
  checkKeys(databaseHooks, "databaseHooks", MODELS);
  for (const [model, actions] of Object.entries(databaseHooks as object)) {
    checkKeys(actions, `databaseHooks.${model}`, ACTIONS);
    for (const [action, pair] of Object.entries(actions as object)) {
      checkFunctions(pair, `databaseHooks.${model}.${action}`, ["before", "after"]);
    }
  }
}

function checkKeys(value: unknown, name: string, allowed: readonly string[]): void {
  if (typeof value !== "object" || value === null) throw new ConfigError(`${name} must be an object`);
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw new ConfigError(`${name}: unknown key "${key}" (allowed: ${allowed.join(", ")})`);
  }
}

function checkFunctions(value: unknown, name: string, allowed: readonly string[]): void {
  checkKeys(value, name, allowed);
  for (const [key, fn] of Object.entries(value as object)) {
    if (fn !== undefined && typeof fn !== "function") throw new ConfigError(`${name}.${key} must be a function`);
  }
}

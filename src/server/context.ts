import type { AuditAction, AuditActorType } from "../contract/audit.js";
import type { SessionWithUser } from "../contract/models.js";
import type { PasswordHasher } from "./crypto/password.js";
import type { TokenCipher } from "./crypto/token-cipher.js";
import type { MailOutbox } from "./email/outbox.js";
import type { DatabaseHooks, EndpointHooks } from "./hooks.js";
import type { Logger } from "./logger.js";
import type { CacheCounts, RequestMetrics } from "./observability/request-metrics.js";
import type { AuthOptions } from "./options.js";
import type { AppPages } from "./pages.js";
import type { ProviderRegistry } from "./providers/registry.js";
import type { AdditionalFields } from "./store/additional-fields.js";
import type { DB } from "./store/database.js";
import type { DialectName } from "./store/dialect.js";
import type { RateLimitStore } from "./store/rate-limit-store.js";
import type { MemberPageCache } from "./store/reads/index.js";
import type { Webhooks } from "./webhooks/outbox.js";

/**
 * Called when a browser that held an anonymous session signs in or up as a real user, just before
 * the anonymous user is deleted: the app moves the anonymous user's data to the new user here.
 */
export type OnLinkAccount = (link: {
  anonymousUser: SessionWithUser;
  newUser: SessionWithUser;
}) => Promise<void> | void;

/** Everything a service needs, built once by createAuth. Services never see a Request. */
export interface AuthContext {
  readonly options: Readonly<AuthOptions>;
  /** Absolute URLs of the application pages mails and redirects link to (options.pages). */
  readonly pages: AppPages;
  /** The app's own user, session and organization fields (options.*.additionalFields), resolved once. */
  readonly fields: AdditionalFields;
  /** Public origin of the service, e.g. `http://localhost:3000` (no trailing slash). */
  readonly baseURL: string;
  /** Where the API answers, e.g. `/api/auth`. */
  readonly basePath: string;
  readonly secret: string;
  readonly db: DB;
  readonly dialect: DialectName;
  readonly hasher: PasswordHasher;
  readonly rateLimitStore: RateLimitStore;
  readonly logger: Logger;
  /** Mail goes through the outbox: enqueue inside the change's transaction, wake() after commit. */
  readonly mail: MailOutbox;
  /** Whether `<basePath>/dev/outbox` is served: only when asked for (mail.devOutbox), never in production. */
  readonly devOutbox: boolean;
  /** How long answers that must not tell whether an address is known take at least (services/timing.ts). */
  readonly enumerationSafeAnswerMs: number;
  /**
   * Signed webhooks: enqueue inside the change's transaction; free when nothing subscribes. In an
   * audited request's context, the outbox's view that tells the request's trail of every change.
   */
  readonly webhooks: Webhooks;
  /**
   * The audited request's (or server call's) entry as it is being learned: set only on the context
   * made for that request (audit/trail.service.ts auditedContext), never on the instance's own.
   */
  readonly audit?: AuditScope;
  /**
   * The API key a request acts with, on an endpoint that accepts keys (http/route.ts): set only on
   * that request's context. Organization permission checks then ask the key's permissions.
   */
  readonly apiKeyCaller?: ApiKeyGrant;
  /**
   * One object per createAuth, shared by every request's context made from it: what per-instance
   * caches (a WeakMap per module: signing keys, provider clients) key on.
   */
  readonly instance: object;
  /** Social providers, built once from options.socialProviders. */
  readonly providers: ProviderRegistry;
  /** Which cookie-cache copies may still answer; every session revocation goes through it. */
  readonly revocations: Revocations;
  /** list-members' first pages this instance has sent, reused while the database says they still hold. */
  readonly memberPages: MemberPageCache;
  /** Per-route request metrics when options.metrics is on; null: nothing is recorded. */
  readonly metrics: RequestMetrics | null;
  /** Hits and misses of the caches, counted always (plain numbers), read by the metrics at scrape time. */
  readonly cacheCounts: CacheCounts;
  /** Encrypts provider tokens at rest. */
  readonly tokenCipher: TokenCipher;
  /** Encrypts TOTP secrets at rest, under a key of their own. */
  readonly totpCipher: TokenCipher;
  readonly onLinkAccount?: OnLinkAccount;
  /** The app's hooks around every endpoint (http/endpoint-hooks.ts); absent: nothing runs. */
  readonly hooks?: EndpointHooks;
  /** The app's hooks around row writes (services/hooked-writes.ts); absent: no extra statement. */
  readonly databaseHooks?: DatabaseHooks;
  /** The clock; tests move it to check expiry. */
  now(): Date;
  /** Whether an origin (scheme://host[:port]) may call and be redirected to. */
  isTrustedOrigin(origin: string): boolean;
}

/**
 * What one audited request knows of its entry as it runs (audit/request.http.ts opens it): the action its
 * endpoint declares, who asks and from where, and what the services learn on the way (whose account,
 * which organization). Services reach it as `ctx.audit`: the request's context carries it.
 */
export interface AuditScope {
  action: AuditAction;
  /** Entries only when a change is seen (a redirecting flow whose refusals are redirects, not errors). */
  whenChanged: boolean;
  actorType: AuditActorType;
  actorId: string | null;
  subjectId: string | null;
  /** The signed-in user: the subject of an account action that names no other. */
  sessionUserId: string | null;
  organizationId: string | null;
  /**
   * The session's active organization: an organization action's organization when neither the input
   * nor the service named one (a service acting on another organization, found by id, names that).
   */
  sessionOrganizationId: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  requestId: string | null;
  details: Record<string, unknown>;
  /** Set by the two-factor gate: the sign-in now owes a second factor. */
  challenged: boolean;
  /** Set once the entry is written inside the change's transaction. */
  written: boolean;
}

/**
 * One request's context: `ctx` with `own` over it (its audit scope, the key calling). `ctx` stays its
 * prototype, not copied: a copy would set each of the context's many fields on every such request
 * (bench/README.md, "SQLite's entry with its change"), and a spread of the result would lose what it
 * inherits, so derive from a request's context with this again.
 */
export function requestContext(ctx: AuthContext, own: Partial<AuthContext>): AuthContext {
  return Object.assign(Object.create(ctx) as AuthContext, own);
}

/** Absolute URL of an API path, e.g. apiURL(ctx, "/verify-email"). */
export function apiURL(ctx: AuthContext, path: string): string {
  return `${ctx.baseURL}${ctx.basePath}${path}`;
}

/** What an API key may do where it acts (services/api-key-verification.ts). */
export interface ApiKeyGrant {
  readonly id: string;
  /** The owning organization; null for a user's own key. */
  readonly organizationId: string | null;
  readonly userId: string | null;
  readonly permissions: Readonly<Record<string, readonly string[]>> | null;
}

/** What requests ask of the revocation list (services/revocations.ts): defined here, below services. */
export interface Revocations {
  /** Whether other instances' revocations reach this one (the readiness probe). */
  readonly connected: boolean;
  /** Whether a cookie cache copy read at `readAtMs` may still stand for the user. */
  trusts(userId: string, readAtMs: number): boolean;
  /** Refuses every cached copy of the user's sessions, here and on the other instances. */
  revokeUser(userId: string): Promise<void>;
  /** Resolves once the feed listens (at once without a feed). */
  ready(): Promise<void>;
  /** Copies read before this instant are refused (start, reconnect). */
  readonly trustsFromMs: number;
}

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
import type { WebhookOutbox } from "./webhooks/outbox.js";

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
  /** Signed webhooks: enqueue inside the change's transaction; free when nothing subscribes. */
  readonly webhooks: WebhookOutbox;
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

/** Absolute URL of an API path, e.g. apiURL(ctx, "/verify-email"). */
export function apiURL(ctx: AuthContext, path: string): string {
  return `${ctx.baseURL}${ctx.basePath}${path}`;
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

import type { Hono } from "hono";
import type { Registry } from "prom-client";
import { createServerApi } from "./api.js";
import { createHttpApp } from "./app.js";
import { AuditSealer, type AuditSealerOptions } from "./audit/sealer.service.js";
import { unsealedTail } from "./audit/trail.store.js";
import type { AuthContext, OnLinkAccount } from "./context.js";
import { argon2idHasher, type PasswordHasher, withLegacyHashes } from "./crypto/password.js";
import { createTokenCipher, TOTP_SECRETS_PURPOSE } from "./crypto/token-cipher.js";
import { type MailOptions, resolveMail } from "./email/delivery.js";
import { MailOutbox } from "./email/outbox.js";
import type { FieldDefinitions, FieldTypedApi, NoFields, ReturnedFields, SessionWithFields } from "./field-types.js";
import { checkHooks, type DatabaseHooks, type EndpointHooks } from "./hooks.js";
import type { AuthEnv } from "./http/env.js";
import { consoleLogger, type Logger } from "./logger.js";
import { openMetricsWarning } from "./observability/open-metrics.js";
import { newCacheCounts } from "./observability/request-metrics.js";
import { type AuthOptions, type AuthOptionsInput, ConfigError, resolveOptions } from "./options.js";
import { resolvePages } from "./pages.js";
import { createProviderRegistry } from "./providers/registry.js";
import { startHousekeeping } from "./services/housekeeping.js";
import { BackchannelLogouts } from "./services/oauth-provider/backchannel-logout.js";
import type { RevocationFeed } from "./services/revocations.js";
import { RevocationList } from "./services/revocations.js";
import { ENUMERATION_SAFE_ANSWER_MS } from "./services/timing.js";
import { ensureAdditionalColumns, resolveAdditionalFields } from "./store/additional-fields.js";
import { migrateToLatest, type OpenedDatabase, openDatabase } from "./store/database.js";
import { mailBacklog, webhookBacklog } from "./store/outbox-backlog.js";
import { MemoryRateLimitStore, type RateLimitStore } from "./store/rate-limit-store.js";
import { MemberPageCache } from "./store/reads/index.js";
import { createOriginPredicate, normalizeOrigin } from "./trusted-origins.js";
import { WebhookOutbox, type WebhookOutboxOptions } from "./webhooks/outbox.js";
import { webhookSecretKey } from "./webhooks/receiver-url.js";

/**
 * `U` and `S`: the options' `user.additionalFields` and `session.additionalFields`, read by the
 * compiler from the options given (field-types.ts), so `auth.api` and `auth.$Infer` carry them.
 */
export interface CreateAuthInput<U extends FieldDefinitions = NoFields, S extends FieldDefinitions = NoFields> {
  /** Public origin, e.g. `https://auth.example.com`; always a trusted origin. */
  baseURL: string;
  /** At least 32 characters; signs cookies and tokens. */
  secret: string;
  /** A DATABASE_URL (`sqlite:<path>`, `sqlite::memory:`, `postgres://...`) or an opened database. */
  database: string | OpenedDatabase;
  /**
   * The JSON options (docs/configuration.md); every key optional. Typed for editors; still validated at run
   * time, because they often come from a file (AUTH_CONFIG): a wrong value is a ConfigError.
   */
  options?: AuthOptionsInput & {
    readonly user?: { readonly additionalFields?: U };
    readonly session?: { readonly additionalFields?: S };
  };
  basePath?: string;
  /** Run pending migrations before answering (default true). */
  migrate?: boolean;
  /**
   * Mail delivery: one of `smtpUrl`, `transport` (nodemailer or a MailTransport), `send` (your own
   * function: Resend, SES, Postmark...), `disabled`, or `devOutbox` (development only). Without any,
   * SMTP_URL / MAIL_DISABLED / MAIL_FROM are read from the environment; with none of those either,
   * mail is not delivered (said at start-up) and production refuses to start. docs/configuration.md.
   */
  mail?: MailOptions;
  /** When the audit trail's sealer runs (docs/audit.md, "Sealing"); tests may stop its timer. */
  auditSealer?: AuditSealerOptions;
  /** Webhook delivery timing (tests shorten it); the endpoints come from options.webhooks. */
  webhookDelivery?: Pick<WebhookOutboxOptions, "retryBaseMs" | "maxRetryDelayMs" | "maxAttempts" | "timeoutMs">;
  /**
   * Production refuses plain-http webhook URLs (other than loopback) and the development outbox;
   * defaults to NODE_ENV=production.
   */
  production?: boolean;
  hasher?: PasswordHasher;
  /**
   * How long an answer that must not tell whether an address is known (password reset, sign-in link
   * or code, verification mail) takes at least; default ENUMERATION_SAFE_ANSWER_MS. Tests shorten it;
   * production refuses a shorter one.
   */
  enumerationSafeAnswerMs?: number;
  rateLimitStore?: RateLimitStore;
  /**
   * How revocations reach other instances' cookie caches (redisRevocationFeed). Without one, a
   * PostgreSQL database carries them (LISTEN/NOTIFY) and SQLite keeps them in this process.
   */
  revocationFeed?: RevocationFeed;
  logger?: Logger;
  now?: () => Date;
  /** Lets the app move an anonymous user's data to the real user they became (see OnLinkAccount). */
  onLinkAccount?: OnLinkAccount;
  /** Runs before and after every endpoint (docs/hooks.md): refuse with AuthError, change input or reply. */
  hooks?: EndpointHooks;
  /** Runs around creating, updating and deleting users, sessions, accounts, organizations and members, in the change's transaction. */
  databaseHooks?: DatabaseHooks;
}

/**
 * What createAuth answers; `U` and `S` as in CreateAuthInput. Without type arguments it is the Auth
 * of any options, its fields untyped: `any` rather than NoFields, since the fields make U both an
 * input and an output, and an Auth<NoFields> would take no Auth whose fields differ.
 */
export interface Auth<U extends FieldDefinitions = any, S extends FieldDefinitions = any> {
  /**
   * Answers any request under the base path; mount it in any fetch-style server. `env` is the
   * server adapter's binding (@hono/node-server's carries the socket, for the client IP).
   */
  handler(request: Request, env?: unknown): Promise<Response>;
  readonly app: Hono<AuthEnv>;
  readonly context: AuthContext;
  readonly database: OpenedDatabase;
  /**
   * Every endpoint as an in-process call, better-auth's shape (`{ body, query, headers }`), plus the
   * server-only addMember and setPassword; a refused call throws AuthError (docs/server-api.md).
   */
  readonly api: FieldTypedApi<U, S>;
  /**
   * Types only, better-auth's form (the value is an empty object): `typeof auth.$Infer.Session` is
   * what getSession answers, with the app's own fields.
   */
  readonly $Infer: { readonly Session: SessionWithFields<ReturnedFields<U>, ReturnedFields<S>> };
  /**
   * The instance's Prometheus registry when options.metrics is on (null otherwise): the handler
   * answers options.metrics.path with it; an app may also merge it into its own (docs/operations.md).
   */
  readonly metrics: Registry | null;
  /** Seals the audit trail's committed entries (null with auditing off); `sealNow()` seals at once. */
  readonly auditSealer: AuditSealer | null;
  close(): Promise<void>;
}

export type { Logger };

export const MIN_SECRET_LENGTH = 32;

/**
 * Builds the service: options checked, database opened and migrated, routes ready.
 *
 * @example
 * const auth = await createAuth({
 *   baseURL: "https://app.example.com",
 *   secret: process.env.AUTH_SECRET!,
 *   database: process.env.DATABASE_URL!, // sqlite:./data/auth.sqlite or postgres://...
 *   options: { organization: { enabled: true } },
 * });
 */
export async function createAuth<
  const U extends FieldDefinitions = NoFields,
  const S extends FieldDefinitions = NoFields,
>(input: CreateAuthInput<U, S>): Promise<Auth<U, S>> {
  // Often built from process.env in a config module: an unset value is said in words, not a TypeError.
  if (typeof input.baseURL !== "string") throw new ConfigError("baseURL (BASE_URL) is required");
  const baseOrigin = normalizeOrigin(input.baseURL);
  if (!baseOrigin) throw new ConfigError(`BASE_URL must be an http(s) URL (got "${input.baseURL}")`);
  if (typeof input.secret !== "string" || input.secret === "") {
    throw new ConfigError("secret (AUTH_SECRET) is required: gatehouse generate-secret makes one");
  }
  if (input.secret.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(`AUTH_SECRET must be at least ${MIN_SECRET_LENGTH} characters`);
  }
  if (typeof input.database !== "string" && typeof input.database?.db !== "object") {
    throw new ConfigError(
      "database (DATABASE_URL) is required: a URL such as sqlite:./data/gatehouse.sqlite or postgres://..., or an opened database",
    );
  }
  checkHooks(input.hooks, input.databaseHooks);
  const production = input.production ?? process.env.NODE_ENV === "production";
  // The floor is what keeps a known address from answering faster than an unknown one.
  if (production && (input.enumerationSafeAnswerMs ?? ENUMERATION_SAFE_ANSWER_MS) < ENUMERATION_SAFE_ANSWER_MS) {
    throw new ConfigError(
      `enumerationSafeAnswerMs below ${ENUMERATION_SAFE_ANSWER_MS} ms is for tests: production refuses to start with it`,
    );
  }
  const logger = input.logger ?? consoleLogger;
  const basePath = input.basePath ?? "/api/auth";
  const delivery = resolveMail(input.mail, { env: process.env, production, baseURL: baseOrigin, basePath, logger });
  const options: Readonly<AuthOptions> = resolveOptions(input.options, { baseURL: baseOrigin, production });
  const isTrustedOrigin = createOriginPredicate([baseOrigin, ...options.trustedOrigins]);
  const pages = resolvePages(options.pages, { baseURL: baseOrigin, isTrustedOrigin });
  const providers = createProviderRegistry(options.socialProviders, {
    callbackBaseURL: `${baseOrigin}${basePath}`,
    oneTapClientId: options.oneTap.clientId,
    now: input.now,
  });
  const database = typeof input.database === "string" ? openDatabase(input.database) : input.database;
  const fields = resolveAdditionalFields(options);
  if (input.migrate !== false) {
    try {
      await migrateToLatest(database.db, database.dialect);
      // The app's own fields are columns: added when missing, after the fixed schema.
      await ensureAdditionalColumns(database.db, database.dialect, fields);
    } catch (error) {
      // A database opened here is closed here, so a refused start leaves no pool behind.
      if (typeof input.database === "string") await database.close();
      throw error;
    }
  }

  const now = input.now ?? (() => new Date());
  if (delivery.warning) logger.warn(delivery.warning);
  const metricsWarning = openMetricsWarning(options.metrics, production);
  if (metricsWarning) logger.warn(metricsWarning);
  const mail = new MailOutbox(database.db, {
    transport: delivery.transport,
    from: delivery.from,
    logger,
    now,
    appName: options.appName,
    retryBaseMs: input.mail?.retryBaseMs,
    pollIntervalMs: input.mail?.pollIntervalMs,
  });
  const backchannelLogouts = options.oauthProvider.enabled
    ? new BackchannelLogouts(database.db, { ...input.webhookDelivery, now, logger })
    : undefined;
  const webhooks = new WebhookOutbox(database.db, {
    ...input.webhookDelivery,
    sessionEnds: backchannelLogouts,
    endpoints: options.webhooks,
    logger,
    now,
    organizationWebhooks:
      options.organization.enabled && options.organizationWebhooks.enabled
        ? {
            secretKey: webhookSecretKey(input.secret),
            allowPrivateUrls: options.organizationWebhooks.allowPrivateUrls,
          }
        : undefined,
  });
  const cookieCache = options.session.cookieCache;
  // Only a cookie cache needs to hear revocations: without one every request reads the database.
  const revocations = new RevocationList({
    cacheMaxAgeSeconds: cookieCache.maxAge,
    now: () => now().getTime(),
    logger,
    feed: cookieCache.enabled ? (input.revocationFeed ?? database.revocationFeed?.(logger)) : undefined,
  });
  const cacheCounts = newCacheCounts();
  // Its own registry per instance (never prom-client's global one): two instances in a process do not
  // clash. prom-client is loaded only when metrics are on.
  const metrics = options.metrics.enabled
    ? (await import("./observability/metrics.js")).createMetrics(options.metrics, {
        database: database.stats,
        mailBacklog: () => mailBacklog(database.db),
        webhookBacklog: () => webhookBacklog(database.db),
        auditUnsealed: options.audit.enabled ? () => unsealedTail(database.db) : undefined,
        caches: cacheCounts,
        now,
      })
    : null;
  const context: AuthContext = {
    options,
    pages,
    fields,
    baseURL: baseOrigin,
    basePath,
    secret: input.secret,
    db: database.db,
    dialect: database.dialect,
    hasher: withLegacyHashes(input.hasher ?? argon2idHasher(), options.emailAndPassword.legacyHashes),
    rateLimitStore: input.rateLimitStore ?? new MemoryRateLimitStore(),
    logger,
    mail,
    devOutbox: delivery.devOutbox,
    enumerationSafeAnswerMs: input.enumerationSafeAnswerMs ?? ENUMERATION_SAFE_ANSWER_MS,
    webhooks,
    memberPages: new MemberPageCache(cacheCounts.memberPages),
    metrics: metrics?.requests ?? null,
    cacheCounts,
    now,
    isTrustedOrigin,
    providers,
    revocations,
    tokenCipher: createTokenCipher(input.secret),
    totpCipher: createTokenCipher(input.secret, TOTP_SECRETS_PURPOSE),
    onLinkAccount: input.onLinkAccount,
    hooks: input.hooks,
    databaseHooks: input.databaseHooks,
    instance: {},
  };
  const app = createHttpApp(context);
  mail.start();
  webhooks.start();
  backchannelLogouts?.start(context);
  const auditSealer = options.audit.enabled ? new AuditSealer(context, input.auditSealer) : null;
  auditSealer?.start();
  const stopHousekeeping = startHousekeeping(context);
  return {
    handler: metrics
      ? (request, env) =>
          metrics.isMetricsRequest(request) ? metrics.answer(request) : Promise.resolve(app.fetch(request, env))
      : (request, env) => Promise.resolve(app.fetch(request, env)),
    metrics: metrics?.registry ?? null,
    auditSealer,
    app,
    context,
    database,
    // The calls are the same for any fields; only their types name them.
    api: createServerApi(context, app) as FieldTypedApi<U, S>,
    $Infer: {} as Auth<U, S>["$Infer"],
    async close() {
      await stopHousekeeping();
      await auditSealer?.stop();
      await mail.stop();
      await webhooks.stop();
      await backchannelLogouts?.stop();
      await revocations.close();
      await database.close();
    },
  };
}

import type { Hono } from "hono";
import { createServerApi, type ServerApi } from "./api.js";
import { createHttpApp } from "./app.js";
import type { AuthContext, OnLinkAccount } from "./context.js";
import { argon2idHasher, type PasswordHasher } from "./crypto/password.js";
import { createTokenCipher, TOTP_SECRETS_PURPOSE } from "./crypto/token-cipher.js";
import { MailOutbox } from "./email/outbox.js";
import { developmentTransport, disabledTransport, type MailTransport, smtpTransport } from "./email/transport.js";
import type { AuthEnv } from "./http/env.js";
import { consoleLogger, type Logger } from "./logger.js";
import { type AuthOptions, type AuthOptionsInput, ConfigError, resolveOptions } from "./options.js";
import { createProviderRegistry } from "./providers/registry.js";
import { startHousekeeping } from "./services/housekeeping.js";
import type { RevocationFeed } from "./services/revocations.js";
import { RevocationList } from "./services/revocations.js";
import { ensureAdditionalColumns, resolveAdditionalFields } from "./store/additional-fields.js";
import { migrateToLatest, type OpenedDatabase, openDatabase } from "./store/database.js";
import { MemoryRateLimitStore, type RateLimitStore } from "./store/rate-limit-store.js";
import { MemberPageCache } from "./store/reads/index.js";
import { createOriginPredicate, normalizeOrigin } from "./trusted-origins.js";
import { WebhookOutbox, type WebhookOutboxOptions } from "./webhooks/outbox.js";

export interface CreateAuthInput {
  /** Public origin, e.g. `https://auth.example.com`; always a trusted origin. */
  baseURL: string;
  /** At least 32 characters; signs cookies and tokens. */
  secret: string;
  /** A DATABASE_URL (`sqlite:<path>`, `sqlite::memory:`, `postgres://...`) or an opened database. */
  database: string | OpenedDatabase;
  /**
   * The JSON options (CONFIG.md); every key optional. Typed for editors; still validated at run
   * time, because they often come from a file (AUTH_CONFIG): a wrong value is a ConfigError.
   */
  options?: AuthOptionsInput;
  basePath?: string;
  /** Run pending migrations before answering (default true). */
  migrate?: boolean;
  /**
   * Mail delivery: a transport, or SMTP_URL, or `disabled` (MAIL_DISABLED); none of them gives the
   * development outbox, which logs every mail and so is refused in production.
   */
  mail?: {
    transport?: MailTransport;
    smtpUrl?: string | null;
    disabled?: boolean;
    from?: string;
    retryBaseMs?: number;
    /** How often the outbox looks for due retries and rows another instance left (default 5 s). */
    pollIntervalMs?: number;
  };
  /** Webhook delivery timing (tests shorten it); the endpoints come from options.webhooks. */
  webhookDelivery?: Pick<WebhookOutboxOptions, "retryBaseMs" | "maxRetryDelayMs" | "maxAttempts" | "timeoutMs">;
  /**
   * Production refuses plain-http webhook URLs (other than loopback) and the development outbox;
   * defaults to NODE_ENV=production.
   */
  production?: boolean;
  hasher?: PasswordHasher;
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
}

export interface Auth {
  /**
   * Answers any request under the base path; mount it in any fetch-style server. `env` is the
   * server adapter's binding (@hono/node-server's carries the socket, for the client IP).
   */
  handler(request: Request, env?: unknown): Promise<Response>;
  readonly app: Hono<AuthEnv>;
  readonly context: AuthContext;
  readonly database: OpenedDatabase;
  /** Server-side calls that have no HTTP route (setPassword, addMember). They throw AuthError for a refused call. */
  readonly api: ServerApi;
  close(): Promise<void>;
}

export type { Logger };

export const MIN_SECRET_LENGTH = 32;

function mailTransport(mail: { smtpUrl?: string | null; disabled?: boolean }, logger: Logger): MailTransport {
  if (mail.smtpUrl) return smtpTransport(mail.smtpUrl);
  return mail.disabled ? disabledTransport(logger) : developmentTransport(logger);
}

/** Builds the service: options checked, database opened and migrated, routes ready. */
export async function createAuth(input: CreateAuthInput): Promise<Auth> {
  const baseOrigin = normalizeOrigin(input.baseURL);
  if (!baseOrigin) throw new ConfigError(`BASE_URL must be an http(s) URL (got "${input.baseURL}")`);
  if (input.secret.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(`AUTH_SECRET must be at least ${MIN_SECRET_LENGTH} characters`);
  }
  const production = input.production ?? process.env.NODE_ENV === "production";
  // The development outbox writes every mail to the log, live reset and sign-in links included.
  if (production && !input.mail?.transport && !input.mail?.smtpUrl && !input.mail?.disabled) {
    throw new ConfigError(
      "SMTP_URL is required when NODE_ENV=production: without it every mail, reset links included, would be written to the log. Set SMTP_URL, or MAIL_DISABLED=1 to run without mail",
    );
  }
  const options: Readonly<AuthOptions> = resolveOptions(input.options, { baseURL: baseOrigin, production });
  const basePath = input.basePath ?? "/api/auth";
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

  const logger = input.logger ?? consoleLogger;
  const now = input.now ?? (() => new Date());
  const transport = input.mail?.transport ?? mailTransport(input.mail ?? {}, logger);
  const mail = new MailOutbox(database.db, {
    transport,
    from: input.mail?.from ?? `Gatehouse <no-reply@${new URL(baseOrigin).hostname}>`,
    logger,
    now,
    retryBaseMs: input.mail?.retryBaseMs,
    pollIntervalMs: input.mail?.pollIntervalMs,
  });
  const webhooks = new WebhookOutbox(database.db, {
    ...input.webhookDelivery,
    endpoints: options.webhooks,
    logger,
    now,
  });
  const cookieCache = options.session.cookieCache;
  // Only a cookie cache needs to hear revocations: without one every request reads the database.
  const revocations = new RevocationList({
    cacheMaxAgeSeconds: cookieCache.maxAge,
    now: () => now().getTime(),
    logger,
    feed: cookieCache.enabled ? (input.revocationFeed ?? database.revocationFeed?.(logger)) : undefined,
  });
  const isTrustedOrigin = createOriginPredicate([baseOrigin, ...options.trustedOrigins]);
  const context: AuthContext = {
    options,
    fields,
    baseURL: baseOrigin,
    basePath,
    secret: input.secret,
    db: database.db,
    dialect: database.dialect,
    hasher: input.hasher ?? argon2idHasher(),
    rateLimitStore: input.rateLimitStore ?? new MemoryRateLimitStore(),
    logger,
    mail,
    webhooks,
    memberPages: new MemberPageCache(),
    now,
    isTrustedOrigin,
    providers,
    revocations,
    tokenCipher: createTokenCipher(input.secret),
    totpCipher: createTokenCipher(input.secret, TOTP_SECRETS_PURPOSE),
    onLinkAccount: input.onLinkAccount,
  };
  const app = createHttpApp(context);
  mail.start();
  webhooks.start();
  const stopHousekeeping = startHousekeeping(context);
  return {
    handler: (request, env) => Promise.resolve(app.fetch(request, env)),
    app,
    context,
    database,
    api: createServerApi(context),
    async close() {
      stopHousekeeping();
      await mail.stop();
      await webhooks.stop();
      await revocations.close();
      await database.close();
    },
  };
}

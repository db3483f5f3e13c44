import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { type Auth, createAuth } from "../../src/server/auth.js";
import { argon2idHasher } from "../../src/server/crypto/password.js";
import type { Logger } from "../../src/server/logger.js";
import { TestBrowser } from "./browser.js";
import { createTestClock, type TestClock } from "./clock.js";
import { freshDatabaseUrl } from "./database.js";

export const TEST_SECRET = "test-secret-that-is-at-least-32-characters-long";

/** Cheap argon2id for tests only; production keeps OWASP's cost. */
export const testHasher = argon2idHasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 });

/** Options that switch every feature on: the server then routes the whole endpoint table. */
export const EVERY_FEATURE_ON = {
  admin: { enabled: true },
  jwt: { enabled: true },
  anonymous: { enabled: true },
  oneTap: { clientId: "client-1.apps.googleusercontent.com" },
  user: { deleteUser: { enabled: true } },
  organization: { enabled: true, teams: { enabled: true } },
  twoFactor: { enabled: true },
  magicLink: { enabled: true },
  emailOTP: { enabled: true },
  passkey: { enabled: true },
  scim: { enabled: true },
  sso: { enabled: true },
  securityActivity: { enabled: true },
  organizationWebhooks: { enabled: true },
  apiKey: { enabled: true },
  oauthProvider: { enabled: true },
};

export interface TestServer {
  /** `http://127.0.0.1:<port>`: the public origin and BASE_URL. */
  origin: string;
  auth: Auth;
  clock: TestClock;
  /** Errors the server logged (a 500 in a test is a bug: tests assert this stays empty). */
  loggedErrors: string[];
  browser(): TestBrowser;
  /** Round trips the database has served so far. */
  queryCount(): number;
  /**
   * Resolves once the mail and webhook outboxes have delivered what earlier requests queued: their
   * queries run after the answer, and could otherwise land inside a later request's count.
   */
  settled(): Promise<void>;
  /**
   * Seals the audit trail's committed entries now (numbered, hash-chained, streamed): tests seal
   * where they read the chain, the server's sealer having no timer here (its queries would land in
   * query counts). Resolves to how many were sealed; 0 with auditing off.
   */
  sealAudit(): Promise<number>;
  /** The DATABASE_URL this server runs on. */
  databaseUrl: string;
  close(): Promise<void>;
}

export interface TestServerInput {
  /** JSON options (CONFIG.md). Rate limiting is off unless a test turns it on. */
  options?: Record<string, any>;
  /** Extra createAuth inputs (mailer, hasher, ...). */
  extra?: Record<string, unknown>;
  /** Listen address (default 127.0.0.1); `0.0.0.0` to be reached on the machine's other addresses too. */
  hostname?: string;
  /** Another test server whose database (and clock) this one shares: a second instance. It drops the database. */
  shareDatabaseWith?: TestServer;
  /** A database a second instance can share on SQLite too (a file, not memory). */
  shareable?: boolean;
}

/** The real service over real HTTP on a free loopback port, on a fresh database of the dialect under test. */
export async function startTestServer(input: TestServerInput = {}): Promise<TestServer> {
  const database = input.shareDatabaseWith
    ? { url: input.shareDatabaseWith.databaseUrl, drop: async () => {} }
    : await freshDatabaseUrl({ shared: input.shareable, migrated: true });
  // Instances on one machine share its clock.
  const clock = input.shareDatabaseWith?.clock ?? createTestClock();
  const loggedErrors: string[] = [];
  const logger: Logger = {
    info: () => {},
    warn: () => {},
    error: (message, fields) => loggedErrors.push(`${message} ${JSON.stringify(fields)}`),
  };
  const server = serve({
    fetch: (request, env) => auth.handler(request, env),
    port: 0,
    hostname: input.hostname ?? "127.0.0.1",
  });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // No background sweeps either: tests sweep when they mean to (their deletes would land in query counts).
  const options = {
    ...input.options,
    rateLimit: { enabled: false, ...input.options?.rateLimit },
    housekeeping: { enabled: false, ...input.options?.housekeeping },
  };
  const auth: Auth = await createAuth({
    baseURL: origin,
    secret: TEST_SECRET,
    database: database.url,
    options,
    hasher: testHasher,
    // The floor on answers that must not tell whether an address is known is a sleep: tests that
    // are not about it skip it (test/enumeration-floor.test.ts keeps the default).
    enumerationSafeAnswerMs: 0,
    logger,
    now: clock.now,
    ...input.extra,
    // No background poll: its query could land inside a test's query count (tests flush the outbox
    // when they need delivery; a request's own commit still wakes it).
    mail: { pollIntervalMs: 3_600_000, ...(input.extra?.mail as object | undefined) },
    auditSealer: { intervalMs: 0, ...(input.extra?.auditSealer as object | undefined) },
  });
  // With a cookie cache on PostgreSQL, copies are trusted only once the revocation feed listens, and
  // from a clock-skew allowance after that: start tests past it.
  await auth.context.revocations.ready();
  if (auth.context.revocations.trustsFromMs > clock.now().getTime()) {
    clock.advance((auth.context.revocations.trustsFromMs - clock.now().getTime()) / 1000 + 0.001);
  }
  return {
    origin,
    auth,
    clock,
    loggedErrors,
    browser: () => new TestBrowser(origin),
    queryCount: () => auth.database.queryCount(),
    async settled() {
      await auth.auditSealer?.sealNow();
      await auth.context.mail.flush();
      await auth.context.webhooks.flush();
    },
    sealAudit: async () => (await auth.auditSealer?.sealNow()) ?? 0,
    databaseUrl: database.url,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await auth.close();
      await database.drop();
    },
  };
}

/**
 * Signs up a user through the API and returns the browser holding their session. `verified` marks
 * the address proven (as the mailed link would), which enrolling a passkey or two-factor needs.
 */
export async function signUp(
  server: TestServer,
  user: { name?: string; email?: string; password?: string; verified?: boolean } = {},
): Promise<{ browser: TestBrowser; user: any; token: string; email: string; password: string }> {
  const browser = server.browser();
  const email = user.email ?? `user-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const password = user.password ?? "correct horse battery";
  const response = await browser.post("/sign-up/email", { name: user.name ?? "Test User", email, password });
  if (response.status !== 200) throw new Error(`sign-up failed: ${response.status} ${JSON.stringify(response.body)}`);
  if (user.verified) {
    const { db } = server.auth.database;
    await db.updateTable("user").set({ emailVerified: true }).where("id", "=", response.body.user.id).execute();
    response.body.user.emailVerified = true;
  }
  return { browser, user: response.body.user, token: response.body.token, email, password };
}

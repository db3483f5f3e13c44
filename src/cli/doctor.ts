import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { MIN_SECRET_LENGTH } from "../server/auth.js";
import { checkSmtpUrl, readMailDisabled, resolveMail } from "../server/email/delivery.js";
import { readDatabaseUrl, readOptionsFile, serviceMailOptions } from "../server/environment.js";
import { openMetricsWarning } from "../server/observability/open-metrics.js";
import { ConfigError, resolveOptions } from "../server/options.js";
import { resolvePages } from "../server/pages.js";
import { withoutPassword } from "../server/startup-summary.js";
import {
  databaseAnswers,
  type OpenedDatabase,
  openDatabase,
  parseDatabaseUrl,
  pendingMigrations,
} from "../server/store/database.js";
import { createOriginPredicate } from "../server/trusted-origins.js";
import type { AppConfig } from "./config-module.js";
import { type CommandIO, processIO } from "./io.js";
import { configuredDatabase } from "./setup.js";

/** One finding: `problem` makes the exit code non-zero, `warn` is worth reading, `ok` is fine. */
interface Finding {
  level: "ok" | "warn" | "problem";
  topic: string;
  text: string;
}

const TIMEOUT_MS = 5000;

/**
 * `gatehouse doctor`: checks the configuration the service (or, given a configuration module, the
 * app) would start with, without changing
 * anything (no migration, no generated secret, no file created), and says what is wrong in words.
 * Exit code 1 when there is a problem.
 */
export async function doctor(args: string[], io: CommandIO = processIO, app: AppConfig | null = null): Promise<number> {
  parseArgs({ args, options: {}, strict: true });
  const env = io.env;
  const production = app?.input.production ?? env.NODE_ENV === "production";
  const findings: Finding[] = app
    ? [
        { level: "ok", topic: "configuration", text: `${app.path} (what createAuth takes)` },
        checkSecret(app.input.secret, production),
        ...checkBaseUrlAndCookies(String(app.input.baseURL), moduleOptions(app), production),
        await checkModuleDatabase(app),
        await checkRedis(env.REDIS_URL),
        app.input.mail?.transport || app.input.mail?.send
          ? { level: "ok", topic: "mail", text: `a transport given in code by ${app.path} (not checked)` }
          : await checkSmtp(moduleMailEnv(app), production),
      ]
    : [
        checkSecret(env.AUTH_SECRET, production),
        ...checkBaseUrlAndCookies(
          (env.BASE_URL ?? `http://localhost:${env.PORT || 3000}`).replace(/\/+$/, ""),
          environmentOptions(env),
          production,
        ),
        await checkDatabase(() => readDatabaseUrl(env)),
        await checkRedis(env.REDIS_URL),
        await checkSmtp(env, production),
        ...checkMailDelivery(env, production),
      ];
  const label = { ok: "ok     ", warn: "warning", problem: "PROBLEM" };
  for (const { level, topic, text } of findings) io.out(`${label[level]}  ${topic}: ${text}`);
  const problems = findings.filter((f) => f.level === "problem").length;
  io.out(problems === 0 ? "\nno problems found" : `\n${problems} problem(s) found`);
  return problems === 0 ? 0 : 1;
}

function checkSecret(secret: string | undefined, production: boolean): Finding {
  const topic = "AUTH_SECRET";
  if (!secret) {
    return production
      ? {
          level: "problem",
          topic,
          text: "not set; NODE_ENV=production requires it (gatehouse generate-secret makes one)",
        }
      : { level: "warn", topic, text: "not set; in development one is generated once into ./data/auth-secret" };
  }
  if (secret.length < MIN_SECRET_LENGTH) {
    return {
      level: "problem",
      topic,
      text: `only ${secret.length} characters; it must be at least ${MIN_SECRET_LENGTH} (gatehouse generate-secret makes one)`,
    };
  }
  const distinct = new Set(secret).size;
  const bits = Math.floor(secret.length * Math.log2(Math.max(distinct, 1)));
  if (isRepetition(secret) || bits < 120) {
    return {
      level: "problem",
      topic,
      text: `looks guessable (${distinct} different characters${isRepetition(secret) ? ", a repeated pattern" : ""}); use a random one (gatehouse generate-secret)`,
    };
  }
  return { level: "ok", topic, text: `${secret.length} characters, ${distinct} different` };
}

/** Whether the string is a shorter string written out several times ("abcabcabc..."). */
function isRepetition(value: string): boolean {
  return `${value}${value}`.indexOf(value, 1) < value.length;
}

/** Where the JSON options come from, and what doctor says of them when they are valid. */
interface OptionsSource {
  topic: string;
  read(): unknown;
  source: string | undefined;
  valid: string;
}

function environmentOptions(env: NodeJS.ProcessEnv): OptionsSource {
  const path = env.AUTH_CONFIG;
  return {
    topic: "AUTH_CONFIG",
    read: () => (path ? readOptionsFile(path) : {}),
    source: path,
    valid: path
      ? `${path} is valid (merged over the documented defaults)`
      : "not set: the demo defaults apply (every feature the app shows)",
  };
}

function moduleOptions(app: AppConfig): OptionsSource {
  return {
    topic: "options",
    read: () => app.input.options,
    source: `${app.path}: options`,
    valid: "valid (merged over the documented defaults)",
  };
}

/** The module's mail settings as the variables checkSmtp reads. */
function moduleMailEnv(app: AppConfig): NodeJS.ProcessEnv {
  const mail = app.input.mail ?? {};
  return { SMTP_URL: mail.smtpUrl ?? undefined, MAIL_DISABLED: mail.disabled ? "1" : undefined };
}

function checkBaseUrlAndCookies(baseURL: string, optionsSource: OptionsSource, production: boolean): Finding[] {
  const topic = "BASE_URL";
  let url: URL;
  try {
    url = new URL(baseURL);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error();
  } catch {
    return [{ level: "problem", topic, text: `"${baseURL}" is not an http(s) URL` }];
  }
  let options: ReturnType<typeof resolveOptions>;
  try {
    options = resolveOptions(optionsSource.read(), { baseURL: url.origin, source: optionsSource.source });
    const isTrustedOrigin = createOriginPredicate([url.origin, ...options.trustedOrigins]);
    resolvePages(options.pages, { baseURL: url.origin, isTrustedOrigin, source: optionsSource.source });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return [{ level: "problem", topic: optionsSource.topic, text: error.message.replaceAll("\n", "; ") }];
  }
  const findings: Finding[] = [{ level: "ok", topic: optionsSource.topic, text: optionsSource.valid }];
  const secure = options.advanced.useSecureCookies;
  const local = url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]";
  if (url.protocol === "http:" && production) {
    findings.push({
      level: "problem",
      topic,
      text: `${baseURL} is http:// with NODE_ENV=production: session cookies travel unencrypted and are not Secure; serve it over https`,
    });
  } else if (url.protocol === "https:" && !secure) {
    findings.push({
      level: production ? "problem" : "warn",
      topic: "cookies",
      text: "advanced.useSecureCookies is false on an https BASE_URL: cookies would also be sent over plain http",
    });
  } else if (url.protocol === "http:" && secure && !local) {
    findings.push({
      level: "problem",
      topic: "cookies",
      text: `advanced.useSecureCookies is true but ${baseURL} is http://: browsers drop Secure cookies there, nobody can sign in`,
    });
  } else {
    findings.push({
      level: "ok",
      topic,
      text: `${baseURL}, ${secure ? "Secure (__Host-) cookies" : "cookies not Secure (http)"}`,
    });
  }
  if (production && local) {
    findings.push({
      level: "warn",
      topic,
      text: `${baseURL} is a local address; links in mail will not work elsewhere`,
    });
  }
  const metricsWarning = openMetricsWarning(options.metrics, production);
  if (metricsWarning) findings.push({ level: "warn", topic: "metrics", text: metricsWarning });
  return findings;
}

/** The module's database: a URL is checked as DATABASE_URL is; an opened one as it is. */
async function checkModuleDatabase(app: AppConfig): Promise<Finding> {
  const { database } = app.input;
  if (typeof database === "string") return checkDatabase(() => database);
  try {
    const { database: opened, shown } = configuredDatabase(app);
    return await checkOpenedDatabase(opened, shown);
  } catch (error) {
    return { level: "problem", topic: "database", text: (error as Error).message };
  }
}

async function checkDatabase(readUrl: () => string): Promise<Finding> {
  const topic = "database";
  let url: string;
  try {
    url = readUrl();
    parseDatabaseUrl(url);
  } catch (error) {
    return { level: "problem", topic, text: (error as Error).message };
  }
  const shown = withoutPassword(url);
  const { dialect, location } = parseDatabaseUrl(url);
  if (dialect === "sqlite" && location !== ":memory:" && !existsSync(location)) {
    const folder = existsSync(dirname(location)) ? "" : ` and its folder ${dirname(location)} does not exist either`;
    return {
      level: "problem",
      topic,
      text: `${shown}: the file does not exist yet${folder} (gatehouse migrate creates it)`,
    };
  }
  return checkOpenedDatabase(openDatabase(url), shown);
}

async function checkOpenedDatabase(database: OpenedDatabase, shown: string): Promise<Finding> {
  const topic = "database";
  try {
    const answers = await withTimeout(databaseAnswers(database.db), false);
    if (!answers)
      return { level: "problem", topic, text: `${shown} does not answer (is the server up and reachable?)` };
    const pending = await withTimeout(pendingMigrations(database.db, database.dialect), null);
    if (pending === null) return { level: "problem", topic, text: `${shown}: could not read the migration state` };
    if (pending.length > 0) {
      return {
        level: "problem",
        topic,
        text: `${shown}: ${pending.length} migration(s) not applied (run gatehouse migrate): ${pending.join(", ")}`,
      };
    }
    return { level: "ok", topic, text: `${shown} answers; migrations up to date` };
  } finally {
    await database.close().catch(() => {});
  }
}

async function checkRedis(redisUrl: string | undefined): Promise<Finding> {
  const topic = "REDIS_URL";
  if (!redisUrl)
    return { level: "ok", topic, text: "not set: rate limits and revocations stay in one instance (or the database)" };
  let shown: string;
  try {
    // The host only: a Redis user name is part of its credentials.
    shown = new URL(redisUrl).host;
  } catch {
    return { level: "problem", topic, text: "is not a URL (redis://host:port)" };
  }
  const { Redis } = await import("ioredis");
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    connectTimeout: TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // The socket's own error ("connect ECONNREFUSED ...") says more than the rejected connect().
  let socketError: string | null = null;
  redis.on("error", (error: Error) => {
    socketError ??= error.message;
  });
  try {
    await redis.connect();
    const pong = await redis.ping();
    return { level: "ok", topic, text: `${shown} answers (${pong})` };
  } catch (error) {
    return { level: "problem", topic, text: `${shown} does not answer: ${socketError ?? (error as Error).message}` };
  } finally {
    redis.disconnect();
  }
}

/**
 * Where the service would send mail and whether it serves the development outbox, decided by the
 * same function start-up uses. Nothing when SMTP_URL or MAIL_DISABLED is wrong (said above).
 */
function checkMailDelivery(env: NodeJS.ProcessEnv, production: boolean): Finding[] {
  const baseURL = (env.BASE_URL ?? `http://localhost:${env.PORT || 3000}`).replace(/\/+$/, "");
  try {
    const smtpUrl = env.SMTP_URL ? checkSmtpUrl(env.SMTP_URL, "SMTP_URL") : null;
    const options = serviceMailOptions({ smtpUrl, mailDisabled: readMailDisabled(env), production });
    const silent = { info: () => {}, warn: () => {}, error: () => {} };
    const mail = resolveMail(options, { env: {}, production, baseURL, basePath: "/api/auth", logger: silent });
    mail.transport.close();
    const outbox = mail.devOutbox
      ? `the development outbox is served to this machine only (${baseURL}/dev/outbox); every mail's live links are there`
      : "no development outbox is served";
    return [{ level: mail.devOutbox ? "warn" : "ok", topic: "mail", text: `${mail.description}; ${outbox}` }];
  } catch (error) {
    if (error instanceof ConfigError) return [];
    throw error;
  }
}

async function checkSmtp(env: NodeJS.ProcessEnv, production: boolean): Promise<Finding> {
  const topic = "SMTP_URL";
  const smtpUrl = env.SMTP_URL;
  let mailDisabled: boolean;
  try {
    mailDisabled = readMailDisabled(env);
  } catch (error) {
    return { level: "problem", topic: "MAIL_DISABLED", text: (error as Error).message };
  }
  if (mailDisabled) {
    return {
      level: "warn",
      topic: "MAIL_DISABLED",
      text: "mail is off: nobody receives verification, reset, sign-in or invitation mail",
    };
  }
  if (!smtpUrl) {
    return production
      ? {
          level: "problem",
          topic,
          text: "not set: with NODE_ENV=production the service refuses to start (every mail, reset links included, would go to the log); set it, or MAIL_DISABLED=1 to run without mail",
        }
      : { level: "warn", topic, text: "not set: no mail leaves this machine" };
  }
  let host: string;
  try {
    host = new URL(smtpUrl).host;
  } catch {
    return { level: "problem", topic, text: "is not a URL (smtp://[user:pass@]host:port)" };
  }
  const nodemailer = (await import("nodemailer")).default;
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  try {
    await transporter.verify();
    return { level: "ok", topic, text: `${host} accepts a connection` };
  } catch (error) {
    // The host only: the URL's user and password stay out of the output.
    return { level: "problem", topic, text: `${host} cannot be reached or refused us: ${(error as Error).message}` };
  } finally {
    transporter.close();
  }
}

function withTimeout<T>(promise: Promise<T>, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), TIMEOUT_MS);
  });
  return Promise.race([promise.catch(() => fallback), timeout]).finally(() => clearTimeout(timer));
}

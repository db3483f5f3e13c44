import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MIN_SECRET_LENGTH } from "./auth.js";
import { checkSmtpUrl, type MailOptions, readMailDisabled } from "./email/delivery.js";
import { ConfigError } from "./options.js";
import { DEFAULT_DATABASE_URL, parseDatabaseUrl } from "./store/database.js";

/** The service's environment (docs/configuration.md), read and checked once at start-up. */
export interface ServiceEnvironment {
  port: number;
  host: string;
  baseURL: string;
  secret: string;
  databaseUrl: string;
  redisUrl: string | null;
  smtpUrl: string | null;
  /** MAIL_DISABLED: no mail is sent or logged (verification, reset and invitation mail included). */
  mailDisabled: boolean;
  mailFrom: string;
  authConfigPath: string | null;
  production: boolean;
  /** The parsed AUTH_CONFIG file, or null when it is unset. */
  options: unknown;
}

export const DATA_DIR = "./data";

export function readEnvironment(env: NodeJS.ProcessEnv = process.env): ServiceEnvironment {
  const production = env.NODE_ENV === "production";
  const port = parsePort(env.PORT);
  const baseURL = (env.BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, "");
  try {
    const url = new URL(baseURL);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error();
  } catch {
    throw new ConfigError(`BASE_URL must be an http(s) URL (got "${baseURL}")`);
  }
  const databaseUrl = readDatabaseUrl(env);
  const smtpUrl = env.SMTP_URL ? checkSmtpUrl(env.SMTP_URL, "SMTP_URL") : null;
  const mailDisabled = readMailDisabled(env);
  const authConfigPath = env.AUTH_CONFIG || null;
  return {
    port,
    host: env.HOST || "127.0.0.1",
    baseURL,
    secret: readSecret(env.AUTH_SECRET, production),
    databaseUrl,
    redisUrl: env.REDIS_URL || null,
    smtpUrl,
    mailDisabled,
    mailFrom: env.MAIL_FROM || `Gatehouse <no-reply@${new URL(baseURL).hostname}>`,
    authConfigPath,
    production,
    options: authConfigPath ? readOptionsFile(authConfigPath) : null,
  };
}

/**
 * The service's mail option: what the environment says, and in development without SMTP the
 * development outbox, so the application's outbox page lists the mail (`npm start`).
 */
export function serviceMailOptions(
  env: Pick<ServiceEnvironment, "smtpUrl" | "mailDisabled" | "production"> & { mailFrom?: string },
): MailOptions {
  return {
    smtpUrl: env.smtpUrl,
    disabled: env.mailDisabled,
    devOutbox: !env.production && !env.smtpUrl && !env.mailDisabled,
    from: env.mailFrom,
  };
}

/** DATABASE_URL (or the default SQLite file), checked: all that `gatehouse migrate` needs. */
export function readDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  const databaseUrl = env.DATABASE_URL || DEFAULT_DATABASE_URL;
  try {
    parseDatabaseUrl(databaseUrl);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  return databaseUrl;
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value === "") return 3000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be a whole number from 0 to 65535 (got "${value}")`);
  }
  return port;
}

/** AUTH_SECRET, or in development one generated once and kept in the data folder. */
function readSecret(value: string | undefined, production: boolean): string {
  if (value) {
    if (value.length < MIN_SECRET_LENGTH) {
      throw new ConfigError(`AUTH_SECRET must be at least ${MIN_SECRET_LENGTH} characters`);
    }
    return value;
  }
  if (production) throw new ConfigError("AUTH_SECRET is required when NODE_ENV=production");
  const file = join(DATA_DIR, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(DATA_DIR, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** The AUTH_CONFIG file, parsed as JSON; ConfigError naming the file when it cannot be read or parsed. */
export function readOptionsFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError(`AUTH_CONFIG: cannot read "${path}": ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`AUTH_CONFIG: "${path}" is not valid JSON: ${(error as Error).message}`);
  }
}

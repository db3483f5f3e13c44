import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MIN_SECRET_LENGTH } from "./auth.js";
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
  const smtpUrl = env.SMTP_URL || null;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) {
    throw new ConfigError("SMTP_URL must look like smtp://[user:pass@]host:port");
  }
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

/** MAIL_DISABLED, checked (it contradicts SMTP_URL): all that `gatehouse doctor` needs of the mail setup. */
export function readMailDisabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const disabled = parseFlag("MAIL_DISABLED", env.MAIL_DISABLED);
  if (disabled && env.SMTP_URL) throw new ConfigError("MAIL_DISABLED and SMTP_URL are both set: unset one of them");
  return disabled;
}

/** A yes/no variable: unset, "", 0 or false is off; 1 or true is on; anything else is refused. */
function parseFlag(name: string, value: string | undefined): boolean {
  if (value === undefined || value === "" || value === "0" || value === "false") return false;
  if (value === "1" || value === "true") return true;
  throw new ConfigError(`${name} must be 1, true, 0 or false (got "${value}")`);
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

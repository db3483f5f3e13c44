import { demoOptions } from "./demo-options.js";
import type { ServiceEnvironment } from "./environment.js";
import type { AuthOptions, AuthOptionsInput } from "./options.js";

/**
 * Where the service's options come from: the AUTH_CONFIG file, merged over the documented defaults
 * (every key it leaves out keeps its default, at any depth), or, without a file, the demo defaults
 * (the documented defaults with every feature the application shows turned on).
 */
export function serviceOptions(env: Pick<ServiceEnvironment, "options" | "authConfigPath">): {
  options: AuthOptionsInput;
  source: string;
} {
  // The file's JSON is unchecked here: createAuth validates it and names what is wrong (ConfigError).
  if (env.authConfigPath)
    return { options: env.options as AuthOptionsInput, source: `${env.authConfigPath} (over the documented defaults)` };
  return { options: demoOptions, source: "demo defaults (no AUTH_CONFIG)" };
}

/** A URL for a log line: user name kept, password and query (which may hold secrets) dropped. */
export function withoutPassword(url: string): string {
  if (url.startsWith("sqlite:")) return url;
  try {
    const parsed = new URL(url);
    parsed.password = "";
    parsed.search = "";
    return parsed.toString();
  } catch {
    return "(unparsable URL)";
  }
}

/** host:port only: the user name of a mail or cache account is a credential too. */
function hostOnly(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "(unparsable URL)";
  }
}

/** Which switchable features the options turn on, and which they leave off, by their option names. */
export function featureStates(options: Readonly<AuthOptions>): { on: string[]; off: string[] } {
  const org = options.organization.enabled;
  const switches: [string, boolean][] = [
    ["emailAndPassword", options.emailAndPassword.enabled],
    ["user.changeEmail", options.user.changeEmail.enabled],
    ["user.deleteUser", options.user.deleteUser.enabled],
    ["organization", org],
    ["organization.teams", org && options.organization.teams.enabled],
    ["admin", options.admin.enabled],
    ["jwt", options.jwt.enabled],
    ["anonymous", options.anonymous.enabled],
    ["twoFactor", options.twoFactor.enabled],
    ["magicLink", options.magicLink.enabled],
    ["emailOTP", options.emailOTP.enabled],
    ["passkey", options.passkey.enabled],
    ["sso", options.sso.enabled],
    ["scim", options.scim.enabled],
    ["organizationWebhooks", org && options.organizationWebhooks.enabled],
    ["apiKey", options.apiKey.enabled],
    ["securityActivity", options.securityActivity.enabled],
    ["audit", options.audit.enabled],
    ["metrics", options.metrics.enabled],
    ["session.cookieCache", options.session.cookieCache.enabled],
    ["rateLimit", options.rateLimit.enabled],
  ];
  for (const id of Object.keys(options.socialProviders)) switches.push([`socialProviders.${id}`, true]);
  return {
    on: switches.filter(([, on]) => on).map(([name]) => name),
    off: switches.filter(([, on]) => !on).map(([name]) => name),
  };
}

/**
 * The pages mails and redirects send people to that are paths on this service (`pages`), for the
 * features that are on: without the application nothing answers there.
 */
function pagesOnThisService(options: Readonly<AuthOptions>, production: boolean): string[] {
  const { pages } = options;
  const linked = [
    options.emailAndPassword.enabled && pages.resetPassword,
    options.magicLink.enabled && pages.magicLink,
    pages.verifyEmail,
    options.organization.enabled && pages.acceptInvitation,
    options.securityActivity.enabled && pages.secureAccount,
    // /api/auth/error answers itself in development.
    production && pages.error,
  ];
  return linked.filter((page): page is string => typeof page === "string" && page.startsWith("/"));
}

/**
 * The block of lines the service logs at start-up: where the options came from, which database, where
 * mail goes, which features are on. Never a secret: no AUTH_SECRET, no passwords, no mail credentials.
 */
export function startupSummary(input: {
  env: Pick<ServiceEnvironment, "databaseUrl" | "smtpUrl" | "mailDisabled" | "redisUrl" | "baseURL" | "production">;
  optionsSource: string;
  options: Readonly<AuthOptions>;
  basePath: string;
  /** Whether the application's pages are served (dist/app exists); the npm package serves the API alone. */
  application: boolean;
}): string[] {
  const { env, options } = input;
  const features = featureStates(options);
  const api = `${env.baseURL}${input.basePath}`;
  // Without the application, the outbox is the API's JSON list (the page that shows it is the app's).
  const outbox = input.application ? `${env.baseURL}/dev/outbox` : `${api}/dev/outbox (JSON)`;
  const mail = env.smtpUrl
    ? `SMTP ${hostOnly(env.smtpUrl)}`
    : env.mailDisabled
      ? "disabled (MAIL_DISABLED): nothing is sent"
      : `development outbox, ${outbox} (no SMTP_URL)`;
  const unserved = input.application ? [] : pagesOnThisService(options, env.production);
  return [
    `options:  ${input.optionsSource}`,
    `app:      ${input.application ? `${env.baseURL}/ (dist/app)` : `none: the API only, reference at ${api}/reference`}`,
    ...(unserved.length > 0
      ? [`pages:    not served here: ${unserved.join(", ")} (set pages, docs/cli.md#start)`]
      : []),
    `database: ${withoutPassword(env.databaseUrl)}`,
    `mail:     ${mail}`,
    `redis:    ${env.redisUrl ? hostOnly(env.redisUrl) : "none (rate limits and revocations in this process or the database)"}`,
    `public:   ${env.baseURL}${input.basePath} (${options.advanced.useSecureCookies ? "Secure" : "not Secure"} cookies)`,
    `features on:  ${features.on.join(", ") || "none"}`,
    `features off: ${features.off.join(", ") || "none"}`,
  ];
}

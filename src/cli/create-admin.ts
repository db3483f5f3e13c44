import { parseArgs } from "node:util";
import { createAuth } from "../server/auth.js";
import { readEnvironment } from "../server/environment.js";
import { isAuthError } from "../server/errors.js";
import type { Logger } from "../server/logger.js";
import { ensureAdminUser } from "../server/services/admin-bootstrap.js";
import { serviceOptions } from "../server/startup-summary.js";

/** Only problems reach the terminal: this is a one-shot command, not the service. */
const quietLogger: Logger = {
  info: () => {},
  warn: (message) => console.error(`warning: ${message}`),
  error: (message) => console.error(`error: ${message}`),
};

/**
 * `gatehouse create-admin --email E --password P [--name N]`: creates the user as an admin, or gives
 * an existing user the admin role (their password stays as it is); a second run changes nothing.
 * Uses the service's environment and options, and migrates first, as the service does.
 */
export async function createAdmin(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { email: { type: "string" }, password: { type: "string" }, name: { type: "string" } },
    strict: true,
  });
  if (!values.email) {
    console.error("gatehouse create-admin: --email is required (and --password to create a new user)");
    return 64;
  }
  const env = readEnvironment();
  const auth = await createAuth({
    baseURL: env.baseURL,
    secret: env.secret,
    database: env.databaseUrl,
    options: serviceOptions(env).options,
    mail: { smtpUrl: env.smtpUrl, disabled: env.mailDisabled, from: env.mailFrom },
    logger: quietLogger,
  });
  try {
    const { outcome, user } = await ensureAdminUser(auth.context, {
      email: values.email,
      password: values.password,
      name: values.name,
    });
    const said = {
      created: `created ${user.email} with the role "${user.role}"`,
      promoted: `${user.email} now has the role "${user.role}" (password unchanged)`,
      unchanged: `${user.email} is already an admin (nothing changed)`,
    }[outcome];
    console.log(`${said}; user id ${user.id}`);
    if (!auth.context.options.admin.enabled) console.log("note: admin.enabled is false, so the /admin/ routes are off");
    return 0;
  } catch (error) {
    if (!isAuthError(error)) throw error;
    console.error(`gatehouse create-admin: ${error.message} (${error.code})`);
    return 65;
  } finally {
    await auth.close();
  }
}

import { parseArgs } from "node:util";
import { createAuth } from "../server/auth.js";
import { readEnvironment } from "../server/environment.js";
import { isAuthError } from "../server/errors.js";
import type { Logger } from "../server/logger.js";
import { ensureAdminUser } from "../server/services/admin-bootstrap.js";
import { serviceOptions } from "../server/startup-summary.js";
import type { AppConfig } from "./config-module.js";
import { type CommandIO, processIO, readAll } from "./io.js";

/** Where the password comes from: never the command line, which ps and shell history show to others. */
export const PASSWORD_VARIABLE = "GATEHOUSE_ADMIN_PASSWORD";

/**
 * `gatehouse create-admin --email E [--name N] [--adopt]`: creates the user as an admin, or gives a
 * verified existing user the admin role (their password stays as it is); a second run changes
 * nothing. An unverified existing account is refused unless `--adopt`. The password is read from
 * GATEHOUSE_ADMIN_PASSWORD or standard input. Uses the app's configuration module when there is one,
 * else the service's environment and options, and migrates first, as createAuth does.
 */
export async function createAdmin(
  args: string[],
  io: CommandIO = processIO,
  app: AppConfig | null = null,
): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      email: { type: "string" },
      name: { type: "string" },
      adopt: { type: "boolean" },
      password: { type: "string" },
    },
    strict: true,
  });
  if (values.password !== undefined) {
    io.err(
      `gatehouse create-admin: --password is not accepted: a password on the command line is visible to other users (ps) and kept in shell history. Pipe it on standard input or set ${PASSWORD_VARIABLE}.`,
    );
    return 64;
  }
  if (!values.email) {
    io.err(
      `gatehouse create-admin: --email is required (and a password on standard input or in ${PASSWORD_VARIABLE} to create a new user)`,
    );
    return 64;
  }
  const setup = app ? null : readEnvironment(io.env);
  const password = await readPassword(io);
  // Only problems reach the terminal: this is a one-shot command, not the service.
  const quietLogger: Logger = {
    info: () => {},
    warn: (message) => io.err(`warning: ${message}`),
    error: (message) => io.err(`error: ${message}`),
  };
  const auth = await createAuth(
    setup
      ? {
          baseURL: setup.baseURL,
          secret: setup.secret,
          database: setup.databaseUrl,
          options: serviceOptions(setup).options,
          mail: { smtpUrl: setup.smtpUrl, disabled: setup.mailDisabled, from: setup.mailFrom },
          production: setup.production,
          logger: quietLogger,
        }
      : { ...(app as AppConfig).input, logger: quietLogger },
  );
  try {
    const { outcome, user } = await ensureAdminUser(auth.context, {
      email: values.email,
      password,
      name: values.name,
      adopt: values.adopt,
    });
    const said = {
      created: `created ${user.email} with the role "${user.role}"`,
      promoted: `${user.email} now has the role "${user.role}" (password unchanged)`,
      adopted: `adopted ${user.email} with the role "${user.role}": new password, every other credential and session removed`,
      unchanged: `${user.email} is already an admin (nothing changed)`,
    }[outcome];
    io.out(`${said}; user id ${user.id}`);
    if (!auth.context.options.admin.enabled) io.out("note: admin.enabled is false, so the /admin/ routes are off");
    return 0;
  } catch (error) {
    if (!isAuthError(error)) throw error;
    const hint = error.code === "UNVERIFIED_ACCOUNT_EXISTS" ? "; run again with --adopt to take it over" : "";
    io.err(`gatehouse create-admin: ${error.message} (${error.code})${hint}`);
    return 65;
  } finally {
    await auth.close();
  }
}

/**
 * GATEHOUSE_ADMIN_PASSWORD, else standard input when it is piped (one line; its line break is not
 * part of the password). A terminal is not read: nothing would hide what is typed.
 */
async function readPassword(io: CommandIO): Promise<string | undefined> {
  const fromEnv = io.env[PASSWORD_VARIABLE];
  if (fromEnv) return fromEnv;
  if (io.stdin.isTTY) return undefined;
  const text = (await readAll(io.stdin)).replace(/\r?\n$/, "");
  return text === "" ? undefined : text;
}

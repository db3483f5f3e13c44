import { ConfigError } from "../server/options.js";
import { auditCommand } from "./audit.js";
import { findConfigModule, loadConfigModule } from "./config-module.js";
import { createAdmin } from "./create-admin.js";
import { doctor } from "./doctor.js";
import { generateSecret } from "./generate-secret.js";
import { importCommand } from "./import/command.js";
import { type Command, type CommandIO, processIO } from "./io.js";
import { migrate } from "./migrate.js";
import { start } from "./start.js";

/** `usesConfig`: the command reads the app's configuration module (--config, gatehouse.config.*). */
const COMMANDS: Record<string, { run: Command; summary: string; usesConfig?: boolean }> = {
  migrate: { run: migrate, summary: "apply pending migrations to the database", usesConfig: true },
  "generate-secret": { run: generateSecret, summary: "print a new random AUTH_SECRET" },
  "create-admin": {
    run: createAdmin,
    summary:
      "--email E [--name N] [--adopt]: create an admin, or make an existing user one (password on stdin or GATEHOUSE_ADMIN_PASSWORD)",
    usesConfig: true,
  },
  doctor: {
    run: doctor,
    summary: "check the environment, database, Redis, SMTP and cookies; non-zero exit on problems",
    usesConfig: true,
  },
  import: {
    run: importCommand,
    summary:
      "--from SOURCE --source FILE_OR_URL [--apply] [--merge skip|link] [--refuse-weak]: import users from another system (dry run unless --apply)",
  },
  audit: {
    run: auditCommand,
    summary: "verify: check the audit trail's hash chain; names the first edited or deleted entry",
    usesConfig: true,
  },
  start: { run: start, summary: "run the service (migrates first), like npm start" },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, { summary }]) => `  ${name.padEnd(width)}  ${summary}`);
  return [
    "usage: gatehouse <command> [options]",
    "",
    ...lines,
    "",
    "Configuration: --config PATH or gatehouse.config.ts|.mjs|.js in this folder (what createAuth takes),",
    "else the environment (docs/configuration.md). migrate, create-admin, doctor and audit read it.",
  ].join("\n");
}

/** `--config PATH` or `--config=PATH` taken out of a command's arguments. */
function takeConfigFlag(args: string[]): { configPath: string | undefined; rest: string[] } {
  const rest: string[] = [];
  let configPath: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--config") {
      configPath = args[++i];
      // An argument mistake (exit 64), told as parseArgs tells its own.
      if (configPath === undefined) {
        throw Object.assign(new Error("--config needs a path"), { code: "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" });
      }
    } else if (arg.startsWith("--config=")) configPath = arg.slice("--config=".length);
    else rest.push(arg);
  }
  return { configPath, rest };
}

/** `gatehouse <argv>`: the exit code; operator mistakes are said in words, anything else is a bug. */
export async function runCommand(argv: string[], io: CommandIO = processIO): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    io.out(usage());
    return name === undefined ? 64 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`gatehouse: unknown command "${name}"\n\n${usage()}`);
    return 64;
  }
  try {
    const { configPath, rest } = takeConfigFlag(args);
    if (configPath !== undefined && !command.usesConfig) {
      io.err(`gatehouse ${name}: --config is not accepted (only migrate, create-admin, doctor and audit read it)`);
      return 64;
    }
    const found = command.usesConfig ? findConfigModule(configPath, io.cwd ?? process.cwd()) : null;
    return await command.run(rest, io, found ? await loadConfigModule(found) : null);
  } catch (error) {
    // ConfigError and argument errors carry a message meant for the operator; anything else is a bug.
    const code = (error as { code?: string }).code;
    if (error instanceof ConfigError || code?.startsWith("ERR_PARSE_ARGS_")) {
      io.err(`gatehouse: ${(error as Error).message}`);
      return error instanceof ConfigError ? 78 : 64;
    }
    throw error;
  }
}

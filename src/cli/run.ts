import { ConfigError } from "../server/options.js";
import { createAdmin } from "./create-admin.js";
import { doctor } from "./doctor.js";
import { generateSecret } from "./generate-secret.js";
import { importCommand } from "./import/command.js";
import { type Command, type CommandIO, processIO } from "./io.js";
import { migrate } from "./migrate.js";
import { start } from "./start.js";

const COMMANDS: Record<string, { run: Command; summary: string }> = {
  migrate: { run: migrate, summary: "apply pending migrations to DATABASE_URL" },
  "generate-secret": { run: generateSecret, summary: "print a new random AUTH_SECRET" },
  "create-admin": {
    run: createAdmin,
    summary:
      "--email E [--name N] [--adopt]: create an admin, or make an existing user one (password on stdin or GATEHOUSE_ADMIN_PASSWORD)",
  },
  doctor: {
    run: doctor,
    summary: "check the environment, database, Redis, SMTP and cookies; non-zero exit on problems",
  },
  import: {
    run: importCommand,
    summary: "--from SOURCE --source FILE_OR_URL [--apply]: import users from another system (dry run unless --apply)",
  },
  start: { run: start, summary: "run the service (migrates first), like npm start" },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, { summary }]) => `  ${name.padEnd(width)}  ${summary}`);
  return ["usage: gatehouse <command> [options]", "", ...lines, "", "Configuration: the environment (CONFIG.md)."].join(
    "\n",
  );
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
    return await command.run(args, io);
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

#!/usr/bin/env node
import { ConfigError } from "../server/options.js";
import { createAdmin } from "./create-admin.js";
import { doctor } from "./doctor.js";
import { generateSecret } from "./generate-secret.js";
import { migrate } from "./migrate.js";
import { start } from "./start.js";

/** A command: its arguments after the command name in, an exit code out. */
export type Command = (args: string[]) => Promise<number>;

const COMMANDS: Record<string, { run: Command; summary: string }> = {
  migrate: { run: migrate, summary: "apply pending migrations to DATABASE_URL" },
  "generate-secret": { run: generateSecret, summary: "print a new random AUTH_SECRET" },
  "create-admin": {
    run: createAdmin,
    summary: "--email E --password P [--name N]: create an admin, or make an existing user one",
  },
  doctor: {
    run: doctor,
    summary: "check the environment, database, Redis, SMTP and cookies; non-zero exit on problems",
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

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    console.log(usage());
    return name === undefined ? 64 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`gatehouse: unknown command "${name}"\n\n${usage()}`);
    return 64;
  }
  return command.run(args);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    // ConfigError and argument errors carry a message meant for the operator; anything else is a bug.
    if (error instanceof ConfigError || (error as { code?: string }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      console.error(`gatehouse: ${(error as Error).message}`);
      process.exitCode = error instanceof ConfigError ? 78 : 64;
      return;
    }
    console.error(error);
    process.exitCode = 1;
  },
);

import type { AppConfig } from "./config-module.js";

/**
 * What a command reads and writes besides its arguments: the process's own when run from a shell, a
 * test's when called in process (no child process to start per case).
 */
export interface CommandIO {
  env: NodeJS.ProcessEnv;
  /** Where gatehouse.config.* is looked for (default: the process's working directory). */
  cwd?: string;
  /** Read only by commands that take a secret (create-admin's password). */
  stdin: AsyncIterable<string | Buffer> & { isTTY?: boolean };
  out(line: string): void;
  err(line: string): void;
  /**
   * A status line rewritten in place (a progress bar) on a terminal; null clears it. Absent when
   * standard error is not a terminal: the command then writes its status with `err`, a line at a time.
   */
  status?(text: string | null): void;
}

export const processIO: CommandIO = {
  env: process.env,
  stdin: process.stdin,
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  status: process.stderr.isTTY
    ? (text) =>
        process.stderr.write(
          text === null ? "\r\x1b[K" : `\r\x1b[K${text.slice(0, (process.stderr.columns || 80) - 1)}`,
        )
    : undefined,
};

/**
 * A command: its arguments after the command name in, an exit code out. `app` is the app's
 * configuration module when one was given or found (config-module.ts), for the commands that use it.
 */
export type Command = (args: string[], io?: CommandIO, app?: AppConfig | null) => Promise<number>;

/** Everything on standard input, as text (a secret piped in, or empty when stdin is closed). */
export async function readAll(stdin: CommandIO["stdin"]): Promise<string> {
  let text = "";
  for await (const chunk of stdin) text += typeof chunk === "string" ? chunk : chunk.toString("utf8");
  return text;
}

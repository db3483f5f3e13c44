import { existsSync } from "node:fs";
import { extname, isAbsolute, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { CreateAuthInput } from "../server/auth.js";
import { ConfigError } from "../server/options.js";

/**
 * The app's configuration module: what createAuth takes, exported by the app so the CLI sees the
 * options and database the app runs with (issue 30, item 6). `--config PATH`, else the first of
 * these in the working directory; without one, the CLI reads the environment as the service does.
 */
export const CONFIG_FILES = ["gatehouse.config.ts", "gatehouse.config.mjs", "gatehouse.config.js"] as const;

export interface AppConfig {
  /** The module's path, as given or found: shown in messages. */
  path: string;
  input: CreateAuthInput;
}

/** The module's path: `--config`'s (which must exist), else a CONFIG_FILES entry in `cwd`, else null. */
export function findConfigModule(explicit: string | undefined, cwd: string): string | null {
  if (explicit !== undefined) {
    const path = isAbsolute(explicit) ? explicit : join(cwd, explicit);
    if (!existsSync(path)) throw new ConfigError(`--config: "${explicit}" does not exist`);
    return path;
  }
  for (const name of CONFIG_FILES) {
    const path = join(cwd, name);
    if (existsSync(path)) return path;
  }
  return null;
}

/** Loads the module and checks that it exports (default, or `auth`) the object createAuth takes. */
export async function loadConfigModule(path: string): Promise<AppConfig> {
  let exported: Record<string, unknown>;
  try {
    exported = await importModule(path);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`${path} could not be loaded: ${(error as Error).message ?? error}`);
  }
  const input = exportedInput(exported);
  if (typeof input !== "object" || input === null) {
    throw new ConfigError(`${path} must export the object createAuth takes, as its default export or as "auth"`);
  }
  if ("handler" in input && "context" in input) {
    throw new ConfigError(
      `${path} exports a started Auth (what createAuth returns): export the object createAuth takes instead, and pass it to createAuth in the app`,
    );
  }
  return { path, input: input as CreateAuthInput };
}

/**
 * The default export, else `auth`. A module loaded as CommonJS (a .ts file outside a `"type":
 * "module"` package) arrives with its exports object as the default: looked into once.
 */
function exportedInput(exported: Record<string, unknown>): unknown {
  const first = exported.default ?? exported.auth;
  const inner = first as Record<string, unknown> | undefined;
  if (inner && typeof inner === "object" && !("database" in inner) && ("default" in inner || "auth" in inner)) {
    return inner.default ?? inner.auth;
  }
  return first;
}

async function importModule(path: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(path).href;
  if (extname(path) !== ".ts") return import(url);
  // TypeScript: through tsx when the app has it, else Node's own type stripping (22.6+ with the flag).
  const tsx = await import("tsx/esm/api").catch(() => null);
  if (tsx) return tsx.tsImport(url, import.meta.url);
  try {
    return await import(url);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ERR_UNKNOWN_FILE_EXTENSION") throw error;
    throw new ConfigError(
      `${path} is TypeScript: install tsx (npm install -D tsx), or run Node 22.6 or later with --experimental-strip-types, or write the module as .mjs`,
    );
  }
}

/** glibc's mmap threshold, fixed at its default (128 KiB): why, in docs/deployment.md, "Memory". */
export const MALLOC_SETTINGS: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: "131072" };

/**
 * The environment to restart the service with, or null to run as is. glibc reads these variables
 * before any JavaScript runs, so the service sets them by replacing itself (execve: same process id,
 * no second process); not on other systems, not when the operator set one, and not on a Node without
 * process.execve (before 22.15), which runs untuned.
 */
export function mallocRestartEnv(
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
  canExecve: boolean,
): NodeJS.ProcessEnv | null {
  if (platform !== "linux" || !canExecve) return null;
  if (Object.keys(MALLOC_SETTINGS).some((name) => env[name] !== undefined)) return null;
  return { ...env, ...MALLOC_SETTINGS };
}

type Execve = (file: string, args: string[], env: NodeJS.ProcessEnv) => never;

/** Restarts this process with MALLOC_SETTINGS when it should (see mallocRestartEnv); else returns. */
export function restartWithMallocSettings(): void {
  const execve = (process as unknown as { execve?: Execve }).execve;
  const env = mallocRestartEnv(process.platform, process.env, typeof execve === "function");
  if (!env || !execve) return;
  execve.call(process, process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], env);
}

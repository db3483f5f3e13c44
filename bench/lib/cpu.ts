import { spawnSync } from "node:child_process";

/** Server on core 0, load generator on core 1, so neither steals the other's CPU. */
export const SERVER_CORE = "0";
export const LOAD_CORE = "1";

let available: boolean | null = null;

/** Whether util-linux `taskset` runs here (and the machine has a second core to pin to). */
export function hasTaskset(): boolean {
  if (available === null) {
    const probe = spawnSync("taskset", ["-c", LOAD_CORE, "true"], { stdio: "ignore" });
    available = probe.status === 0;
  }
  return available;
}

/** The command line that runs `argv` pinned to `core`, or unpinned when taskset is missing. */
export function pinned(core: string, argv: string[]): string[] {
  return hasTaskset() ? ["taskset", "-c", core, ...argv] : argv;
}

/** Pins every thread of this process (the load generator) to the load core. */
export function pinSelf(): boolean {
  if (!hasTaskset()) return false;
  return spawnSync("taskset", ["-a", "-p", "-c", LOAD_CORE, String(process.pid)], { stdio: "ignore" }).status === 0;
}

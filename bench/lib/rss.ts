import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** Resident set size of a process in MB (VmRSS from /proc), or null when it cannot be read. */
export function readRssMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every `intervalMs` until stopped; stop() gives the maximum seen. */
export function sampleRss(pid: number, intervalMs = 100): { stop(): number | null } {
  let max: number | null = readRssMb(pid);
  const timer = setInterval(() => {
    const rss = readRssMb(pid);
    if (rss !== null && (max === null || rss > max)) max = rss;
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      const last = readRssMb(pid);
      if (last !== null && (max === null || last > max)) max = last;
      return max;
    },
  };
}

let ticksPerSecond: number | null = null;

/**
 * CPU time a process has used so far (user + system, in ms), from /proc/<pid>/stat. Per request it
 * is a steadier figure than requests/s on a machine other work shares.
 */
export function readCpuMs(pid: number): number | null {
  try {
    ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may contain spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return null;
  }
}

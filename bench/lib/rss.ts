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

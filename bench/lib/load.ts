import autocannon, { type AutocannonRequest } from "autocannon";
import { readCpuMs, sampleRss } from "./rss.js";

export interface LoadFigures {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** Server CPU time (user + system) per answered request, in microseconds. */
  serverCpuUsPerRequest: number | null;
  /** Highest server RSS sampled during the load (MB). */
  maxRssMb: number | null;
  requests: number;
  /** Connection errors, timeouts and non-2xx answers: any of them makes the figures suspect. */
  errors: number;
  non2xx: number;
}

export interface LoadSettings {
  connections: number;
  seconds: number;
  /**
   * Requests a second in all, or undefined for as many as the server answers. A fixed rate compares
   * CPU per request at equal load: a server run flat out spends less per request the more each
   * event-loop turn batches, so the slower of two scenarios would also pay for being slower.
   */
  rate?: number;
  /** Run now and every 250 ms during the load (PostgreSQL mode pins new server processes with it). */
  meanwhile?: () => Promise<unknown>;
}

/** Drives `requests` at `origin` with autocannon while sampling the server's RSS. */
export async function runLoad(
  origin: string,
  serverPid: number,
  requests: AutocannonRequest[],
  settings: LoadSettings,
): Promise<LoadFigures> {
  await settings.meanwhile?.();
  const timer = settings.meanwhile ? setInterval(() => void settings.meanwhile?.().catch(() => {}), 250) : null;
  const rss = sampleRss(serverPid);
  const cpuBefore = readCpuMs(serverPid);
  const result = await autocannon({
    url: origin,
    connections: settings.connections,
    duration: settings.seconds,
    requests,
    ...(settings.rate ? { overallRate: settings.rate } : {}),
  });
  if (timer) clearInterval(timer);
  const maxRssMb = rss.stop();
  const cpuAfter = readCpuMs(serverPid);
  const answered = result.requests.total;
  const serverCpuUsPerRequest =
    cpuBefore !== null && cpuAfter !== null && answered > 0 ? ((cpuAfter - cpuBefore) * 1000) / answered : null;
  return {
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    serverCpuUsPerRequest,
    maxRssMb,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** A short unmeasured run so the JIT and caches are warm before the figures count. */
export async function warmUp(origin: string, requests: AutocannonRequest[], connections: number): Promise<void> {
  await autocannon({ url: origin, connections, duration: 2, requests });
}

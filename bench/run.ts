/**
 * `npm run bench`: each scenario on its own fresh service (NODE_ENV=production, rate limits off) and
 * fresh SQLite database, server pinned to core 0 and autocannon to core 1. The measured runs are
 * interleaved in rounds (every scenario once per round) and each scenario keeps its best round, so
 * a burst of other work on the machine does not decide a ratio. Then the floor ratios, database round
 * trips per get-session, a table, and bench/results/<timestamp>.json.
 *
 * BENCH_SECONDS (10 per scenario, split over the rounds), BENCH_ROUNDS (3), BENCH_CONNECTIONS (10),
 * BENCH_USERS (50), BENCH_ONLY=name,name (a subset), BENCH_NODE_ARGS (extra node flags for servers).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import type { AutocannonRequest } from "autocannon";
import { hasTaskset, LOAD_CORE, pinSelf, SERVER_CORE } from "./lib/cpu.js";
import { type LoadFigures, runLoad, warmUp } from "./lib/load.js";
import { BASE_PATH, createWorkDir, REPO_ROOT, type RunningServer, startFloor, startService } from "./lib/servers.js";
import { queriesPerGetSession } from "./query-count.js";
import { RSS_TARGET_MB, ratioTargets, scenarios } from "./scenarios/index.js";
import type { Scenario } from "./scenarios/types.js";

const settings = {
  seconds: positiveInt("BENCH_SECONDS", 10),
  rounds: positiveInt("BENCH_ROUNDS", 3),
  connections: positiveInt("BENCH_CONNECTIONS", 10),
  users: positiveInt("BENCH_USERS", 50),
};
const only = process.env.BENCH_ONLY?.split(",").map((s) => s.trim());

/** The options every scenario starts from: production defaults with rate limiting off. */
const BASE_OPTIONS = { rateLimit: { enabled: false } };

function positiveInt(name: string, fallback: number): number {
  const value = process.env[name];
  if (!value) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number (got "${value}")`);
  return n;
}

function merge(base: Record<string, any>, extra: Record<string, any> = {}): Record<string, any> {
  const out: Record<string, any> = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    out[key] =
      value && typeof value === "object" && !Array.isArray(value) && typeof out[key] === "object"
        ? merge(out[key], value)
        : value;
  }
  return out;
}

interface Prepared {
  scenario: Scenario;
  server: RunningServer;
  requests: AutocannonRequest[];
  rounds: LoadFigures[];
}

/** Starts the scenario's server, seeds it and warms it up; the server stays up for the rounds. */
async function prepare(scenario: Scenario, workDir: string): Promise<Prepared> {
  const databasePath = join(workDir, `${scenario.name}.sqlite`);
  let server = await startService(workDir, scenario.name, databasePath, merge(BASE_OPTIONS, scenario.options));
  try {
    const requests = await scenario.setup({ origin: server.origin, basePath: BASE_PATH, users: settings.users });
    if (scenario.server === "floor") {
      await server.stop();
      server = await startFloor(workDir, databasePath);
    }
    await warmUp(server.origin, requests, settings.connections);
    return { scenario, server, requests, rounds: [] };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** The round with the most requests/s (the least disturbed), with the highest RSS of all rounds. */
function best(rounds: LoadFigures[]): LoadFigures {
  const top = rounds.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
  const rss = rounds.map((r) => r.maxRssMb).filter((r): r is number => r !== null);
  const cpu = rounds.map((r) => r.serverCpuUsPerRequest).filter((r): r is number => r !== null);
  return {
    ...top,
    maxRssMb: rss.length ? Math.max(...rss) : null,
    serverCpuUsPerRequest: cpu.length ? Math.min(...cpu) : null,
    errors: rounds.reduce((n, r) => n + r.errors, 0),
    non2xx: rounds.reduce((n, r) => n + r.non2xx, 0),
  };
}

const fmt = (n: number | null, digits = 0) => (n === null ? "n/a" : n.toFixed(digits));

async function main(): Promise<void> {
  const pinnedOk = pinSelf();
  console.log(
    pinnedOk
      ? `Server on core ${SERVER_CORE}, autocannon on core ${LOAD_CORE} (taskset).`
      : hasTaskset()
        ? "Note: could not pin the load generator; figures share cores."
        : "Note: taskset (util-linux) not found or only one core: server and load generator share cores, figures are lower.",
  );
  const roundSeconds = Math.max(1, Math.round(settings.seconds / settings.rounds));
  console.log(
    `${settings.connections} connections, ${settings.rounds} rounds of ${roundSeconds} s per scenario, ` +
      `${settings.users} users; ${cpus().length} cores (${cpus()[0]?.model ?? "unknown"}), Node ${process.version}.\n`,
  );

  const workDir = createWorkDir();
  const prepared: Prepared[] = [];
  try {
    for (const scenario of scenarios) {
      if (only && !only.includes(scenario.name)) continue;
      process.stdout.write(`setting up ${scenario.name} ... `);
      prepared.push(await prepare(scenario, workDir.path));
      console.log("ready");
    }
    for (let round = 1; round <= settings.rounds; round += 1) {
      const line: string[] = [];
      for (const p of prepared) {
        const figures = await runLoad(p.server.origin, p.server.pid, p.requests, {
          connections: settings.connections,
          seconds: roundSeconds,
        });
        p.rounds.push(figures);
        line.push(`${p.scenario.name} ${fmt(figures.requestsPerSecond)}`);
      }
      console.log(`round ${round}: ${line.join(", ")} req/s`);
    }
  } finally {
    for (const p of prepared) await p.server.stop();
    workDir.remove();
  }

  const results: Record<string, LoadFigures & { description: string; rounds: LoadFigures[] }> = {};
  for (const p of prepared)
    results[p.scenario.name] = { description: p.scenario.description, ...best(p.rounds), rounds: p.rounds };

  const queries = {
    getSessionWithoutCache: await queriesPerGetSession(false),
    getSessionWithFreshCache: await queriesPerGetSession(true),
  };

  console.log("");
  console.table(
    Object.entries(results).map(([name, r]) => ({
      scenario: name,
      "req/s": fmt(r.requestsPerSecond),
      "p50 ms": fmt(r.latencyP50Ms, 1),
      "p99 ms": fmt(r.latencyP99Ms, 1),
      "server CPU µs/req": fmt(r.serverCpuUsPerRequest),
      "max RSS MB": fmt(r.maxRssMb, 1),
      "errors/non-2xx": `${r.errors}/${r.non2xx}`,
    })),
  );

  const ratios = ratioTargets.flatMap(({ scenario, reference, target }) => {
    const a = results[scenario];
    const b = results[reference];
    if (!a || !b) return [];
    const ratio = a.requestsPerSecond / b.requestsPerSecond;
    const cpuRatio =
      a.serverCpuUsPerRequest && b.serverCpuUsPerRequest ? b.serverCpuUsPerRequest / a.serverCpuUsPerRequest : null;
    return [{ scenario, reference, ratio, cpuRatio, target, met: ratio >= target }];
  });
  for (const r of ratios) {
    console.log(
      `${r.scenario} / ${r.reference}: ${r.ratio.toFixed(2)}x requests/s (target >= ${r.target}x) ` +
        `${r.met ? "ok" : "BELOW TARGET"}; ${fmt(r.cpuRatio, 2)}x by server CPU per request`,
    );
  }
  const rssChecks = Object.entries(results).map(([scenario, r]) => ({
    scenario,
    maxRssMb: r.maxRssMb,
    met: r.maxRssMb !== null && r.maxRssMb <= RSS_TARGET_MB,
  }));
  for (const r of rssChecks) {
    if (!r.met) console.log(`${r.scenario}: RSS under load ${fmt(r.maxRssMb, 1)} MB (target <= ${RSS_TARGET_MB} MB)`);
  }
  console.log(
    `Database round trips per get-session: ${queries.getSessionWithoutCache} without cookie cache (target 1), ` +
      `${queries.getSessionWithFreshCache} with a fresh cookie cache (target 0).`,
  );
  for (const [name, r] of Object.entries(results)) {
    if (r.errors > 0 || r.non2xx > 0)
      console.log(`WARNING: ${name} had ${r.errors} errors and ${r.non2xx} non-2xx answers.`);
  }

  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const outDir = join(REPO_ROOT, "bench/results");
  mkdirSync(outDir, { recursive: true });
  const outFile = join(outDir, `${stamp}.json`);
  const report = {
    date: new Date().toISOString(),
    machine: { cores: cpus().length, cpu: cpus()[0]?.model ?? null, node: process.version, pinned: pinnedOk },
    settings: { ...settings, roundSeconds },
    scenarios: results,
    ratios,
    rssTargetMb: RSS_TARGET_MB,
    rss: rssChecks,
    queriesPerGetSession: queries,
  };
  writeFileSync(outFile, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nWrote ${outFile}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

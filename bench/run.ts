/**
 * `npm run bench`: each scenario on its own fresh service (NODE_ENV=production, rate limits off) and
 * fresh database, server pinned to core 0 and autocannon to core 1. Read routes also run against the
 * floor (bench/floor-server.ts) on the same SQLite database. The measured runs are interleaved in
 * rounds (every server once per round) and each keeps its best round, so a burst of other work on the
 * machine does not decide a ratio. Then the ratios, database round trips per get-session, a table, and
 * bench/results/<timestamp>.json.
 *
 * BENCH_SECONDS (10 per scenario, split over the rounds), BENCH_ROUNDS (3), BENCH_CONNECTIONS (20),
 * BENCH_RATE (requests a second in all, for CPU per request at equal load; as fast as answered if unset),
 * BENCH_USERS (100), BENCH_ONLY=name,name (a subset; opt-in scenarios only this way),
 * BENCH_DATABASES=sqlite,postgres (sqlite), BENCH_NODE_ARGS (extra node flags for servers),
 * BENCH_BASELINE (another checkout's built dist/server/main.js, run as `base:<scenario>` on the same
 * database in the same rounds: before/after in one run).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join, resolve } from "node:path";
import type { AutocannonRequest } from "autocannon";
import { hasTaskset, LOAD_CORE, pinSelf, SERVER_CORE } from "./lib/cpu.js";
import { type BenchDatabase, createDatabase, type DatabaseKind } from "./lib/databases.js";
import { type LoadFigures, runLoad, warmUp } from "./lib/load.js";
import { BASE_PATH, createWorkDir, REPO_ROOT, type RunningServer, startFloor, startService } from "./lib/servers.js";
import { queriesPerGetSession } from "./query-count.js";
import {
  CACHED_TARGET,
  FLOOR_TARGET,
  POSTGRES_TARGET,
  RSS_TARGET_MB,
  SCALE_P99_TARGET,
  scenarios,
} from "./scenarios/index.js";
import type { Scenario } from "./scenarios/types.js";

const settings = {
  seconds: positiveInt("BENCH_SECONDS", 10),
  rounds: positiveInt("BENCH_ROUNDS", 3),
  connections: positiveInt("BENCH_CONNECTIONS", 20),
  users: positiveInt("BENCH_USERS", 100),
  rate: process.env.BENCH_RATE ? positiveInt("BENCH_RATE", 1) : undefined,
};
const only = process.env.BENCH_ONLY?.split(",").map((s) => s.trim());
const baseline = process.env.BENCH_BASELINE ? resolve(process.env.BENCH_BASELINE) : null;
const databases = (process.env.BENCH_DATABASES ?? "sqlite").split(",").map((s) => s.trim()) as DatabaseKind[];
for (const d of databases)
  if (d !== "sqlite" && d !== "postgres") throw new Error(`unknown database "${d}" in BENCH_DATABASES`);

/** services/revocations.ts: DEFAULT_FEED_CLOCK_SKEW_MS. */
const REVOCATION_SKEW_MS = 1000;

/** The options every scenario starts from: production defaults with rate limiting off (BENCH_AUDIT=1: the audit trail on). */
const BASE_OPTIONS = {
  rateLimit: { enabled: false },
  ...(process.env.BENCH_AUDIT === "1" ? { audit: { enabled: true } } : {}),
};

/** The seeded requests as sent to `server`: its origin in place of the seeder's in every Origin header. */
function from(requests: AutocannonRequest[], seeder: RunningServer, server: RunningServer): AutocannonRequest[] {
  return requests.map((request) =>
    request.headers?.origin === seeder.origin
      ? { ...request, headers: { ...request.headers, origin: server.origin } }
      : request,
  );
}

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

/** A scenario's name on a database: `list-sessions` on SQLite, `list-sessions@pg` on PostgreSQL. */
const labelFor = (name: string, database: DatabaseKind) => (database === "sqlite" ? name : `${name}@pg`);

/** One server under load: a scenario's service, or the floor on that scenario's database. */
interface Loaded {
  label: string;
  description: string;
  server: RunningServer;
  database: BenchDatabase;
  requests: AutocannonRequest[];
  rounds: LoadFigures[];
}

/** Starts the scenario's server (and its floor), seeds it and warms it up; they stay up for the rounds. */
async function prepare(scenario: Scenario, kind: DatabaseKind, workDir: string): Promise<Loaded[]> {
  const label = labelFor(scenario.name, kind);
  const database = await createDatabase(kind, workDir, scenario.name);
  const servers: RunningServer[] = [];
  try {
    const options = merge(BASE_OPTIONS, scenario.options);
    const seeder = await startService(workDir, `seed:${label}`, database.url, options, null, scenario.env);
    servers.push(seeder);
    // With PostgreSQL the service hears revocations over LISTEN and trusts no cookie cache read within
    // a second (the clock-skew allowance) of its starting to listen. Seeded now, the cached scenario's
    // cookies would all be refused, and autocannon never takes the fresh ones the answers set.
    if (kind === "postgres") await new Promise((resolve) => setTimeout(resolve, REVOCATION_SKEW_MS + 200));
    const requests = await scenario.setup({
      origin: seeder.origin,
      basePath: BASE_PATH,
      users: settings.users,
      databaseUrl: database.url,
      database: kind,
    });
    // Every measured server starts once the database is seeded and has served nothing else: the seeder
    // hashed every user's password, and a build measured in the process that seeded ran about 9 % behind
    // the same build started afresh (bench/README.md, "The seeding server").
    await seeder.stop();
    servers.splice(servers.indexOf(seeder), 1);
    const server = await startService(workDir, label, database.url, options, null, scenario.env);
    servers.push(server);
    if (kind === "postgres") await new Promise((resolve) => setTimeout(resolve, REVOCATION_SKEW_MS + 200));
    // The requests name the seeder's origin (sign-in's login check refuses a foreign one): each server
    // gets them with its own.
    const loaded: Loaded[] = [
      {
        label,
        description: scenario.description,
        server,
        database,
        requests: from(requests, seeder, server),
        rounds: [],
      },
    ];
    if (baseline) {
      // The same seeded database (the cookies are signed with the same secret), another build.
      const base = await startService(
        workDir,
        `base:${label}`,
        database.url,
        merge(BASE_OPTIONS, scenario.options),
        baseline,
        scenario.env,
      );
      servers.push(base);
      const description = `${scenario.name} on the baseline build (BENCH_BASELINE)`;
      loaded.push({
        label: `base:${label}`,
        description,
        server: base,
        database,
        requests: from(requests, seeder, base),
        rounds: [],
      });
    }
    if (scenario.floor && database.sqlitePath) {
      const floor = await startFloor(workDir, database.sqlitePath);
      servers.push(floor);
      loaded.push({
        label: `floor:${scenario.name}`,
        description: `floor reference for ${scenario.name}: node:http + one prepared better-sqlite3 statement`,
        server: floor,
        database,
        requests,
        rounds: [],
      });
    }
    for (const l of loaded) await warmUp(l.server.origin, l.requests, settings.connections);
    return loaded;
  } catch (error) {
    for (const s of servers) await s.stop();
    await database.drop();
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
      `${settings.users} users, databases ${databases.join(", ")}; ${cpus().length} cores ` +
      `(${cpus()[0]?.model ?? "unknown"}), Node ${process.version}.\n`,
  );

  const workDir = createWorkDir();
  const loaded: Loaded[] = [];
  let postgresPinned = 0;
  try {
    for (const database of databases) {
      for (const scenario of scenarios) {
        if (only ? !only.includes(scenario.name) : scenario.optIn) continue;
        process.stdout.write(`setting up ${labelFor(scenario.name, database)} ... `);
        loaded.push(...(await prepare(scenario, database, workDir.path)));
        console.log("ready");
      }
    }
    for (let round = 1; round <= settings.rounds; round += 1) {
      const line: string[] = [];
      for (const l of loaded) {
        // The pool opens and closes connections as the load comes and goes: pin their server processes
        // before and all through the round.
        const pin =
          l.database.kind === "postgres"
            ? async () => {
                postgresPinned = Math.max(postgresPinned, await l.database.pin());
              }
            : undefined;
        const figures = await runLoad(l.server.origin, l.server.pid, l.requests, {
          connections: settings.connections,
          seconds: roundSeconds,
          rate: settings.rate,
          meanwhile: pin,
        });
        l.rounds.push(figures);
        line.push(`${l.label} ${fmt(figures.requestsPerSecond)}`);
      }
      console.log(`round ${round}: ${line.join(", ")} req/s`);
    }
  } finally {
    for (const l of loaded) await l.server.stop();
    for (const d of new Set(loaded.map((l) => l.database))) await d.drop();
    workDir.remove();
  }
  if (databases.includes("postgres")) {
    console.log(
      postgresPinned > 0
        ? `PostgreSQL: up to ${postgresPinned} server processes per database pinned to core ${SERVER_CORE}.`
        : process.env.BENCH_PIN_POSTGRES === "0"
          ? "PostgreSQL: server processes left unpinned (BENCH_PIN_POSTGRES=0)."
          : "PostgreSQL: its server processes could not be pinned (taskset -p needs root or CAP_SYS_NICE).",
    );
  }

  const results: Record<string, LoadFigures & { description: string; rounds: LoadFigures[] }> = {};
  for (const l of loaded) results[l.label] = { description: l.description, ...best(l.rounds), rounds: l.rounds };

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

  const ratioTargets = [
    ...scenarios
      .filter((s) => s.floor)
      .map((s) => ({ scenario: s.name, reference: `floor:${s.name}`, target: FLOOR_TARGET })),
    CACHED_TARGET,
    ...scenarios.map((s) => ({ scenario: labelFor(s.name, "postgres"), reference: s.name, target: POSTGRES_TARGET })),
    ...scenarios.flatMap((s) =>
      databases.map((d) => ({ scenario: labelFor(s.name, d), reference: `base:${labelFor(s.name, d)}`, target: 1 })),
    ),
  ];
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
  const scale = databases.flatMap((d) => {
    const big = results[labelFor("get-session-scale", d)];
    const small = results[labelFor("get-session", d)];
    if (!big || !small) return [];
    const p99Ratio = big.latencyP99Ms / Math.max(small.latencyP99Ms, 1);
    return [
      {
        database: d,
        p99Ms: big.latencyP99Ms,
        smallP99Ms: small.latencyP99Ms,
        p99Ratio,
        met: p99Ratio <= SCALE_P99_TARGET,
      },
    ];
  });
  for (const s of scale) {
    console.log(
      `get-session p99 on the large ${s.database} database: ${s.p99Ms} ms against ${s.smallP99Ms} ms ` +
        `(${s.p99Ratio.toFixed(2)}x, target <= ${SCALE_P99_TARGET}x) ${s.met ? "ok" : "ABOVE TARGET"}`,
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
    settings: { ...settings, roundSeconds, databases },
    scenarios: results,
    ratios,
    scale,
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

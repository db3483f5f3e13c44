/**
 * Audited writes across instances on PostgreSQL (issue 50): the cheapest audited write (update-user,
 * a rename) driven at 1 instance × 16 connections and at 2 instances × 16 connections each, on one
 * database, interleaved in rounds (best round kept), and the sealing lag: how long after its write an
 * entry is seen sealed, by a poller reading newly sealed entries every 20 ms (so up to 20 ms late),
 * for this build only.
 * BENCH_BASELINE (another checkout's built dist/server/main.js, e.g. one whose entries take the
 * chain's head in the write's transaction) runs the same beside this build, on a database of its own.
 * The instances are not pinned: two instances on one core could not show what two can do.
 *
 *   npm run build:server && npx tsx bench/audit-instances.ts
 *   BENCH_SECONDS=30 BENCH_BASELINE=/path/to/other/dist/server/main.js npx tsx bench/audit-instances.ts
 */
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import autocannon, { type AutocannonRequest } from "autocannon";
import pg from "pg";
import { hasTaskset } from "./lib/cpu.js";
import { createDatabase } from "./lib/databases.js";
import { seedUsers } from "./lib/seed.js";
import { BASE_PATH, createWorkDir, REPO_ROOT, type RunningServer, startService } from "./lib/servers.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 16;
const USERS = Number(process.env.BENCH_USERS ?? 100);
const OPTIONS = { rateLimit: { enabled: false }, audit: { enabled: true } };

const builds: { name: string; bundle: string }[] = [
  { name: "this", bundle: join(REPO_ROOT, "dist/server/main.js") },
  ...(process.env.BENCH_BASELINE ? [{ name: "base", bundle: resolve(process.env.BENCH_BASELINE) }] : []),
];

/** Lets a server run on every core (the bench's launcher pins it to the server core). */
function unpin(server: RunningServer): void {
  if (hasTaskset()) spawnSync("taskset", ["-a", "-p", "-c", "0,1", String(server.pid)], { stdio: "ignore" });
}

function renames(origin: string, cookies: string[]): AutocannonRequest[] {
  return cookies.map((cookie, index) => ({
    method: "POST",
    path: `${BASE_PATH}/update-user`,
    headers: { "content-type": "application/json", origin, cookie },
    body: JSON.stringify({ name: `Renamed ${index}` }),
  }));
}

async function load(origin: string, requests: AutocannonRequest[]) {
  const result = await autocannon({ url: origin, connections: CONNECTIONS, duration: SECONDS, requests });
  return { rps: result.requests.average, errors: result.errors + result.timeouts + result.non2xx };
}

/** Reads entries as they are sealed; each one's lag is the time from its write to being seen sealed. */
function watchSealing(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  const lags: number[] = [];
  let lastSeq = 0;
  let stopped = false;
  const loop = (async () => {
    await client.connect();
    const head = await client.query(`select coalesce(max("seq"), 0) as seq from "auditTrail"`);
    lastSeq = Number(head.rows[0].seq);
    while (!stopped) {
      const { rows } = await client.query(
        `select "seq", extract(epoch from (clock_timestamp() - "createdAt")) * 1000 as lag
         from "auditTrail" where "seq" > $1 order by "seq"`,
        [lastSeq],
      );
      for (const row of rows) lags.push(Number(row.lag));
      if (rows.length > 0) lastSeq = Number(rows[rows.length - 1].seq);
      await new Promise((r) => setTimeout(r, 20));
    }
    await client.end();
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return lags;
    },
  };
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

const work = createWorkDir();
const cleanups: (() => Promise<void>)[] = [];
try {
  const setups = [];
  for (const build of builds) {
    const database = await createDatabase("postgres", work.path, `audit-instances-${build.name}`);
    cleanups.push(() => database.drop());
    const first = await startService(work.path, `${build.name}-1`, database.url, OPTIONS, build.bundle);
    cleanups.push(() => first.stop());
    const users = await seedUsers(first.origin, USERS, `instances-${build.name}`);
    const second = await startService(work.path, `${build.name}-2`, database.url, OPTIONS, build.bundle);
    cleanups.push(() => second.stop());
    unpin(first);
    unpin(second);
    const cookies = users.map((user) => user.cookie);
    // Half the users on each instance, so no account is renamed from both at once.
    const half = Math.ceil(cookies.length / 2);
    setups.push({
      build,
      database,
      first,
      second,
      all: renames(first.origin, cookies),
      a: renames(first.origin, cookies.slice(0, half)),
      b: renames(second.origin, cookies.slice(half)),
    });
    await autocannon({
      url: first.origin,
      connections: CONNECTIONS,
      duration: 2,
      requests: renames(first.origin, cookies),
    });
  }
  const best = new Map<string, { one: number; two: number; errors: number; lags: number[] }>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const s of setups) {
      const figures = best.get(s.build.name) ?? { one: 0, two: 0, errors: 0, lags: [] };
      const watched = s.build.name === "this";
      const watchOne = watched ? watchSealing(s.database.url) : null;
      const one = await load(s.first.origin, s.all);
      figures.lags.push(...((await watchOne?.stop()) ?? []));
      const watchTwo = watched ? watchSealing(s.database.url) : null;
      const [a, b] = await Promise.all([load(s.first.origin, s.a), load(s.second.origin, s.b)]);
      figures.lags.push(...((await watchTwo?.stop()) ?? []));
      figures.one = Math.max(figures.one, one.rps);
      figures.two = Math.max(figures.two, a.rps + b.rps);
      figures.errors += one.errors + a.errors + b.errors;
      best.set(s.build.name, figures);
      console.log(
        `round ${round + 1} ${s.build.name}: 1x${CONNECTIONS} ${one.rps.toFixed(0)}/s, 2x${CONNECTIONS} ${(a.rps + b.rps).toFixed(0)}/s`,
      );
    }
  }
  console.log(
    `\nPostgreSQL, audited update-user, ${ROUNDS} rounds of ${SECONDS} s, best round; ${USERS} users; unpinned`,
  );
  for (const [name, f] of best) {
    const lag = f.lags.length
      ? `; sealing lag p50 ${percentile(f.lags, 50).toFixed(0)} ms, p99 ${percentile(f.lags, 99).toFixed(0)} ms (${f.lags.length} entries)`
      : "";
    console.log(
      `  ${name}: 1 instance x${CONNECTIONS} ${f.one.toFixed(0)}/s, 2 instances x${CONNECTIONS} ${f.two.toFixed(0)}/s, ratio ${(f.two / f.one).toFixed(2)}x; errors ${f.errors}${lag}`,
    );
  }
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  work.remove();
}

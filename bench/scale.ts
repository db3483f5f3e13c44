/**
 * `npm run bench:scale` (`npx tsx bench/scale.ts`): the hot routes at a small and a large database.
 * Each size gets its own database (PostgreSQL: `gatehouse_scale_<sessions>` made on BENCH_POSTGRES_URL;
 * `--sqlite`: a file in a temporary folder), filled in bulk (bench/lib/bulk.ts: COPY through psql),
 * with 100 users signed up over HTTP whose cookies the load carries. Both services stay up and are
 * measured in interleaved rounds, best round each; then each route's p50/p99 at both sizes and the
 * ratio (target: large over small at most 1.2x).
 *
 *   --scale N    sessions in the large database (default 10^7; 10^6 with --sqlite)
 *   --small N    sessions in the small one (10^4)
 *   --sqlite     SQLite files instead of PostgreSQL
 *   --keep       leave the databases (PostgreSQL) for EXPLAIN; --reuse measures kept ones again
 *   --seconds N  per route, size and round (5); --rounds N (2); --connections N (20)
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AutocannonRequest } from "autocannon";
import { sql } from "kysely";
import pg from "pg";
import { type DB, migrateToLatest, openDatabase } from "../src/server/store/database.js";
import { loadPostgres, loadSqlite, organizationId, type Shape, shapeFor } from "./lib/bulk.js";
import { pinSelf } from "./lib/cpu.js";
import { userIds } from "./lib/direct.js";
import { type LoadFigures, runLoad, warmUp } from "./lib/load.js";
import { readCpuMs } from "./lib/rss.js";
import { inParallel, SEED_PASSWORD, signIn, signUp } from "./lib/seed.js";
import { BASE_PATH, createWorkDir, REPO_ROOT, type RunningServer, startService } from "./lib/servers.js";

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(name);
function number(name: string, fallback: number): number {
  const at = argv.indexOf(name);
  if (at < 0) return fallback;
  const n = Number(argv[at + 1]);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} needs a positive whole number (e.g. ${name} 1000000)`);
  return n;
}
const sqlite = flag("--sqlite");
const keep = flag("--keep") || flag("--reuse");
const reuse = flag("--reuse");
const large = number("--scale", sqlite ? 1_000_000 : 10_000_000);
const small = number("--small", 10_000);
const seconds = number("--seconds", 5);
const rounds = number("--rounds", 2);
const connections = number("--connections", 20);
/** Users the load signs in as; sign-in with more than four at once trips the per-account brake. */
const MEASURED = 100;
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const OPTIONS = { rateLimit: { enabled: false }, session: { cookieCache: { enabled: false } } };
const measuredEmail = (i: number) => `scale-measured-${i}@bench.example`;

const log = (line: string) => process.stdout.write(`${line}\n`);
const elapsed = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

interface Size {
  label: string;
  shape: Shape;
  url: string;
  /** PostgreSQL database name, or the SQLite file. */
  name: string;
  server?: RunningServer;
  routes?: Record<string, AutocannonRequest[]>;
  figures: Record<string, (LoadFigures & { backendCpuUsPerRequest: number | null })[]>;
  backendRssMb: { vmRss: number; anon: number };
  bytes?: Record<string, number>;
}

async function admin<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

function urlFor(database: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withDb<T>(url: string, run: (db: DB) => Promise<T>): Promise<T> {
  const opened = openDatabase(url);
  try {
    return await run(opened.db);
  } finally {
    await opened.close();
  }
}

/** Migrates, signs up the measured users over HTTP, loads the filler in bulk, adds the measured users' rows. */
async function seed(size: Size, workDir: string): Promise<void> {
  const started = Date.now();
  const dialect = sqlite ? "sqlite" : "postgres";
  await withDb(size.url, (db) => migrateToLatest(db, dialect));
  const seeder = await startService(workDir, `seed-${size.label}`, size.url, OPTIONS);
  try {
    await inParallel(MEASURED, 4, (i) => signUp(seeder.origin, measuredEmail(i)));
  } finally {
    await seeder.stop();
  }
  log(`${size.label}: ${MEASURED} users signed up over HTTP`);
  if (sqlite) loadSqlite(size.name, size.shape, log);
  else await loadPostgres(size.url, size.shape, log);
  await withDb(size.url, async (db) => {
    const ids = await userIds(
      db,
      Array.from({ length: MEASURED }, (_, i) => ({ email: measuredEmail(i), password: "", cookie: "" })),
    );
    const now = new Date();
    const later = new Date(now.getTime() + 7 * 86400_000);
    // Ten sessions each, as the filler users have; the extra ones are never presented.
    await db
      .insertInto("session")
      .values(
        ids.flatMap((userId, u) =>
          Array.from({ length: 9 }, (_, k) => ({
            id: `sx-${u}-${k}`,
            tokenHash: `sx-${u}-${k}-${Math.random().toString(36).slice(2)}`,
            userId,
            expiresAt: later,
            ipAddress: "10.0.0.2",
            userAgent: "scale-bench",
            createdAt: now,
            updatedAt: now,
          })),
        ),
      )
      .execute();
    // A member of the first large organization (list-members) and of two small ones (organization/list: 3).
    const small = (u: number, k: number) =>
      organizationId(
        size.shape.largeOrganizations + 1 + ((u * 2 + k) % (size.shape.organizations - size.shape.largeOrganizations)),
      );
    await db
      .insertInto("member")
      .values(
        ids.flatMap((userId, u) =>
          [organizationId(1), small(u, 0), small(u, 1)].map((organizationId, k) => ({
            id: `sxm-${u}-${k}`,
            organizationId,
            userId,
            role: "member",
            teamId: null,
            createdAt: new Date(now.getTime() + u),
          })),
        ),
      )
      .execute();
    await sql`analyze`.execute(db);
  });
  log(`${size.label}: seeded in ${elapsed(started)}`);
}

/** pg_total_relation_size of each table (PostgreSQL), or the file's size (SQLite). */
async function sizes(size: Size): Promise<Record<string, number>> {
  if (sqlite) return { "database file": statSync(size.name).size };
  return admin(size.url, async (client) => {
    const { rows } = await client.query(
      `select relname as name, pg_total_relation_size(oid) as bytes from pg_class
        where relkind = 'r' and relnamespace = 'public'::regnamespace order by bytes desc limit 9`,
    );
    const out: Record<string, number> = {};
    for (const r of rows) out[r.name] = Number(r.bytes);
    out.database = Number((await client.query("select pg_database_size(current_database()) as b")).rows[0].b);
    return out;
  });
}

/**
 * CPU time (ms) the PostgreSQL backends serving `database` have used: what the database spends on
 * the service's statements, apart from the service's own CPU. The pool keeps its connections, so
 * the same processes are read before and after a load.
 */
async function backendCpuMs(client: pg.Client, database: string): Promise<Map<number, number>> {
  const { rows } = await client.query("select pid from pg_stat_activity where datname = $1", [database]);
  return new Map((rows as { pid: number }[]).map(({ pid }) => [pid, readCpuMs(pid) ?? 0]));
}

/**
 * CPU the backends used between two readings: a connection the pool opened meanwhile counts from
 * zero; one it closed is lost (an undercount, never a negative).
 */
function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += Math.max(0, ms - (before.get(pid) ?? 0));
  return total;
}

/** The service's PostgreSQL backends' resident memory: VmRSS (counts shared buffers it touched) and RssAnon (its own). */
async function sampleBackends(client: pg.Client, database: string, into: Size["backendRssMb"]): Promise<void> {
  const { rows } = await client.query("select pid from pg_stat_activity where datname = $1", [database]);
  for (const { pid } of rows as { pid: number }[]) {
    try {
      const status = spawnSync("cat", [`/proc/${pid}/status`], { encoding: "utf8" }).stdout;
      const vm = /^VmRSS:\s+(\d+)/m.exec(status);
      const anon = /^RssAnon:\s+(\d+)/m.exec(status);
      if (vm) into.vmRss = Math.max(into.vmRss, Number(vm[1]) / 1024);
      if (anon) into.anon = Math.max(into.anon, Number(anon[1]) / 1024);
    } catch {}
  }
}

async function routesFor(server: RunningServer): Promise<Record<string, AutocannonRequest[]>> {
  const cookies = await inParallel(MEASURED, 4, (i) => signIn(server.origin, measuredEmail(i)));
  const get = (path: string) =>
    cookies.map((cookie) => ({ method: "GET", path: `${BASE_PATH}${path}`, headers: { cookie } }));
  // Members are ordered by when they joined; the deep page is the last full one of the large organization.
  const deep = 10_000 - 100;
  return {
    "get-session": get("/get-session"),
    "list-sessions": get("/list-sessions"),
    "organization/list": get("/organization/list"),
    "list-members (first page)": get(`/organization/list-members?organizationId=${organizationId(1)}`),
    "list-members (deep page)": get(
      `/organization/list-members?organizationId=${organizationId(1)}&offset=${deep}&limit=100`,
    ),
    "sign-in": Array.from({ length: MEASURED }, (_, i) => ({
      method: "POST",
      path: `${BASE_PATH}/sign-in/email`,
      headers: { "content-type": "application/json", origin: server.origin },
      body: JSON.stringify({ email: measuredEmail(i), password: SEED_PASSWORD }),
    })),
  };
}

function best(rounds: LoadFigures[]): LoadFigures {
  return rounds.reduce((a, b) => (b.latencyP99Ms < a.latencyP99Ms ? b : a));
}

async function main() {
  const pinned = pinSelf();
  const workDir = createWorkDir();
  const kind = sqlite ? "SQLite" : "PostgreSQL";
  log(`scale run on ${kind}: ${small.toExponential(0)} and ${large.toExponential(0)} sessions; load ${uptime()}`);
  if (!pinned) log("(taskset missing: load generator unpinned)");
  const sizes_: Size[] = [small, large].map((sessions) => {
    const name = sqlite ? join(workDir.path, `scale-${sessions}.sqlite`) : `gatehouse_scale_${sessions}`;
    return {
      label: sessions.toExponential(0).replace("+", ""),
      shape: shapeFor(sessions),
      name,
      url: sqlite ? `sqlite:${name}` : urlFor(name),
      figures: {},
      backendRssMb: { vmRss: 0, anon: 0 },
    };
  });
  const watcher = sqlite ? null : new pg.Client({ connectionString: ADMIN_URL });
  await watcher?.connect();
  try {
    for (const size of sizes_) {
      if (!sqlite) {
        const exists = await admin(
          ADMIN_URL,
          async (c) => (await c.query("select 1 from pg_database where datname = $1", [size.name])).rowCount,
        );
        if (exists && !reuse) await admin(ADMIN_URL, (c) => c.query(`drop database "${size.name}" with (force)`));
        if (!exists || !reuse) await admin(ADMIN_URL, (c) => c.query(`create database "${size.name}"`));
        if (!exists || !reuse) await seed(size, workDir.path);
        else {
          // A kept database may predate a migration this build brings.
          await withDb(size.url, (db) => migrateToLatest(db, "postgres"));
          log(`${size.label}: reusing ${size.name}`);
        }
      } else await seed(size, workDir.path);
      size.bytes = await sizes(size);
    }
    for (const size of sizes_) {
      size.server = await startService(workDir.path, `scale-${size.label}`, size.url, OPTIONS);
      size.routes = await routesFor(size.server);
      for (const requests of Object.values(size.routes))
        if (requests[0]?.method === "GET") await warmUp(size.server.origin, requests, connections);
    }
    const routeNames = Object.keys(sizes_[0]!.routes!);
    for (let round = 1; round <= rounds; round++) {
      for (const route of routeNames) {
        for (const size of sizes_) {
          const server = size.server!;
          const before = watcher ? await backendCpuMs(watcher, size.name) : null;
          const load = await runLoad(server.origin, server.pid, size.routes![route]!, {
            connections: route === "sign-in" ? 4 : connections,
            seconds,
            meanwhile: watcher ? () => sampleBackends(watcher, size.name, size.backendRssMb) : undefined,
          });
          const after = watcher ? await backendCpuMs(watcher, size.name) : null;
          const figures = {
            ...load,
            backendCpuUsPerRequest:
              before && after && load.requests > 0 ? (cpuBetween(before, after) * 1000) / load.requests : null,
          };
          size.figures[route] = [...(size.figures[route] ?? []), figures];
          if (figures.errors || figures.non2xx)
            log(`  ! ${route}@${size.label}: ${figures.errors} errors, ${figures.non2xx} non-2xx`);
        }
      }
      log(`round ${round}/${rounds} done; load ${uptime()}`);
    }
    report(sizes_, kind);
  } finally {
    for (const size of sizes_) await size.server?.stop();
    await watcher?.end();
    if (!sqlite && !keep)
      for (const size of sizes_)
        await admin(ADMIN_URL, (c) => c.query(`drop database if exists "${size.name}" with (force)`));
    workDir.remove();
  }
}

function uptime(): string {
  return spawnSync("uptime", { encoding: "utf8" })
    .stdout.trim()
    .replace(/.*load average:/, "load average:");
}

/** The lowest service CPU per request of the rounds: the steadiest figure on a shared machine. */
function cpu(rounds: Size["figures"][string], of: "service" | "backend" = "service"): string {
  const values = rounds
    .map((f) => (of === "service" ? f.serverCpuUsPerRequest : f.backendCpuUsPerRequest))
    .filter((v): v is number => v !== null);
  return values.length ? String(Math.round(Math.min(...values))) : "-";
}

function report(sizes_: Size[], kind: string) {
  const [a, b] = sizes_ as [Size, Size];
  log(`\n${kind}: best round of ${rounds} x ${seconds} s (lowest p99), ${connections} connections (sign-in 4)`);
  log(
    `| route | ${a.label} p50 / p99 ms | ${b.label} p50 / p99 ms | p50 ratio | p99 ratio | req/s ${a.label} / ${b.label} | service CPU µs/req ${a.label} / ${b.label} | database CPU µs/req ${a.label} / ${b.label} | max RSS MB |`,
  );
  log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  const out: Record<string, unknown> = {};
  for (const route of Object.keys(a.figures)) {
    const x = best(a.figures[route]!);
    const y = best(b.figures[route]!);
    const ratio = (p: number, q: number) => (p > 0 ? (q / p).toFixed(2) : `${q}/${p}`);
    const rss = Math.max(...[...a.figures[route]!, ...b.figures[route]!].map((f) => f.maxRssMb ?? 0));
    log(
      `| ${route} | ${x.latencyP50Ms} / ${x.latencyP99Ms} | ${y.latencyP50Ms} / ${y.latencyP99Ms} | ${ratio(x.latencyP50Ms, y.latencyP50Ms)} | ${ratio(x.latencyP99Ms, y.latencyP99Ms)} | ${Math.round(x.requestsPerSecond)} / ${Math.round(y.requestsPerSecond)} | ${cpu(a.figures[route]!)} / ${cpu(b.figures[route]!)} | ${cpu(a.figures[route]!, "backend")} / ${cpu(b.figures[route]!, "backend")} | ${rss.toFixed(1)} |`,
    );
    out[route] = { [a.label]: a.figures[route], [b.label]: b.figures[route] };
  }
  for (const size of sizes_) {
    const mb = Object.entries(size.bytes ?? {})
      .map(([t, bytes]) => `${t} ${(bytes / 2 ** 20).toFixed(0)}`)
      .join(", ");
    log(`${size.label} (${JSON.stringify(size.shape)}): MB ${mb}`);
    if (!sqlite)
      log(
        `  PostgreSQL backends under load: max VmRSS ${size.backendRssMb.vmRss.toFixed(1)} MB, max RssAnon ${size.backendRssMb.anon.toFixed(1)} MB`,
      );
  }
  const dir = join(REPO_ROOT, "bench/results");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `scale-${kind.toLowerCase()}-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify({ sizes: sizes_.map(({ server, routes, ...s }) => s), figures: out }, null, 2));
  log(`written to ${file}`);
}

await main();

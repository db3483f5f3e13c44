/**
 * `npx tsx bench/churn.ts`: sessions coming and going for a while, to see whether the tables and the
 * latency stay flat. One service on a fresh database (PostgreSQL `gatehouse_churn` on
 * BENCH_POSTGRES_URL, or `--sqlite`), sessions living `--lifetime` seconds (120) and housekeeping
 * sweeping every `--sweep` seconds (15). A cycle: sign up now and then (one in ten), else sign in as
 * an existing user, read the session a few times, and sign out half the time (the rest expire).
 * `--workers` (4) run cycles back to back (closed loop: the rate follows the machine's load), or
 * `--rate N` starts N cycles a second whatever the load (open loop, at most `--in-flight` (200) at
 * once; arrivals beyond that are counted as dropped), so a steady state stays one on a shared machine.
 * Every minute: live and total rows and size of the tables that churn, dead rows, the service's RSS,
 * its CPU time per answered request, PostgreSQL backends' RssAnon, and p50/p99 of each step in that minute.
 *
 * PostgreSQL leaves deleted rows to VACUUM: with autovacuum off (as on the project's bench machine)
 * the tables grow with dead rows whatever housekeeping deletes; `--vacuum` vacuums them every minute.
 *
 *   --minutes N (20)  --lifetime S (120)  --sweep S (15)  --workers N (4)  --rate N  --in-flight N (200)
 *   --sqlite  --keep  --vacuum
 */
import { spawnSync } from "node:child_process";
import { readFileSync, readlinkSync, statSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { pinSelf } from "./lib/cpu.js";
import { readCpuMs, readRssMb } from "./lib/rss.js";
import { postJson, SEED_PASSWORD, signUp } from "./lib/seed.js";
import { BASE_PATH, createWorkDir, startService } from "./lib/servers.js";

const argv = process.argv.slice(2);
function number(name: string, fallback: number): number {
  const at = argv.indexOf(name);
  if (at < 0) return fallback;
  const n = Number(argv[at + 1]);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} needs a positive whole number`);
  return n;
}
const sqlite = argv.includes("--sqlite");
const keep = argv.includes("--keep");
const minutes = number("--minutes", 20);
const lifetime = number("--lifetime", 120);
const sweep = number("--sweep", 15);
const workers = number("--workers", 4);
/** Cycles started per second (open loop), or 0 for `workers` closed loops. */
const rate = number("--rate", 0);
const inFlightCap = number("--in-flight", 200);
/** Vacuum the churned tables every minute: stands in for autovacuum where the server has it off. */
const vacuum = argv.includes("--vacuum");
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DATABASE = "gatehouse_churn";
const TABLES = ["session", "user", "account", "verification", "sessionProof", "knownDevice"];

type Step = "sign-up" | "sign-in" | "get-session" | "sign-out";
const log = (line: string) => process.stdout.write(`${line}\n`);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Which Node runs the service, and whether its environment carries glibc's malloc tuning (after any re-exec). */
function serviceRuntime(pid: number): string {
  const exe = readlinkSync(`/proc/${pid}/exe`);
  const version = spawnSync(exe, ["--version"], { encoding: "utf8" }).stdout.trim();
  const tuning = readFileSync(`/proc/${pid}/environ`, "utf8")
    .split("\0")
    .filter((v) => v.startsWith("MALLOC_"));
  return `node ${version} (${exe}), ${tuning.length ? tuning.join(" ") : "no MALLOC_ settings"}`;
}

async function main() {
  pinSelf();
  const workDir = createWorkDir();
  let url: string;
  let sqlitePath = "";
  let admin: pg.Client | null = null;
  if (sqlite) {
    sqlitePath = join(workDir.path, "churn.sqlite");
    url = `sqlite:${sqlitePath}`;
  } else {
    admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${DATABASE} with (force)`);
    await admin.query(`create database ${DATABASE}`);
    const u = new URL(ADMIN_URL);
    u.pathname = `/${DATABASE}`;
    url = u.toString();
  }
  const server = await startService(workDir.path, "churn", url, {
    rateLimit: { enabled: false },
    session: { expiresIn: lifetime, updateAge: lifetime, cookieCache: { enabled: false } },
    housekeeping: { enabled: true, interval: sweep },
  });
  const db = sqlite ? null : new pg.Client({ connectionString: url });
  await db?.connect();
  const Database = sqlite ? (await import("better-sqlite3")).default : null;
  const lite = Database ? new Database(sqlitePath, { readonly: true }) : null;

  const emails: string[] = [];
  let counter = 0;
  let samples: Record<Step, number[]> = { "sign-up": [], "sign-in": [], "get-session": [], "sign-out": [] };
  let failures = 0;
  const timed = async <T>(step: Step, run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await run();
    } finally {
      samples[step].push(performance.now() - started);
    }
  };
  const newUser = async () => {
    const email = `churn-${counter++}@bench.example`;
    const user = await timed("sign-up", () => signUp(server.origin, email));
    emails.push(email);
    return user.cookie;
  };
  for (let i = 0; i < 20; i++) await newUser();

  const endAt = Date.now() + minutes * 60_000;
  let cycles = 0;
  const cycle = async (n: number, w: number) => {
    try {
      let cookie: string;
      if (n % 10 === 0) cookie = await newUser();
      else {
        const email = emails[Math.floor(Math.random() * emails.length)]!;
        const response = await timed("sign-in", () =>
          postJson(server.origin, "/sign-in/email", { email, password: SEED_PASSWORD }),
        );
        await response.arrayBuffer();
        if (response.status !== 200) {
          failures++;
          return;
        }
        cookie = response.headers
          .getSetCookie()
          .map((c) => c.split(";")[0])
          .join("; ");
      }
      for (let k = 0; k < 5; k++) {
        const response = await timed("get-session", () =>
          fetch(`${server.origin}${BASE_PATH}/get-session`, { headers: { cookie } }),
        );
        await response.arrayBuffer();
        if (response.status !== 200) failures++;
      }
      if ((n + w) % 2 === 0) {
        const response = await timed("sign-out", () => postJson(server.origin, "/sign-out", {}, cookie));
        await response.arrayBuffer();
        if (response.status !== 200) failures++;
      }
    } catch {
      failures++;
    }
  };
  const worker = async (w: number) => {
    while (Date.now() < endAt) await cycle(++cycles, w);
  };
  let inFlight = 0;
  let dropped = 0;
  let maxInFlight = 0;
  /** Starts cycle k at k/rate seconds from the start, on time whether or not earlier ones finished. */
  const paced = async () => {
    const startedAt = performance.now();
    const running = new Set<Promise<void>>();
    while (Date.now() < endAt) {
      const due = Math.floor(((performance.now() - startedAt) / 1000) * rate);
      while (cycles < due) {
        cycles++;
        if (inFlight >= inFlightCap) {
          dropped++;
          continue;
        }
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        const run: Promise<void> = cycle(cycles, 0).finally(() => {
          inFlight--;
          running.delete(run);
        });
        running.add(run);
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    await Promise.all(running);
  };

  const tableFigures = async (): Promise<string> => {
    if (lite) {
      const counts = TABLES.map((t) => {
        try {
          return `${t} ${(lite.prepare(`select count(*) as n from "${t}"`).get() as { n: number }).n}`;
        } catch {
          return `${t} -`;
        }
      });
      const bytes = statSync(sqlitePath).size + (statSync(`${sqlitePath}-wal`, { throwIfNoEntry: false })?.size ?? 0);
      return `${counts.join(", ")}; file+wal ${(bytes / 2 ** 20).toFixed(1)} MB`;
    }
    const { rows } = await db!.query(
      `select relname, n_live_tup, n_dead_tup, pg_total_relation_size(relid) as bytes
         from pg_stat_user_tables where relname = any($1) order by relname`,
      [TABLES],
    );
    return rows
      .map((r) => `${r.relname} ${r.n_live_tup}+${r.n_dead_tup}dead ${(Number(r.bytes) / 2 ** 20).toFixed(1)}MB`)
      .join(", ");
  };
  const backendAnon = async (): Promise<number> => {
    if (!admin) return 0;
    const { rows } = await admin.query("select pid from pg_stat_activity where datname = $1", [DATABASE]);
    let max = 0;
    for (const { pid } of rows as { pid: number }[]) {
      try {
        const m = /^RssAnon:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
        if (m) max = Math.max(max, Number(m[1]) / 1024);
      } catch {}
    }
    return max;
  };

  log(`service: ${serviceRuntime(server.pid)}`);
  const autovacuum = admin ? (await admin.query("show autovacuum")).rows[0].autovacuum : "n/a";
  log(`autovacuum: ${autovacuum}${vacuum ? "; vacuuming the churned tables every minute" : ""}`);
  log(
    `churn on ${sqlite ? "SQLite" : "PostgreSQL"}: ${minutes} min, ${rate ? `${rate} cycles/s (open loop)` : `${workers} workers`}, session lifetime ${lifetime} s, sweep every ${sweep} s`,
  );
  let maxRss = 0;
  const rssTimer = setInterval(() => {
    maxRss = Math.max(maxRss, readRssMb(server.pid) ?? 0);
  }, 250);
  let minute = 0;
  let cpuBefore = readCpuMs(server.pid) ?? 0;
  const reporter = setInterval(async () => {
    minute++;
    const now = samples;
    samples = { "sign-up": [], "sign-in": [], "get-session": [], "sign-out": [] };
    const steps = (Object.keys(now) as Step[])
      .map((s) => {
        const sorted = now[s].sort((a, b) => a - b);
        return `${s} n=${sorted.length} p50 ${percentile(sorted, 50).toFixed(0)} p99 ${percentile(sorted, 99).toFixed(0)}`;
      })
      .join("; ");
    const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
    const cpuNow = readCpuMs(server.pid) ?? cpuBefore;
    const answered = Object.values(now).reduce((sum, s) => sum + s.length, 0);
    const cpuPerRequest = answered ? `${(((cpuNow - cpuBefore) * 1000) / answered).toFixed(0)} µs` : "-";
    cpuBefore = cpuNow;
    log(
      `min ${minute}: ${steps} ms | failures ${failures}${rate ? ` | dropped ${dropped}, in flight max ${maxInFlight}` : ""} | service RSS max ${maxRss.toFixed(1)} MB, CPU ${cpuPerRequest}/request | backends RssAnon max ${(await backendAnon()).toFixed(1)} MB | load ${load}`,
    );
    log(`  tables: ${await tableFigures()}`);
    if (vacuum && db) await db.query(`vacuum ${TABLES.map((t) => `"${t}"`).join(", ")}`);
    maxRss = 0;
    maxInFlight = inFlight;
  }, 60_000);
  try {
    await (rate ? paced() : Promise.all(Array.from({ length: workers }, (_, w) => worker(w))));
    await new Promise((r) => setTimeout(r, 1000));
  } finally {
    clearInterval(reporter);
    clearInterval(rssTimer);
    log(`users signed up: ${emails.length}`);
    await server.stop();
    await db?.end();
    lite?.close();
    if (admin && !keep) await admin.query(`drop database if exists ${DATABASE} with (force)`);
    await admin?.end();
    workDir.remove();
  }
}

await main();

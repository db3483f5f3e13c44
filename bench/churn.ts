/**
 * `npx tsx bench/churn.ts`: sessions coming and going for a while, to see whether the tables and the
 * latency stay flat. One service on a fresh database (PostgreSQL `gatehouse_churn` on
 * BENCH_POSTGRES_URL, or `--sqlite`), sessions living `--lifetime` seconds (120) and housekeeping
 * sweeping every `--sweep` seconds (15). A cycle: sign up now and then (one in ten), else sign in as
 * an existing user, read the session a few times, and sign out half the time (the rest expire).
 * `--workers` (4) run cycles back to back (closed loop: the rate follows the machine's load), or
 * `--rate N` starts N cycles a second whatever the load (open loop, at most `--in-flight` (200) at
 * once; arrivals beyond that are counted as dropped), so a steady state stays one on a shared machine.
 * Every minute: exact rows, dead rows and size of the tables that churn, the service's RSS, its CPU
 * time per answered request, PostgreSQL backends' RssAnon, p50/p99 of each step in that minute, the
 * mail the capture received and what the service's housekeeping sweeps pruned in the minute.
 *
 * With `--mail`, mail-borne flows too (without it, the churn as it was before them): mail goes
 * through the service's outbox to an SMTP capture in this process (bench/lib/mail.ts). A sign-up
 * mails a verification link, followed (POST /verify-email) except one in `--unfollowed` (5), left to
 * expire; one cycle in `--reset` (20) resets a verified user's password (request-password-reset,
 * the mailed token to reset-password; at most one a user per 15 minutes, inside the mail cap) before
 * signing in; one sign-in in `--wrong` (10) first gives a wrong password (half of those stop there),
 * so attempt counters move; each user's browsers keep a device cookie, and one sign-in in
 * `--new-device` (10) comes from a new browser (its own user agent), so known devices and the
 * new-device mail move. Mailed tokens live `--token-lifetime` seconds (300, the shortest new-device
 * link), so their rows expire within the run. A webhook on user.created and user.updated to a
 * receiver in this process moves the webhook outbox; delivered mail and webhooks are kept
 * `--delivered-retention` seconds (120; a week by default in the service), so their pruning shows
 * within the run too. Rate limits are not in the database (memory or Redis): the limiter stays off,
 * as before, since every cycle comes from one address.
 *
 * PostgreSQL leaves deleted rows to VACUUM: with autovacuum off (as on the project's bench machine)
 * the tables grow with dead rows whatever housekeeping deletes; `--vacuum` vacuums them every minute.
 *
 *   --minutes N (20)  --lifetime S (120)  --sweep S (15)  --workers N (4)  --rate N  --in-flight N (200)
 *   --sqlite  --keep  --vacuum  --mail  --unfollowed N (5)  --reset N (20)  --wrong N (10)
 *   --new-device N (10)  --token-lifetime S (300)  --delivered-retention S (120)
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, openSync, readFileSync, readlinkSync, readSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import pg from "pg";
import { pinSelf } from "./lib/cpu.js";
import { startBenchMailbox } from "./lib/mail.js";
import { readCpuMs, readRssMb } from "./lib/rss.js";
import { cookieHeader, SEED_PASSWORD } from "./lib/seed.js";
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
/**
 * The mail-borne flows, new devices, wrong passwords and the webhook. Off by default, so the churn
 * figures measured before them (bench/README.md) stay what the same command gives.
 */
const mail = argv.includes("--mail");
const unfollowedEvery = number("--unfollowed", 5);
const resetEvery = number("--reset", 20);
const wrongEvery = number("--wrong", 10);
const newDeviceEvery = number("--new-device", 10);
/** Mailed tokens' lifetime; the new-device link's cannot be under 300 s (options.ts). */
const tokenLifetime = number("--token-lifetime", 300);
/** housekeeping.deliveredRetention: delivered mail and webhooks pruned within the run, not after a week. */
const deliveredRetention = number("--delivered-retention", 120);
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DATABASE = "gatehouse_churn";
const TABLES = [
  "session",
  "sessionProof",
  "user",
  "account",
  "verification",
  "outbox",
  "webhookDelivery",
  "attemptCounter",
  "knownDevice",
];
/** Rows still to be delivered, shown beside the count: pruning keeps delivered ones a week. */
const PENDING: Record<string, string> = {
  outbox: `"sentAt" is null`,
  webhookDelivery: `"deliveredAt" is null and "failedAt" is null`,
};
/** The mail cap's window (contract/mail-limits.ts): a user is reset at most once in it. */
const RESET_SPACING_MS = 15 * 60_000;
const WRONG_PASSWORD = "not the bench password";

const STEPS = [
  "sign-up",
  "sign-in",
  "get-session",
  "sign-out",
  "sign-in-wrong",
  "verify-email",
  "reset-request",
  "reset-password",
  "mail-wait",
] as const;
type Step = (typeof STEPS)[number];
const noSamples = () => Object.fromEntries(STEPS.map((s) => [s, [] as number[]])) as unknown as Record<Step, number[]>;
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

/** A browser the bench signs in from: its device cookie (once the service gave one) and its user agent. */
interface Browser {
  device: string;
  userAgent: string;
}
interface BenchUser {
  email: string;
  verified: boolean;
  /** Its browsers, the newest last; the bench forgets all but the last four (the service keeps them). */
  browsers: Browser[];
  resetAt: number;
}

/** The service's signed device cookie among Set-Cookie lines (`<prefix>.device=`, not trust_device). */
function deviceCookie(setCookies: string[]): string {
  for (const line of setCookies) {
    const pair = line.split(";")[0] ?? "";
    if (/^[^=]*\.device=/.test(pair)) return pair;
  }
  return "";
}

/** Answers lines the service logged since the last call (its log is in the work folder). */
function logTail(path: string): () => string[] {
  let offset = 0;
  let partial = "";
  return () => {
    let fd: number;
    try {
      fd = openSync(path, "r");
    } catch {
      return [];
    }
    try {
      const size = statSync(path).size;
      if (size <= offset) return [];
      const buffer = Buffer.alloc(size - offset);
      readSync(fd, buffer, 0, buffer.length, offset);
      offset = size;
      const text = partial + buffer.toString("utf8");
      const lines = text.split("\n");
      partial = lines.pop() ?? "";
      return lines;
    } finally {
      closeSync(fd);
    }
  };
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
  const mailbox = mail ? await startBenchMailbox() : null;
  let webhooksReceived = 0;
  const receiver = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      webhooksReceived++;
      response.writeHead(204).end();
    });
  });
  if (mail) await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", () => resolve()));
  const mailOptions = mail
    ? {
        emailVerification: { sendOnSignUp: true, expiresIn: tokenLifetime },
        emailAndPassword: { resetPasswordTokenExpiresIn: tokenLifetime },
        securityActivity: { enabled: true, secureLinkExpiresIn: Math.max(300, tokenLifetime) },
        webhooks: [
          {
            url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
            secret: `whsec_${randomBytes(32).toString("base64")}`,
            events: ["user.created", "user.updated"],
          },
        ],
      }
    : {};
  const server = await startService(
    workDir.path,
    "churn",
    url,
    {
      rateLimit: { enabled: false },
      session: { expiresIn: lifetime, updateAge: lifetime, cookieCache: { enabled: false } },
      housekeeping: { enabled: true, interval: sweep, ...(mail ? { deliveredRetention } : {}) },
      ...mailOptions,
    },
    null,
    mailbox ? { SMTP_URL: mailbox.url, MAIL_DISABLED: "0" } : {},
  );
  const db = sqlite ? null : new pg.Client({ connectionString: url });
  await db?.connect();
  const Database = sqlite ? (await import("better-sqlite3")).default : null;
  const lite = Database ? new Database(sqlitePath, { readonly: true }) : null;

  const users: BenchUser[] = [];
  let counter = 0;
  let browsersMade = 0;
  let samples = noSamples();
  let failures = 0;
  let mailMissing = 0;
  const timed = async <T>(step: Step, run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await run();
    } finally {
      samples[step].push(performance.now() - started);
    }
  };
  /** POSTs JSON as the application does (same origin), from `browser` when given. */
  const post = (path: string, body: unknown, cookie = "", userAgent?: string) => {
    const headers: Record<string, string> = { "content-type": "application/json", origin: server.origin };
    if (cookie) headers.cookie = cookie;
    if (userAgent) headers["user-agent"] = userAgent;
    return fetch(`${server.origin}${BASE_PATH}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  };
  const newBrowser = (): Browser => ({ device: "", userAgent: `bench-browser/${++browsersMade} (churn)` });
  /** Keeps the device cookie the service gave this browser, and the browser among the user's. */
  const remember = (user: BenchUser, browser: Browser, setCookies: string[]) => {
    browser.device = deviceCookie(setCookies) || browser.device;
    if (!user.browsers.includes(browser)) user.browsers = [...user.browsers.slice(-3), browser];
  };
  /** The link the outbox mailed to `email`, timed from the request that caused it; null (counted) if none came. */
  const mailedLink = async (email: string, part: string): Promise<string | null> => {
    const link = await timed("mail-wait", () => mailbox!.waitForLink(email, part));
    if (!link) mailMissing++;
    return link;
  };

  const newUser = async (): Promise<string> => {
    const email = `churn-${counter++}@bench.example`;
    const browser = mail ? newBrowser() : null;
    const response = await timed("sign-up", () =>
      post("/sign-up/email", { name: "Bench User", email, password: SEED_PASSWORD }, "", browser?.userAgent),
    );
    const text = await response.text();
    if (response.status !== 200) throw new Error(`sign-up of ${email} failed: ${response.status} ${text}`);
    const user: BenchUser = { email, verified: false, browsers: [], resetAt: 0 };
    if (browser) remember(user, browser, response.headers.getSetCookie());
    users.push(user);
    const cookie = cookieHeader(response.headers.getSetCookie());
    if (mailbox && counter % unfollowedEvery !== 0) {
      const link = await mailedLink(email, "/verify-email");
      const token = link ? new URL(link).searchParams.get("token") : null;
      if (token) {
        const verified = await timed("verify-email", () => post("/verify-email", { token }));
        await verified.arrayBuffer();
        if (verified.status === 200) user.verified = true;
        else failures++;
      }
    }
    return cookie;
  };
  /** Request-password-reset and reset-password with the mailed token (to the same password: the bench signs in with it). */
  const resetPassword = async (user: BenchUser): Promise<void> => {
    user.resetAt = Date.now();
    const requested = await timed("reset-request", () =>
      post("/request-password-reset", { email: user.email, redirectTo: "/reset-password" }),
    );
    await requested.arrayBuffer();
    if (requested.status !== 200) {
      failures++;
      return;
    }
    const link = await mailedLink(user.email, "/reset-password/");
    if (!link) return;
    const token = new URL(link).pathname.split("/").pop() ?? "";
    const reset = await timed("reset-password", () => post("/reset-password", { newPassword: SEED_PASSWORD, token }));
    await reset.arrayBuffer();
    if (reset.status !== 200) failures++;
  };
  const resettable = (): BenchUser | null => {
    const now = Date.now();
    for (let tries = 0; tries < 10; tries++) {
      const user = users[Math.floor(Math.random() * users.length)]!;
      if (user.verified && now - user.resetAt > RESET_SPACING_MS) return user;
    }
    return null;
  };
  for (let i = 0; i < 20; i++) await newUser();

  const endAt = Date.now() + minutes * 60_000;
  let cycles = 0;
  const cycle = async (n: number, w: number) => {
    try {
      let cookie: string;
      if (n % 10 === 0) cookie = await newUser();
      else {
        const reset = mail && Math.random() < 1 / resetEvery ? resettable() : null;
        if (reset) await resetPassword(reset);
        const user = reset ?? users[Math.floor(Math.random() * users.length)]!;
        const fresh = mail && (user.browsers.length === 0 || Math.random() < 1 / newDeviceEvery);
        const browser = fresh
          ? newBrowser()
          : (user.browsers[Math.floor(Math.random() * user.browsers.length)] ?? null);
        if (mail && Math.random() < 1 / wrongEvery) {
          const wrong = await timed("sign-in-wrong", () =>
            post(
              "/sign-in/email",
              { email: user.email, password: WRONG_PASSWORD },
              browser?.device,
              browser?.userAgent,
            ),
          );
          await wrong.arrayBuffer();
          if (wrong.status !== 401) failures++;
          // Half of these give up: their count stays until it expires or a later sign-in clears it.
          if (Math.random() < 0.5) return;
        }
        const response = await timed("sign-in", () =>
          post("/sign-in/email", { email: user.email, password: SEED_PASSWORD }, browser?.device, browser?.userAgent),
        );
        await response.arrayBuffer();
        if (response.status !== 200) {
          failures++;
          return;
        }
        if (browser) remember(user, browser, response.headers.getSetCookie());
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
        const response = await timed("sign-out", () => post("/sign-out", {}, cookie));
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

  /** Per table: exact rows (with those still to deliver), dead rows (PostgreSQL) and size with its indexes. */
  const tableFigures = async (): Promise<string> => {
    const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)}MB`;
    if (lite) {
      const figures = TABLES.map((t) => {
        try {
          const pending = PENDING[t] ? `, sum(case when ${PENDING[t]} then 1 else 0 end) as pending` : "";
          const row = lite.prepare(`select count(*) as n${pending} from "${t}"`).get() as {
            n: number;
            pending?: number;
          };
          const { bytes } = lite
            .prepare(
              "select sum(pgsize) as bytes from dbstat where name in (select name from sqlite_schema where tbl_name = ?)",
            )
            .get(t) as { bytes: number | null };
          return `${t} ${row.n}${PENDING[t] ? ` (${row.pending ?? 0} pending)` : ""} ${mb(bytes ?? 0)}`;
        } catch {
          return `${t} -`;
        }
      });
      const bytes = statSync(sqlitePath).size + (statSync(`${sqlitePath}-wal`, { throwIfNoEntry: false })?.size ?? 0);
      return `${figures.join(", ")}; file+wal ${mb(bytes)}`;
    }
    const { rows } = await db!.query(
      `select relname, n_dead_tup, pg_total_relation_size(relid) as bytes
         from pg_stat_user_tables where relname = any($1)`,
      [TABLES],
    );
    const stats = new Map(rows.map((r) => [r.relname as string, r]));
    const figures: string[] = [];
    for (const t of TABLES) {
      const pending = PENDING[t] ? `, count(*) filter (where ${PENDING[t]}) as pending` : "";
      const { rows: counted } = await db!.query(`select count(*) as n${pending} from "${t}"`);
      const stat = stats.get(t);
      figures.push(
        `${t} ${counted[0].n}${PENDING[t] ? ` (${counted[0].pending} pending)` : ""}+${stat?.n_dead_tup ?? 0}dead ${mb(Number(stat?.bytes ?? 0))}`,
      );
    }
    return figures.join(", ");
  };
  /** Rows the service's housekeeping sweeps pruned since the last call, by kind (its log lines). */
  const readServiceLog = logTail(join(workDir.path, "churn.log"));
  const pruned = (): string => {
    const sums: Record<string, number> = {};
    let sweeps = 0;
    for (const line of readServiceLog()) {
      if (!line.includes('"housekeeping sweep"')) continue;
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        sweeps++;
        for (const [key, value] of Object.entries(entry)) {
          if (typeof value === "number" && !["startedAt", "finishedAt"].includes(key))
            sums[key] = (sums[key] ?? 0) + value;
        }
      } catch {}
    }
    const kinds = Object.entries(sums).filter(([, n]) => n > 0);
    return `${sweeps} sweeps with deletions${kinds.length ? `: ${kinds.map(([k, n]) => `${k} ${n}`).join(", ")}` : ""}`;
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
  if (mail) {
    log(
      `mail: verification links followed but 1 in ${unfollowedEvery}, a reset in 1 cycle in ${resetEvery}, a wrong password before 1 sign-in in ${wrongEvery}, a new browser for 1 in ${newDeviceEvery}; tokens live ${tokenLifetime} s, delivered mail and webhooks kept ${deliveredRetention} s`,
    );
  }
  let maxRss = 0;
  const rssTimer = setInterval(() => {
    maxRss = Math.max(maxRss, readRssMb(server.pid) ?? 0);
  }, 250);
  let minute = 0;
  let cpuBefore = readCpuMs(server.pid) ?? 0;
  const reporter = setInterval(async () => {
    minute++;
    const now = samples;
    samples = noSamples();
    const steps = STEPS.filter((s, i) => i < 4 || now[s].length > 0)
      .map((s) => {
        const sorted = now[s].sort((a, b) => a - b);
        return `${s} n=${sorted.length} p50 ${percentile(sorted, 50).toFixed(0)} p99 ${percentile(sorted, 99).toFixed(0)}`;
      })
      .join("; ");
    const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
    const cpuNow = readCpuMs(server.pid) ?? cpuBefore;
    // Waiting for mail is no request of the service's.
    const answered = STEPS.filter((s) => s !== "mail-wait").reduce((sum, s) => sum + now[s].length, 0);
    const cpuPerRequest = answered ? `${(((cpuNow - cpuBefore) * 1000) / answered).toFixed(0)} µs` : "-";
    cpuBefore = cpuNow;
    log(
      `min ${minute}: ${steps} ms | failures ${failures}${rate ? ` | dropped ${dropped}, in flight max ${maxInFlight}` : ""} | service RSS max ${maxRss.toFixed(1)} MB, CPU ${cpuPerRequest}/request | backends RssAnon max ${(await backendAnon()).toFixed(1)} MB | load ${load}`,
    );
    log(`  tables: ${await tableFigures()}`);
    if (mailbox) {
      const { verify, reset, other } = mailbox.received;
      log(
        `  mail received: verify ${verify}, reset ${reset}, other ${other}; missing ${mailMissing} | webhooks received ${webhooksReceived} | pruned: ${pruned()}`,
      );
    } else log(`  pruned: ${pruned()}`);
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
    log(`users signed up: ${users.length}, of them verified ${users.filter((u) => u.verified).length}`);
    await server.stop();
    await mailbox?.close();
    if (mail) await new Promise((resolve) => receiver.close(resolve));
    await db?.end();
    lite?.close();
    if (admin && !keep) await admin.query(`drop database if exists ${DATABASE} with (force)`);
    await admin?.end();
    workDir.remove();
  }
}

await main();

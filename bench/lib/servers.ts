import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pinned, SERVER_CORE } from "./cpu.js";

export const REPO_ROOT = resolve(import.meta.dirname, "../..");
export const BENCH_SECRET = "bench-secret-that-is-at-least-32-characters-long";
export const BASE_PATH = "/api/auth";

/** A server process under test, on loopback. */
export interface RunningServer {
  origin: string;
  pid: number;
  stop(): Promise<void>;
}

/** A scratch folder for one bench run: databases, option files, server logs. */
export function createWorkDir(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), "gatehouse-bench-"));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

/**
 * The real service (src/main.ts) in production mode on `databaseUrl` (DATABASE_URL), pinned to the
 * server core. `options` is written to an AUTH_CONFIG file; `env` is laid over the service's
 * environment (the churn bench gives SMTP_URL and MAIL_DISABLED=0 to send mail to its capture).
 */
export async function startService(
  workDir: string,
  name: string,
  databaseUrl: string,
  options: unknown,
  bundle: string | null = null,
  env: Record<string, string> = {},
) {
  const port = await freePort();
  const configPath = join(workDir, `${name.replace(/:/g, "-")}.options.json`);
  writeFileSync(configPath, JSON.stringify(options, null, 2));
  const origin = `http://127.0.0.1:${port}`;
  const argv = bundle
    ? [NODE, ...nodeFlags(), bundle]
    : process.env.BENCH_TSX === "1"
      ? node("src/main.ts")
      : [NODE, ...nodeFlags(), serviceBundle()];
  return launch(workDir, name, argv, origin, {
    NODE_ENV: "production",
    AUTH_SECRET: BENCH_SECRET,
    AUTH_CONFIG: configPath,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: "127.0.0.1",
    BASE_URL: origin,
    // Production refuses to start without a mail destination; the bench's scenarios mail nothing.
    MAIL_DISABLED: "1",
    ...env,
  });
}

/** The floor reference (bench/floor-server.ts) on a SQLite file the service seeded. */
export async function startFloor(workDir: string, databasePath: string) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  return launch(workDir, "floor", node("bench/floor-server.ts"), origin, {
    NODE_ENV: "production",
    FLOOR_SECRET: BENCH_SECRET,
    FLOOR_DATABASE: databasePath,
    PORT: String(port),
  });
}

/**
 * The V8 flags `npm start` runs the service with (package.json, docs/deployment.md "Memory"): a 2 MB
 * young generation keeps the resident set about 30 MB lower under load at no measurable CPU cost, and
 * an old generation collected at 1.5x what is live (V8 picks up to 4x when collection is cheap)
 * keeps list-members at 112 instead of 163 MB for about 5% more CPU; no Maglev (Node 22 and 24's
 * mid-tier compiler) keeps Node 24's sign-in peak about 14 MB lower. The floor gets them too.
 */
const START_FLAGS = ["--max-semi-space-size=2", "--heap-growing-percent=50", "--no-maglev"];

/**
 * The node that runs the servers: BENCH_NODE (a path, e.g. another Node version's binary) or `node`.
 * The service sets glibc's malloc tuning itself on Node >= 22.15 (src/malloc-settings.ts); on an
 * older Node it runs untuned unless MALLOC_MMAP_THRESHOLD_ is in the bench's environment.
 */
const NODE = process.env.BENCH_NODE ?? "node";

/** Node flags for the servers, plus BENCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile). */
function nodeFlags(): string[] {
  return [...START_FLAGS, ...(process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [])];
}

function node(...args: string[]): string[] {
  return ["node", ...nodeFlags(), "--import", "tsx", ...args];
}

let bundlePath: string | null = null;

/**
 * The service as `npm start` runs it: src/main.ts bundled by esbuild (`npm run build:server`, packages
 * left external) under plain node. BENCH_TSX=1 runs src/main.ts through the tsx loader instead, which
 * costs about 45 MB more (its hooks run in a second V8 isolate).
 */
function serviceBundle(): string {
  if (bundlePath) return bundlePath;
  const build = spawnSync("npm", ["run", "--silent", "build:server"], { cwd: REPO_ROOT, stdio: "inherit" });
  if (build.status !== 0) throw new Error("npm run build:server failed");
  bundlePath = join(REPO_ROOT, "dist/server/main.js");
  return bundlePath;
}

async function launch(
  workDir: string,
  name: string,
  argv: string[],
  origin: string,
  env: Record<string, string>,
): Promise<RunningServer> {
  const logPath = join(workDir, `${name.replace(/:/g, "-")}.log`);
  const log = createWriteStream(logPath);
  const [command, ...args] = pinned(SERVER_CORE, argv);
  const child: ChildProcess = spawn(command!, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  let exited = false;
  const exit = new Promise<void>((resolveExit) =>
    child.once("exit", () => {
      exited = true;
      resolveExit();
    }),
  );
  const fail = (why: string) => {
    child.kill("SIGKILL");
    let tail = "";
    try {
      tail = readFileSync(logPath, "utf8").slice(-2000);
    } catch {}
    return new Error(`${name} ${why}; its log ends:\n${tail}`);
  };

  // taskset execs the command, so the child's pid is the server's own (for /proc/<pid>/status).
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited) throw fail("exited during start-up");
    if (Date.now() > deadline) throw fail("did not answer within 30 s");
    try {
      const response = await fetch(`${origin}${BASE_PATH}/ok`);
      await response.arrayBuffer();
      if (response.ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    origin,
    pid: child.pid!,
    async stop() {
      if (!exited) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
        await exit;
        clearTimeout(timer);
      }
      log.end();
    },
  };
}

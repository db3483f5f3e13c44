import { Socket } from "node:net";
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { redisUnavailable, TEST_REDIS_URL } from "./test/helpers/redis.js";

/**
 * Unit tests run once; integration tests (test/) run on SQLite and, when TEST_DATABASE_URL is set,
 * again on PostgreSQL: one suite, every dialect.
 */
const integration = (name: string, dialect: string) => ({
  extends: true as const,
  test: {
    name,
    include: ["test/**/*.test.ts"],
    // Files share their worker's loaded modules (each starts its own server and database): loading the
    // service's module graph anew for every file cost more than many files' tests.
    isolate: false,
    // PostgreSQL test servers copy one migrated database rather than each migrating its own.
    globalSetup: dialect === "postgres" ? ["test/helpers/postgres-template.ts"] : [],
    // Every JSON reply is checked against its endpoint's reply schema (src/server/http/route.ts).
    // createAuth reads the mail variables: a developer's own SMTP_URL must not receive test mail.
    env: { TEST_DIALECT: dialect, GATEHOUSE_CHECK_REPLIES: "1", SMTP_URL: "", MAIL_DISABLED: "", MAIL_FROM: "" },
  },
});

const POSTGRES_URL = process.env.TEST_DATABASE_URL;

/** Whether something answers on the URL's host and port (a quick connect, nothing sent). */
function reachable(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once("error", () => done(false));
    socket.connect(Number(port || defaultPort), hostname || "127.0.0.1", () => done(true));
  });
}

/** One line at the start of a run: which projects run, and why tests that need a service are skipped or will fail. */
async function announcePlan(): Promise<void> {
  const [postgresUp, noRedis] = await Promise.all([
    POSTGRES_URL ? reachable(POSTGRES_URL, 5432) : false,
    redisUnavailable(),
  ]);
  const projects = ["unit", "sqlite", "package", ...(POSTGRES_URL ? ["postgres"] : []), "e2e"];
  const notes = [
    POSTGRES_URL
      ? postgresUp
        ? "PostgreSQL-only tests (multi-instance, deployment, revocation feeds, pool) run in the postgres project"
        : `TEST_DATABASE_URL is set but nothing answers at ${new URL(POSTGRES_URL).host}: the postgres project will fail`
      : "postgres project skipped: TEST_DATABASE_URL is not set, so the PostgreSQL-only tests (multi-instance, deployment, revocation feeds, pool) are skipped too",
    noRedis
      ? `${noRedis}: the Redis tests (redis-rate-limit, multi-instance, revocation feeds) are skipped`
      : `Redis at ${TEST_REDIS_URL}`,
  ];
  console.log(`gatehouse tests: projects ${projects.join(", ")}; ${notes.join("; ")}`);
}

// Vitest evaluates this file more than once in a run; the plan is said once.
const said = globalThis as { gatehouseTestPlanSaid?: boolean };
if (!said.gatehouseTestPlanSaid && !process.env.VITEST_WORKER_ID) {
  said.gatehouseTestPlanSaid = true;
  await announcePlan();
}

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Most of a test's time is spent waiting on a database, a browser or a child process: a worker per
    // core, and at least two, keeps the cores busy (vitest's default leaves one of two idle).
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["src/**/*.test.ts", "src/**/*.test.tsx", "scripts/**/*.test.ts"],
          isolate: false,
        },
      },
      integration("sqlite", "sqlite"),
      // The npm package as a consumer installs it: pack, install into a temporary project, tsc, run.
      { extends: true, test: { name: "package", include: ["pack/**/*.test.ts"], testTimeout: 120_000 } },
      ...(POSTGRES_URL ? [integration("postgres", "postgres")] : []),
      // Browser tests: the built application and the real service on SQLite, driven through Debian's chromium.
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["e2e/**/*.test.ts"],
          isolate: false,
          globalSetup: ["e2e/global-setup.ts"],
          testTimeout: 60_000,
          // A page settles on a shared 2-core machine in well under this; polls stop as soon as it does.
          expect: { poll: { timeout: 10_000 } },
          env: { TEST_DIALECT: "sqlite", GATEHOUSE_CHECK_REPLIES: "1" },
        },
      },
    ],
  },
});

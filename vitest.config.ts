import { defineConfig } from "vitest/config";

/**
 * Unit tests run once; integration tests (test/) run on SQLite and, when TEST_DATABASE_URL is set,
 * again on PostgreSQL: one suite, every dialect.
 */
const integration = (name: string, dialect: string) => ({
  extends: true as const,
  test: {
    name,
    include: ["test/**/*.test.ts"],
    // Every JSON reply is checked against its endpoint's reply schema (src/server/http/route.ts).
    env: { TEST_DIALECT: dialect, GATEHOUSE_CHECK_REPLIES: "1" },
  },
});

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    projects: [
      { extends: true, test: { name: "unit", include: ["src/**/*.test.ts", "src/**/*.test.tsx"] } },
      integration("sqlite", "sqlite"),
      // The npm package as a consumer installs it: pack, install into a temporary project, tsc, run.
      { extends: true, test: { name: "package", include: ["pack/**/*.test.ts"], testTimeout: 120_000 } },
      ...(process.env.TEST_DATABASE_URL ? [integration("postgres", "postgres")] : []),
      // Browser tests: the built application and the real service on SQLite, driven through Debian's chromium.
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["e2e/**/*.test.ts"],
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

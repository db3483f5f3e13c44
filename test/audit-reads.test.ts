import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { dialectUnderTest, freshDatabaseUrl } from "./helpers/database.js";

const run = promisify(execFile);

/**
 * Issue 34: with the audit trail on, reads must not slow down (bench/README.md, "Audit on: reads").
 * The audit scope travels in the request's context, never in an AsyncLocalStorage: on Node 20 and 22
 * one in use turns promise hooks on for the whole process, and once any was installed V8 keeps its
 * promise operations off their fast paths for good, reads included.
 */
describe("requests with the audit trail on", () => {
  // In a process of its own: this worker's other files (the test OpenID provider keeps an
  // AsyncLocalStorage) may have turned promise hooks on already.
  it("run with no promise hooks, audited writes included", async () => {
    const database = dialectUnderTest() === "postgres" ? await freshDatabaseUrl({ migrated: true }) : undefined;
    try {
      const { stdout } = await run(process.execPath, ["--import", "tsx", "test/fixtures/audit-read-probe.ts"], {
        env: { ...process.env, ...(database ? { PROBE_DATABASE_URL: database.url } : {}) },
        timeout: 60_000,
      });
      expect(JSON.parse(stdout.trim().split("\n").at(-1) ?? "")).toEqual({
        statuses: [200, 200, 200, 200],
        seen: [
          { path: "/sign-up/email", hooked: false },
          { path: "/update-user", hooked: false },
          { path: "/get-session", hooked: false },
          { path: "/list-sessions", hooked: false },
        ],
      });
    } finally {
      await database?.drop();
    }
  });
});

import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { EndpointHookContext } from "../src/server/hooks.js";
import { currentAuditScope } from "../src/server/services/audit-trail.js";
import { dialectUnderTest, freshDatabaseUrl } from "./helpers/database.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

const run = promisify(execFile);

/**
 * Issue 34: with the audit trail on, reads must not slow down (bench/README.md, "Audit on: reads").
 * A read runs in no audit scope, and the audited requests before it leave no promise hooks on: on
 * Node 20 and 22 the scope's AsyncLocalStorage, while in use, hooks every promise of the process.
 */

type Seen = { path: string; scoped: boolean };
const seen: Seen[] = [];
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    options: { audit: { enabled: true } },
    extra: {
      hooks: {
        before: async (ctx: EndpointHookContext) => {
          seen.push({ path: ctx.path, scoped: currentAuditScope() !== undefined });
        },
      },
    },
  });
});
afterAll(() => server.close());
afterEach(() => expect(server.loggedErrors).toEqual([]));

describe("reads with the audit trail on", () => {
  // In a process of its own: this worker's other files (the test OpenID provider keeps an
  // AsyncLocalStorage) may have turned promise hooks on already.
  it("run outside any audit scope, with no promise hooks left by the audited requests before", async () => {
    const database = dialectUnderTest() === "postgres" ? await freshDatabaseUrl({ migrated: true }) : undefined;
    try {
      const { stdout } = await run(process.execPath, ["--import", "tsx", "test/fixtures/audit-read-probe.ts"], {
        env: { ...process.env, ...(database ? { PROBE_DATABASE_URL: database.url } : {}) },
        timeout: 60_000,
      });
      expect(JSON.parse(stdout.trim().split("\n").at(-1) ?? "")).toEqual({
        statuses: [200, 200, 200, 200],
        seen: [
          { path: "/get-session", scoped: false, hooked: false },
          { path: "/list-sessions", scoped: false, hooked: false },
        ],
      });
    } finally {
      await database?.drop();
    }
  });

  it("an audited write runs in its scope (the probe above sees scopes)", async () => {
    const { browser } = await signUp(server, { verified: true });
    seen.length = 0;
    expect((await browser.post("/update-user", { name: "Scoped" })).status).toBe(200);
    expect(seen).toMatchObject([{ path: "/update-user", scoped: true }]);
  });
});

import { executionAsyncId } from "node:async_hooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { EndpointHookContext } from "../src/server/hooks.js";
import { currentAuditScope } from "../src/server/services/audit-trail.js";
import { signUp, startTestServer, type TestServer } from "./helpers/server.js";

/**
 * Issue 34: with the audit trail on, reads must not slow down (bench/README.md, "Audit on: reads").
 * A read runs in no audit scope, and the audited requests before it leave no promise hooks on: on
 * Node 20 and 22 the scope's AsyncLocalStorage, while in use, hooks every promise of the process.
 */

/**
 * Whether promise hooks are on: with them, each promise continuation runs under an async id of its
 * own; without, every continuation runs under the same one (the first await leaves the caller's).
 */
async function promiseHooksOn(): Promise<boolean> {
  await null;
  const first = executionAsyncId();
  await null;
  return executionAsyncId() !== first;
}

type Seen = { path: string; scoped: boolean; hooked: boolean };
const seen: Seen[] = [];
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    options: { audit: { enabled: true } },
    extra: {
      hooks: {
        before: async (ctx: EndpointHookContext) => {
          seen.push({ path: ctx.path, scoped: currentAuditScope() !== undefined, hooked: await promiseHooksOn() });
        },
      },
    },
  });
});
afterAll(() => server.close());
afterEach(() => expect(server.loggedErrors).toEqual([]));

describe("reads with the audit trail on", () => {
  it("run outside any audit scope, with no promise hooks left by the audited requests before", async () => {
    const { browser } = await signUp(server, { verified: true });
    expect((await browser.post("/update-user", { name: "Read Guard" })).status).toBe(200);
    seen.length = 0;
    expect((await browser.get("/get-session")).status).toBe(200);
    expect((await browser.get("/list-sessions")).status).toBe(200);
    expect(seen).toEqual([
      { path: "/get-session", scoped: false, hooked: false },
      { path: "/list-sessions", scoped: false, hooked: false },
    ]);
  });

  it("an audited write runs in its scope (the probe above sees scopes)", async () => {
    const { browser } = await signUp(server, { verified: true });
    seen.length = 0;
    expect((await browser.post("/update-user", { name: "Scoped" })).status).toBe(200);
    expect(seen).toMatchObject([{ path: "/update-user", scoped: true }]);
  });
});

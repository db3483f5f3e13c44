import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAuth } from "../src/server/auth.js";
import type { Logger } from "../src/server/logger.js";
import { cookieHeader } from "./lib/seed.js";

const quiet: Logger = { info: () => {}, warn: () => {}, error: (m, f) => console.error(m, f) };
const ORIGIN = "http://127.0.0.1:3999";

/**
 * Database round trips per get-session, counted in-process: N get-session requests through
 * auth.handler with a signed-in user's cookies, divided into the service's query-count delta.
 */
export async function queriesPerGetSession(cookieCache: boolean, n = 200): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-bench-queries-"));
  const auth = await createAuth({
    baseURL: ORIGIN,
    secret: "bench-secret-that-is-at-least-32-characters-long",
    database: `sqlite:${join(dir, "queries.sqlite")}`,
    options: { rateLimit: { enabled: false }, session: { cookieCache: { enabled: cookieCache } } },
    logger: quiet,
  });
  try {
    const signUp = await auth.handler(
      new Request(`${ORIGIN}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: ORIGIN },
        body: JSON.stringify({ name: "Count", email: "count@bench.example", password: "bench password 0123456789" }),
      }),
    );
    if (signUp.status !== 200) throw new Error(`sign-up failed: ${signUp.status} ${await signUp.text()}`);
    const cookie = cookieHeader(signUp.headers.getSetCookie());
    const before = auth.database.queryCount();
    for (let i = 0; i < n; i += 1) {
      const response = await auth.handler(new Request(`${ORIGIN}/api/auth/get-session`, { headers: { cookie } }));
      const body = (await response.json()) as { session?: unknown } | null;
      if (response.status !== 200 || !body?.session) throw new Error(`get-session answered ${response.status}`);
    }
    return (auth.database.queryCount() - before) / n;
  } finally {
    await auth.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

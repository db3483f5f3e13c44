// N sequential requests of one route through auth.handler, in process: the driver behind the
// instruction counts in bench/README.md. Bundle it in the tree to measure, then run it under callgrind:
//   npx esbuild bench/handler-driver.ts --bundle --platform=node --format=esm --packages=external --outfile=node_modules/.cache/driver.mjs
//   N=2000 valgrind --tool=callgrind node node_modules/.cache/driver.mjs   (and N=100: per request = difference / 1900)
// DATABASE: a DATABASE_URL, `sqlite::memory:` by default (an empty scratch database: created and
// dropped by the caller). ROUTE: a GET route, or /update-user (a POST changing the name each time).
// AUDIT: `off` (default); `on` (the sign-up is an audited request, as the HTTP bench's `-audited`
// cases are); `fresh` (the trail on, but the sign-up made by a second instance with it off, on the
// same database, so no audited request has run in this process before the measured ones).
import { existsSync } from "node:fs";
import { createAuth } from "../src/server/index.js";

const N = Number(process.env.N ?? 1000);
const ROUTE = process.env.ROUTE ?? "/get-session";
const AUDIT = process.env.AUDIT ?? "off";
const base = "http://localhost:3000/api/auth";
const database = process.env.DATABASE ?? "sqlite::memory:";
if (AUDIT === "fresh" && database === "sqlite::memory:") throw new Error("AUDIT=fresh needs a shared database");
const authWith = (audit: boolean) =>
  createAuth({
    baseURL: "http://localhost:3000",
    secret: "a-secret-that-is-long-enough-for-the-bench-0123",
    database,
    options: { rateLimit: { enabled: false }, organization: { enabled: true }, audit: { enabled: audit } } as never,
  });
const auth = await authWith(AUDIT !== "off");
const signingUp = AUDIT === "fresh" ? await authWith(false) : auth;
const headers = { origin: "http://localhost:3000", "content-type": "application/json" };
const signedUp = await signingUp.handler(
  new Request(`${base}/sign-up/email`, {
    method: "POST",
    headers,
    body: JSON.stringify({ email: "bench@example.com", password: "correct horse battery staple 9", name: "Bench" }),
  }),
);
const cookie = (signedUp.headers.getSetCookie?.() ?? []).map((c) => c.split(";")[0]).join("; ");
if (!cookie) throw new Error(`sign-up answered ${signedUp.status} ${await signedUp.text()}`);
if (signingUp !== auth) await signingUp.close();
const post = ROUTE === "/update-user";
async function requests(n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const init = post
      ? { method: "POST", headers: { ...headers, cookie }, body: JSON.stringify({ name: `Bench ${i}` }) }
      : { headers: { ...headers, cookie } };
    const response = await auth.handler(new Request(`${base}${ROUTE}`, init));
    if (response.status !== 200) throw new Error(`${ROUTE} answered ${response.status}`);
    await response.arrayBuffer();
    // Let timers run, as a server's event loop does between requests: SQLite answers without I/O,
    // so without this the audit sealer's timer would never fire and its work would go uncounted.
    await new Promise((resolve) => setImmediate(resolve));
  }
}
// With GATE: WARM requests, then wait for the file GATE to exist before the N counted ones, so that
// only they are instrumented (bench/instr-window.sh switches callgrind's instrumentation on between).
const gate = process.env.GATE;
if (gate) {
  await requests(Number(process.env.WARM ?? 2000));
  console.log(`warm ${process.pid}`);
  while (!existsSync(gate)) await new Promise((resolve) => setTimeout(resolve, 20));
}
const cpuBefore = process.cpuUsage();
await requests(N);
const cpu = process.cpuUsage(cpuBefore);
// CPU per request (the sealer's share included): rough outside callgrind, steadier than HTTP's.
console.log(`done ${N} ${ROUTE}: ${((cpu.user + cpu.system) / N).toFixed(1)} µs CPU per request`);
process.exit(0);

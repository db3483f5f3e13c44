// The built service (dist/server/main.js) under whichever Node runs this file: started on a fresh
// PostgreSQL database (better-sqlite3 is compiled for the machine's Node only), a user signed up
// (argon2's native hash runs), the session read back, then stopped. Bounded: 60 s at most (.ci/run
// runs it beside the test suite, on a busy machine).
// Usage: npx -y -p node@24 node .ci/smoke.mjs   (TEST_DATABASE_URL: the PostgreSQL server)
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import pg from "pg";

const adminUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const name = `gatehouse_smoke_${randomBytes(6).toString("hex")}`;
const port = 3900 + Math.floor(Math.random() * 90);
const origin = `http://127.0.0.1:${port}`;

async function admin(sql) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function waitForOk(deadline) {
  while (Date.now() < deadline) {
    const ok = await fetch(`${origin}/api/auth/ok`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("the service did not answer /api/auth/ok within 45 s");
}

await admin(`CREATE DATABASE ${name}`);
const databaseUrl = new URL(adminUrl);
databaseUrl.pathname = `/${name}`;
const service = spawn(process.execPath, ["dist/server/main.js"], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    BASE_URL: origin,
    DATABASE_URL: databaseUrl.toString(),
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    NODE_ENV: "development",
  },
  stdio: ["ignore", "inherit", "inherit"],
});
const timer = setTimeout(() => service.kill("SIGKILL"), 60_000);
try {
  await waitForOk(Date.now() + 45_000);
  const headers = { "content-type": "application/json", origin };
  const signUp = await fetch(`${origin}/api/auth/sign-up/email`, {
    method: "POST",
    headers,
    body: JSON.stringify({ name: "Smoke", email: "smoke@example.com", password: "correct horse battery" }),
  });
  if (signUp.status !== 200) throw new Error(`sign-up answered ${signUp.status}: ${await signUp.text()}`);
  const cookie = signUp.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
  const session = await (await fetch(`${origin}/api/auth/get-session`, { headers: { cookie } })).json();
  if (session?.user?.email !== "smoke@example.com") throw new Error(`get-session: ${JSON.stringify(session)}`);
  console.log(`smoke on node ${process.version}: started, signed up, session read`);
} finally {
  clearTimeout(timer);
  await new Promise((resolve) => {
    service.once("exit", resolve);
    service.kill("SIGTERM");
  });
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

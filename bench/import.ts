/**
 * `gatehouse import` throughput: an Auth0 export of IMPORT_USERS users (100,000), each with a bcrypt
 * hash and one in ten with a Google identity, written into a fresh, migrated database; then the same
 * command again (everything already there: what a resumed run costs per user it skips). Hashes are
 * not verified (that happens at each user's first sign-in), so this is the import's own work.
 *
 *   npx tsx bench/import.ts
 *   IMPORT_USERS=200000 IMPORT_DATABASES=postgres npx tsx bench/import.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import bcryptjs from "bcryptjs";
import { runCommand } from "../src/cli/run.js";
import { migrateToLatest, openDatabase } from "../src/server/store/database.js";
import { createDatabase, type DatabaseKind } from "./lib/databases.js";

const USERS = Number(process.env.IMPORT_USERS ?? 100_000);
const KINDS = (process.env.IMPORT_DATABASES ?? "sqlite,postgres").split(",") as DatabaseKind[];

const workDir = mkdtempSync(join(tmpdir(), "gatehouse-bench-import-"));
const source = join(workDir, "users.ndjson");
const hash = bcryptjs.hashSync("bench password", 4);
const lines = Array.from({ length: USERS }, (_, i) =>
  JSON.stringify({
    user_id: `auth0|${i.toString(16).padStart(24, "0")}`,
    email: `user${i}@import.example`,
    email_verified: true,
    name: `User ${i}`,
    created_at: "2024-01-01T00:00:00.000Z",
    passwordHash: hash,
    identities:
      i % 10 === 0
        ? [
            { provider: "auth0", user_id: i.toString(16) },
            { provider: "google-oauth2", user_id: `g${i}` },
          ]
        : [{ provider: "auth0", user_id: i.toString(16) }],
  }),
);
writeFileSync(source, `${lines.join("\n")}\n`);

async function run(url: string): Promise<{ seconds: number; cpuSeconds: number; stdout: string }> {
  const out: string[] = [];
  const cpu = process.cpuUsage();
  const started = performance.now();
  const code = await runCommand(["import", "--from", "auth0", "--source", source, "--apply"], {
    env: { DATABASE_URL: url },
    stdin: Object.assign(Readable.from([]), { isTTY: false }),
    out: (line) => out.push(line),
    err: () => {},
  });
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  if (code !== 0) throw new Error(`import exited ${code}: ${out.join("\n")}`);
  return { seconds, cpuSeconds: (used.user + used.system) / 1e6, stdout: out.join("\n") };
}

const perMinute = (seconds: number) => Math.round((USERS / seconds) * 60).toLocaleString("en");

try {
  for (const kind of KINDS) {
    const database = await createDatabase(kind, workDir, "import");
    try {
      const target = openDatabase(database.url);
      await migrateToLatest(target.db, target.dialect);
      await target.close();
      const load = loadavg()[0]!.toFixed(1);
      const first = await run(database.url);
      if (!first.stdout.includes(`users imported: ${USERS}`)) throw new Error(first.stdout);
      const again = await run(database.url);
      if (!again.stdout.includes(`users already imported (skipped): ${USERS}`)) throw new Error(again.stdout);
      console.log(
        `${kind}: ${USERS} users in ${first.seconds.toFixed(1)} s = ${perMinute(first.seconds)} a minute` +
          ` (this process's CPU ${first.cpuSeconds.toFixed(1)} s); again, all skipped: ${again.seconds.toFixed(1)} s` +
          ` = ${perMinute(again.seconds)} a minute; load average ${load} at the start`,
      );
    } finally {
      await database.drop();
    }
  }
} finally {
  rmSync(workDir, { recursive: true, force: true });
}

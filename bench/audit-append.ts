/**
 * What auditing adds to a change's transaction, in process and without HTTP: the same transaction
 * (one session-like insert) with and without the audit entry (one insert, unsealed: no head is read
 * or moved; on SQLite straight on the connection as the service runs it), and then what sealing
 * those entries costs per entry (batches of 500, as the sealer runs them),
 * interleaved in rounds, best round kept. Wall and CPU µs per transaction; on PostgreSQL the wall
 * time includes the round trips, which is what a sign-in waits for.
 *
 *   npx tsx bench/audit-append.ts sqlite:/tmp/audit-bench.db
 *   npx tsx bench/audit-append.ts postgres://postgres@127.0.0.1:5432/<scratch database>
 */
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { writeAuditEntry } from "../src/server/audit/entry.store.js";
import { sealAuditBatch } from "../src/server/audit/trail.store.js";
import { newId } from "../src/server/crypto/random.js";
import { migrateToLatest, openDatabase } from "../src/server/store/database.js";

const url = process.argv[2] ?? "sqlite::memory:";
const PER_ROUND = Number(process.argv[3] ?? 1000);
const ROUNDS = 5;
const { db, dialect, close } = openDatabase(url);
await migrateToLatest(db, dialect);

const userId = newId();
const now = new Date();
await db
  .insertInto("user")
  .values({
    id: userId,
    name: "Bench",
    email: `${userId}@bench.example`,
    emailVerified: true,
    createdAt: now,
    updatedAt: now,
  } as never)
  .execute();

/** The change: one row, as a sign-in's session insert (a scratch table keeps the session table out of it). */
await sql`create table if not exists audit_bench_change (id text primary key, "userId" text, "createdAt" text)`.execute(
  db,
);

async function change(trx: typeof db) {
  await trx
    .insertInto("audit_bench_change" as never)
    .values({ id: newId(), userId, createdAt: now.toISOString() } as never)
    .execute();
}

async function run(audited: boolean): Promise<{ wall: number; cpu: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < PER_ROUND; i++) {
    await db.transaction().execute(async (trx) => {
      await change(trx);
      if (audited) {
        await writeAuditEntry(
          {
            id: newId(),
            createdAt: new Date(),
            action: "user.sign_in",
            outcome: "success",
            actorType: "user",
            actorId: userId,
            subjectId: userId,
            organizationId: null,
            ipAddress: "127.0.0.1",
            userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36",
            requestId: "0123456789ab",
            details: '{"method":"email"}',
          },
          { transaction: trx, dialect, db },
        );
      }
    });
  }
  const cpu = process.cpuUsage(cpu0);
  return { wall: ((performance.now() - t0) * 1000) / PER_ROUND, cpu: (cpu.user + cpu.system) / PER_ROUND };
}

/** Seals whatever the audited run left, in the sealer's batches; µs per entry sealed. */
async function seal(): Promise<{ wall: number; cpu: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let sealed = 0;
  for (;;) {
    const batch = await db
      .transaction()
      .execute((trx) =>
        sealAuditBatch(
          trx,
          dialect,
          { sealerId: "bench", nowMs: Date.now(), leaseMs: 5000, wait: true, limit: 500 },
          db,
        ),
      );
    sealed += batch?.count ?? 0;
    if (!batch || batch.count < 500) break;
  }
  const cpu = process.cpuUsage(cpu0);
  return { wall: ((performance.now() - t0) * 1000) / sealed, cpu: (cpu.user + cpu.system) / sealed };
}

const best = {
  plain: { wall: Infinity, cpu: Infinity },
  audited: { wall: Infinity, cpu: Infinity },
  sealing: { wall: Infinity, cpu: Infinity },
};
for (let round = 0; round < ROUNDS; round++) {
  for (const kind of ["plain", "audited", "sealing"] as const) {
    const figures = kind === "sealing" ? await seal() : await run(kind === "audited");
    best[kind].wall = Math.min(best[kind].wall, figures.wall);
    best[kind].cpu = Math.min(best[kind].cpu, figures.cpu);
  }
}
const f = (n: number) => n.toFixed(0);
console.log(`${dialect}: ${PER_ROUND} transactions a round, best of ${ROUNDS} rounds (µs per transaction)`);
console.log(`  change alone        wall ${f(best.plain.wall)}  CPU ${f(best.plain.cpu)}`);
console.log(`  change + its entry  wall ${f(best.audited.wall)}  CPU ${f(best.audited.cpu)}`);
console.log(
  `  the entry costs     wall ${f(best.audited.wall - best.plain.wall)}  CPU ${f(best.audited.cpu - best.plain.cpu)}`,
);
console.log(
  `  sealing it, later   wall ${f(best.sealing.wall)}  CPU ${f(best.sealing.cpu)} (per entry, batches of 500)`,
);
await sql`drop table audit_bench_change`.execute(db);
await close();

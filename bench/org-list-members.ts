/**
 * list-members and list-invitations with 10 000 members: seeds one organization directly through the
 * store, then times the single statement each route runs and prints the query plan.
 *
 *   npx tsx bench/org-list-members.ts sqlite::memory:
 *   npx tsx bench/org-list-members.ts postgres://postgres@127.0.0.1:5432/<scratch database>
 */
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { newId } from "../src/server/crypto/random.js";
import { migrateToLatest, openDatabase } from "../src/server/store/database.js";
import { listInvitationsForMember } from "../src/server/store/invitations.js";
import { listMembersPage, type MemberPageQuery, membersPageQuery } from "../src/server/store/members.js";

const url = process.argv[2] ?? "sqlite::memory:";
const MEMBERS = Number(process.argv[3] ?? 10_000);
const { db, dialect, close } = openDatabase(url);
await migrateToLatest(db, dialect);

const now = new Date();
const orgId = newId();
await db
  .insertInto("organization")
  .values({ id: orgId, name: "Big", slug: `big-${orgId}`, logo: null, metadata: null, createdAt: now })
  .execute();
let ownerId = "";
for (let start = 0; start < MEMBERS; start += 500) {
  const users = [];
  const members = [];
  for (let i = start; i < Math.min(start + 500, MEMBERS); i++) {
    const id = newId();
    if (i === 0) ownerId = id;
    const at = new Date(now.getTime() + i * 1000);
    users.push({
      id,
      name: `User ${String(i).padStart(5, "0")}`,
      email: `u${i}-${id.slice(0, 6)}@example.com`,
      emailVerified: false,
      image: null,
      isAnonymous: false,
      banned: false,
      createdAt: at,
      updatedAt: at,
    });
    members.push({
      id: newId(),
      organizationId: orgId,
      userId: id,
      role: i === 0 ? "owner" : "member",
      teamId: null,
      createdAt: at,
    });
  }
  await db.insertInto("user").values(users).execute();
  await db.insertInto("member").values(members).execute();
}
const invitations = Array.from({ length: 500 }, (_, i) => ({
  id: newId(),
  organizationId: orgId,
  email: `inv${i}@example.com`,
  role: "member",
  status: i % 2 ? "pending" : "canceled",
  teamId: null,
  inviterId: ownerId,
  expiresAt: new Date(now.getTime() + 86400_000),
  createdAt: new Date(now.getTime() + i),
}));
await db.insertInto("invitation").values(invitations).execute();
await sql`analyze`.execute(db);

async function time(label: string, run: () => Promise<unknown>, rounds = 50) {
  await run();
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    await run();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  const p = (q: number) => samples[Math.floor(q * (samples.length - 1))]!.toFixed(2);
  console.log(`${dialect} ${label}: median ${p(0.5)} ms, p95 ${p(0.95)} ms`);
}

const base: MemberPageQuery = {
  organization: { id: orgId },
  callerUserId: ownerId,
  limit: 100,
  offset: 0,
  sortBy: "createdAt",
  sortDirection: "asc",
};
const cases: [string, MemberPageQuery][] = [
  ["list-members first page (100)", base],
  ["list-members page at offset 9900", { ...base, offset: 9900 }],
  ["list-members sorted by name desc", { ...base, sortBy: "name", sortDirection: "desc" }],
  ["list-members filter email contains", { ...base, filter: { field: "email", operator: "contains", value: "u99" } }],
  ["list-members by slug", { ...base, organization: { slug: `big-${orgId}` } }],
];
for (const [label, q] of cases) {
  const page = await listMembersPage(db, q);
  await time(`${label} [${page.reply.members.length} rows, total ${page.reply.total}]`, () => listMembersPage(db, q));
}
await time("list-invitations (500 rows)", () => listInvitationsForMember(db, orgId, ownerId));

// The plan of the page query as the database runs it (parameters inlined for EXPLAIN).
const explainPrefix = dialect === "postgres" ? "explain (analyze, costs off)" : "explain query plan";
const compiled = membersPageQuery(db, base).compile();
let next = 0;
const inlined = compiled.sql.replace(
  /\$(\d+)|\?/g,
  (m, n) => `'${String(compiled.parameters[m === "?" ? next++ : Number(n) - 1])}'`,
);
const plan = await sql.raw<Record<string, unknown>>(`${explainPrefix} ${inlined}`).execute(db);
console.log(plan.rows.map((r) => Object.values(r).join(" | ")).join("\n"));
await close();

/**
 * The read routes' database part alone, in process: the session lookup followed by the route's own
 * statement (two round trips) against the route's rows read in the lookup's statement (one). CPU µs
 * per call, steadier than the HTTP bench on a busy machine; PostgreSQL time includes the wait.
 *
 *   npx tsx bench/caller-reads.ts sqlite::memory:
 *   npx tsx bench/caller-reads.ts postgres://postgres@127.0.0.1:5432/<scratch database>
 *   TOGETHER=1 npx tsx bench/caller-reads.ts postgres://...   # also reads issued together (coalesced)
 */
import { performance } from "node:perf_hooks";
import { newId } from "../src/server/crypto/random.js";
import { hashSessionToken } from "../src/server/services/sessions.js";
import { type CallerRead, readCaller } from "../src/server/store/caller-reads.js";
import { migrateToLatest, openDatabase } from "../src/server/store/database.js";
import { findMemberWithUser, listMembersPage } from "../src/server/store/members.js";
import { listUserOrganizations } from "../src/server/store/organizations.js";
import { MemberPageCache } from "../src/server/store/reads/index.js";
import { listActiveUserSessions } from "../src/server/store/sessions.js";
import { listUserAccounts } from "../src/server/store/social-accounts.js";

const url = process.argv[2] ?? "sqlite::memory:";
const ITERATIONS = Number(process.argv[3] ?? 5000);
const { db, dialect, close } = openDatabase(url);
await migrateToLatest(db, dialect);

const now = new Date();
const later = new Date(now.getTime() + 86_400_000);
const user = (i: number) => ({
  id: newId(),
  name: `User ${String(i).padStart(3, "0")}`,
  email: `u${i}-${newId().slice(0, 6)}@example.com`,
  emailVerified: false,
  image: null,
  isAnonymous: false,
  banned: false,
  createdAt: new Date(now.getTime() + i),
  updatedAt: now,
});
const users = Array.from({ length: 50 }, (_, i) => user(i));
await db.insertInto("user").values(users).execute();
const caller = users[0]!;
const orgs = Array.from({ length: 3 }, (_, i) => ({
  id: newId(),
  name: `Org ${i}`,
  slug: `org-${i}-${newId().slice(0, 6)}`,
  logo: null,
  metadata: null,
  createdAt: now,
}));
await db.insertInto("organization").values(orgs).execute();
const org = orgs[0]!;
await db
  .insertInto("member")
  .values([
    ...users.map((u, i) => ({
      id: newId(),
      organizationId: org.id,
      userId: u.id,
      role: i === 0 ? "owner" : "member",
      teamId: null,
      createdAt: new Date(now.getTime() + i),
    })),
    ...orgs.slice(1).map((o) => ({
      id: newId(),
      organizationId: o.id,
      userId: caller.id,
      role: "owner",
      teamId: null,
      createdAt: now,
    })),
  ])
  .execute();
await db
  .insertInto("account")
  .values({
    id: newId(),
    userId: caller.id,
    providerId: "credential",
    accountId: caller.id,
    password: "x",
    createdAt: now,
    updatedAt: now,
  })
  .execute();
const token = "t".repeat(32);
const tokenHash = hashSessionToken(token);
await db
  .insertInto("session")
  .values(
    Array.from({ length: 5 }, (_, i) => ({
      id: newId(),
      tokenHash: i === 0 ? tokenHash : hashSessionToken(`other-${i}`),
      userId: caller.id,
      expiresAt: later,
      ipAddress: "127.0.0.1",
      userAgent: "bench",
      activeOrganizationId: org.id,
      activeTeamId: null,
      impersonatedBy: null,
      createdAt: new Date(now.getTime() + i),
      updatedAt: now,
    })),
  )
  .execute();

/** CPU µs per read: `reads` is how many reads one call of `run` makes. */
async function time(name: string, run: () => Promise<unknown>, reads = 1): Promise<number> {
  for (let i = 0; i < 300; i++) await run();
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < ITERATIONS; i++) await run();
  const used = process.cpuUsage(cpu);
  const cpuUs = (used.user + used.system) / ITERATIONS / reads;
  const wallUs = ((performance.now() - start) * 1000) / ITERATIONS / reads;
  console.log(`${name.padEnd(44)} ${cpuUs.toFixed(1).padStart(7)} µs CPU ${wallUs.toFixed(1).padStart(7)} µs wall`);
  return cpuUs;
}

/** Keeps no page: every read reads the page afresh. */
class NoPages extends MemberPageCache {
  override known() {
    return undefined;
  }
}
const noPages = new NoPages();

const read = (what: CallerRead, pages: MemberPageCache = noPages) =>
  readCaller(db, dialect, tokenHash, token, what, pages);
const lookup = () => read({ rows: "none" });
const page = { sortBy: "createdAt" as const, sortDirection: "asc" as const, limit: 100, pageSize: 100 };
const pairs: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
  [
    "list-sessions",
    async () => listActiveUserSessions(db, (await lookup()).found!.user.id, new Date()),
    () => read({ rows: "sessions", now: new Date() }),
  ],
  [
    "list-accounts",
    async () => listUserAccounts(db, (await lookup()).found!.user.id),
    () => read({ rows: "accounts" }),
  ],
  [
    "organization/list",
    async () => listUserOrganizations(db, (await lookup()).found!.user.id),
    () => read({ rows: "organizations" }),
  ],
  [
    "get-active-member",
    async () => {
      const found = (await lookup()).found!;
      return findMemberWithUser(db, found.session.activeOrganizationId!, { userId: found.user.id });
    },
    () => read({ rows: "activeMember", organizationId: null }),
  ],
  [
    "list-members (50)",
    async () => {
      const found = (await lookup()).found!;
      return listMembersPage(db, {
        ...page,
        offset: 0,
        organization: { id: found.session.activeOrganizationId! },
        callerUserId: found.user.id,
      });
    },
    // The page as read, not as kept: list-members' first request after a change.
    () => read({ rows: "membersPage", page: { ...page, organization: { id: null } } }),
  ],
];
console.log(`${dialect}, ${ITERATIONS} calls each`);
await time("session lookup alone", lookup);
// Alternated, so a burst of other work on the machine lands on both sides.
const ROUNDS = Number(process.env.ROUNDS ?? 1);
for (const [name, two, one] of pairs) {
  if (process.env.ONLY && !name.startsWith(process.env.ONLY)) continue;
  let a = Number.POSITIVE_INFINITY;
  let b = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round++) {
    a = Math.min(a, await time(`${name}: lookup + statement`, two));
    b = Math.min(b, await time(`${name}: one statement`, one));
  }
  console.log(`${name}: ${(a / b).toFixed(2)}x (best of ${ROUNDS} each)`);
}
// list-members' usual request: the page kept from an earlier one, the statement checking it still holds.
const kept = new MemberPageCache();
const keptPage = () => read({ rows: "membersPage", page: { ...page, organization: { id: null } } }, kept);
if (!process.env.ONLY || process.env.ONLY.startsWith("list-members")) {
  await time("list-members (50): page kept, one statement", keptPage);
}
// Reads issued together, as concurrent requests issue them: on PostgreSQL one statement carries them
// (store/reads/postgres-reads.ts). Per read, for 1, 2, 4 and 8 at once.
if (dialect === "postgres" && process.env.TOGETHER) {
  for (const [name, , one] of pairs) {
    if (process.env.ONLY && !name.startsWith(process.env.ONLY)) continue;
    for (const together of [1, 2, 4, 8])
      await time(
        `${name}: ${together} together, a read`,
        () => Promise.all(Array.from({ length: together }, one)),
        together,
      );
  }
}
await close();

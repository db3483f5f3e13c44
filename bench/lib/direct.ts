/**
 * Seeding straight into the service's database, for what has no public route (add-member is
 * server-side only) or would take too long over HTTP. Goes through the service's own store opener,
 * so values are stored as the service stores them in either dialect.
 */
import { sql } from "kysely";
import { newId } from "../../src/server/crypto/random.js";
import { type DB, openDatabase } from "../../src/server/store/database.js";
import type { SeededUser } from "./seed.js";

export async function withDatabase<T>(url: string, run: (db: DB) => Promise<T>): Promise<T> {
  const opened = openDatabase(url);
  try {
    return await run(opened.db);
  } finally {
    await opened.close();
  }
}

/** The user id of each seeded user, in order. */
export async function userIds(db: DB, users: SeededUser[]): Promise<string[]> {
  const rows = await db
    .selectFrom("user")
    .select(["id", "email"])
    .where(
      "email",
      "in",
      users.map((u) => u.email),
    )
    .execute();
  const byEmail = new Map(rows.map((r) => [r.email, r.id]));
  return users.map((u) => byEmail.get(u.email)!);
}

/** `count` users with no password and no session: the rest of an organization, or a large table. */
export async function insertFillerUsers(db: DB, count: number, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  const now = new Date();
  for (let start = 0; start < count; start += 500) {
    const rows = Array.from({ length: Math.min(500, count - start) }, (_, i) => {
      const id = newId();
      ids.push(id);
      return {
        id,
        name: `Filler ${start + i}`,
        email: `${prefix}-filler-${start + i}@bench.example`,
        emailVerified: false,
        image: null,
        isAnonymous: false,
        role: "user",
        banned: false,
        twoFactorEnabled: false,
        createdAt: now,
        updatedAt: now,
      };
    });
    await db.insertInto("user").values(rows).execute();
  }
  return ids;
}

/**
 * One organization per `members` user ids (in order), the first of each its owner. Answers the
 * organization id of each user.
 */
export async function insertOrganizations(db: DB, memberIds: string[][], prefix: string): Promise<string[]> {
  const organizationIds: string[] = [];
  const start = Date.now();
  for (const [n, members] of memberIds.entries()) {
    const organizationId = newId();
    organizationIds.push(organizationId);
    await db
      .insertInto("organization")
      .values({
        id: organizationId,
        name: `Bench ${n}`,
        slug: `${prefix}-${n}-${organizationId.slice(0, 8).toLowerCase()}`,
        logo: null,
        metadata: null,
        createdAt: new Date(start + n),
      })
      .execute();
    await db
      .insertInto("member")
      .values(
        members.map((userId, i) => ({
          id: newId(),
          organizationId,
          userId,
          role: i === 0 ? "owner" : "member",
          teamId: null,
          createdAt: new Date(start + i),
        })),
      )
      .execute();
  }
  return organizationIds;
}

/** Makes `organizationId` the active organization of every session of `userId`. */
export async function setActiveOrganization(db: DB, userId: string, organizationId: string): Promise<void> {
  await db.updateTable("session").set({ activeOrganizationId: organizationId }).where("userId", "=", userId).execute();
}

/** Fresh planner statistics after a bulk load. */
export async function analyze(db: DB): Promise<void> {
  await sql`analyze`.execute(db);
}

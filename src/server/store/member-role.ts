import type { DB } from "./db.js";

/** The member's role(s) in an organization, or null when they are not a member. */
export async function findMemberRole(db: DB, organizationId: string, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom("member")
    .select("role")
    .where("organizationId", "=", organizationId)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return row?.role ?? null;
}

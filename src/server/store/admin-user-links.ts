import type { UserAccountSummary, UserMembership } from "../../contract/admin-models.js";
import type { DB } from "./db.js";
import { toDate } from "./values.js";

/** The user's organizations with their role in each, oldest membership first, in one query. */
export async function listMembershipsWithOrganizations(db: DB, userId: string): Promise<UserMembership[]> {
  const rows = await db
    .selectFrom("member")
    .innerJoin("organization", "organization.id", "member.organizationId")
    .select([
      "member.organizationId as organizationId",
      "organization.name as organizationName",
      "organization.slug as organizationSlug",
      "member.role as role",
      "member.createdAt as createdAt",
    ])
    .where("member.userId", "=", userId)
    .orderBy("member.createdAt", "asc")
    .orderBy("member.id")
    .execute();
  return rows.map((row) => ({ ...row, createdAt: toDate(row.createdAt) }));
}

/** The user's linked accounts without any secret column (tokens, password hash). */
export async function listAccountSummaries(db: DB, userId: string): Promise<UserAccountSummary[]> {
  const rows = await db
    .selectFrom("account")
    .select(["id", "providerId", "accountId", "createdAt"])
    .where("userId", "=", userId)
    .orderBy("createdAt", "asc")
    .orderBy("id")
    .execute();
  return rows.map((row) => ({ ...row, createdAt: toDate(row.createdAt) }));
}

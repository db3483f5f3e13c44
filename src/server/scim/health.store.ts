import type { DB } from "../store/db.js";
import { countAll } from "../store/organizations.js";
import { toDate } from "../store/values.js";
import type { ScimScope } from "./connections.store.js";

/** A refused directory call as kept for the connection's health. */
export interface ScimErrorRow {
  method: string;
  path: string;
  status: number;
  scimType: string | null;
  detail: string;
  createdAt: Date;
}

/**
 * Records a refusal and drops the connection's older ones beyond `keep`: the table holds at most
 * `keep` rows per connection (a few more while concurrent inserts race, until the next prune).
 */
export async function insertScimError(
  db: DB,
  scope: ScimScope,
  row: ScimErrorRow & { id: string },
  keep: number,
): Promise<void> {
  await db
    .insertInto("scimError")
    .values({ ...row, organizationId: scope.organizationId, providerId: scope.providerId })
    .execute();
  const newest = db
    .selectFrom("scimError")
    .select("id")
    .where("organizationId", "=", scope.organizationId)
    .where("providerId", "=", scope.providerId)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(keep);
  await db
    .deleteFrom("scimError")
    .where("organizationId", "=", scope.organizationId)
    .where("providerId", "=", scope.providerId)
    .where("id", "not in", newest)
    .execute();
}

/** The connection's kept refusals, newest first. */
export async function listScimErrors(db: DB, scope: ScimScope, limit: number): Promise<ScimErrorRow[]> {
  const rows = await db
    .selectFrom("scimError")
    .select(["method", "path", "status", "scimType", "detail", "createdAt"])
    .where("organizationId", "=", scope.organizationId)
    .where("providerId", "=", scope.providerId)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, status: Number(row.status), createdAt: toDate(row.createdAt) }));
}

export async function deleteScimErrors(db: DB, scope: ScimScope): Promise<void> {
  await db
    .deleteFrom("scimError")
    .where("organizationId", "=", scope.organizationId)
    .where("providerId", "=", scope.providerId)
    .execute();
}

/** How many users and groups the connection provisioned (each an indexed count of its own rows). */
export async function countScimProvisioned(db: DB, scope: ScimScope): Promise<{ users: number; groups: number }> {
  const [users, groups] = await Promise.all(
    (["scimUser", "scimGroup"] as const).map((table) =>
      db
        .selectFrom(table)
        .select(countAll.as("n"))
        .where("organizationId", "=", scope.organizationId)
        .where("providerId", "=", scope.providerId)
        .executeTakeFirstOrThrow(),
    ),
  );
  return { users: Number(users?.n ?? 0), groups: Number(groups?.n ?? 0) };
}

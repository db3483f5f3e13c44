import { sql } from "kysely";
import type { ListUsersQuery } from "../../contract/admin.js";
import type { User } from "../../contract/models.js";
import type { DB } from "./db.js";
import { mapUser } from "./users.js";

const DEFAULT_PAGE = 100;

/** Escapes LIKE wildcards so a search for "50%" finds that text, not everything (used with `escape '\\'`). */
function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

function likePattern(value: string, operator: "contains" | "starts_with" | "ends_with"): string {
  const escaped = escapeLike(value.toLowerCase());
  if (operator === "starts_with") return `${escaped}%`;
  if (operator === "ends_with") return `%${escaped}`;
  return `%${escaped}%`;
}

/** One page of users with the total matching the search and filter, in one query. */
export async function searchUsers(db: DB, query: ListUsersQuery): Promise<{ users: User[]; total: number }> {
  let select = db
    .selectFrom("user")
    .selectAll()
    .select((eb) => eb.fn.countAll().over().as("total"));
  if (query.searchValue) {
    const field = query.searchField ?? "email";
    const pattern = likePattern(query.searchValue, query.searchOperator ?? "contains");
    select = select.where(sql<boolean>`lower(${sql.ref(`user.${field}`)}) like ${pattern} escape '\\'`);
  }
  if (query.filterValue !== undefined) {
    const field = query.filterField ?? "email";
    const isBoolean = field === "banned" || field === "emailVerified";
    const value = isBoolean
      ? query.filterValue === "true"
      : field === "email"
        ? query.filterValue.toLowerCase()
        : query.filterValue;
    if (field === "role") {
      // Roles are stored comma separated: "admin" matches "admin" and "admin,user" alike.
      const roles = sql<string>`',' || replace(coalesce(${sql.ref("user.role")}, 'user'), ' ', '') || ','`;
      const hasRole = sql<boolean>`${roles} like ${`%,${escapeLike(query.filterValue.trim())},%`} escape '\\'`;
      select = select.where(query.filterOperator === "ne" ? sql<boolean>`not ${hasRole}` : hasRole);
    } else {
      select = select.where(`user.${field}`, query.filterOperator === "ne" ? "!=" : "=", value as never);
    }
  }
  const rows = await select
    .orderBy(`user.${query.sortBy ?? "createdAt"}`, query.sortDirection ?? "asc")
    .orderBy("user.id")
    .limit(query.limit ?? DEFAULT_PAGE)
    .offset(query.offset ?? 0)
    .execute();
  let total = Number(rows[0]?.total ?? 0);
  if (rows.length === 0 && (query.offset ?? 0) > 0) {
    // A page past the end carries no window count: ask for the total on its own.
    const counted = await select
      .clearSelect()
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirst();
    total = Number(counted?.n ?? 0);
  }
  return { total, users: rows.map(({ total: _total, ...row }) => mapUser(row)) };
}

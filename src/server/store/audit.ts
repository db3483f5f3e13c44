import type { DB } from "./database.js";
import { toDate } from "./values.js";

export interface AuditEntry {
  id: string;
  actorUserId: string;
  action: string;
  targetUserId: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  details: Record<string, unknown> | null;
  createdAt: Date;
}

export async function insertAuditEntry(db: DB, entry: AuditEntry): Promise<void> {
  await db
    .insertInto("auditLog")
    .values({ ...entry, details: entry.details ? JSON.stringify(entry.details) : null })
    .execute();
}

/** Newest first, with the total that matches the filter, in one query. */
export async function listAuditEntries(
  db: DB,
  filter: { targetUserId?: string; actorUserId?: string; limit: number; offset: number },
): Promise<{ entries: AuditEntry[]; total: number }> {
  let query = db
    .selectFrom("auditLog")
    .selectAll()
    .select((eb) => eb.fn.countAll().over().as("total"));
  if (filter.targetUserId) query = query.where("targetUserId", "=", filter.targetUserId);
  if (filter.actorUserId) query = query.where("actorUserId", "=", filter.actorUserId);
  const rows = await query
    .orderBy("createdAt", "desc")
    .orderBy("id")
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  return {
    total: Number(rows[0]?.total ?? 0),
    entries: rows.map(({ total: _total, ...row }) => ({
      ...row,
      details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null,
      createdAt: toDate(row.createdAt),
    })),
  };
}

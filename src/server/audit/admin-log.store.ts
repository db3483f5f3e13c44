import type { AuditEntry, AuditPerson } from "../../contract/admin-models.js";
import type { DB } from "../store/db.js";
import { toDate } from "../store/values.js";

/** A row as written: the listed entry without the people it names (contract/admin-models.ts). */
export type AuditRow = Omit<AuditEntry, "actor" | "target">;

export async function insertAuditEntry(db: DB, entry: AuditRow): Promise<void> {
  await db
    .insertInto("auditLog")
    .values({ ...entry, details: entry.details ? JSON.stringify(entry.details) : null })
    .execute();
}

const person = (id: string | null, name: string | null, email: string | null): AuditPerson | null =>
  id !== null && name !== null && email !== null ? { id, name, email } : null;

/**
 * Newest first, with the total that matches the filter and the actor's and target's names, in one
 * query. A removed user joins to nothing, so their side comes back null while the id stays.
 */
export async function listAuditEntries(
  db: DB,
  filter: { targetUserId?: string; actorUserId?: string; limit: number; offset: number },
): Promise<{ entries: AuditEntry[]; total: number }> {
  let query = db
    .selectFrom("auditLog")
    .leftJoin("user as actor", "actor.id", "auditLog.actorUserId")
    .leftJoin("user as target", "target.id", "auditLog.targetUserId")
    .selectAll("auditLog")
    .select([
      "actor.id as actorId",
      "actor.name as actorName",
      "actor.email as actorEmail",
      "target.id as targetId",
      "target.name as targetName",
      "target.email as targetEmail",
    ])
    .select((eb) => eb.fn.countAll().over().as("total"));
  if (filter.targetUserId) query = query.where("auditLog.targetUserId", "=", filter.targetUserId);
  if (filter.actorUserId) query = query.where("auditLog.actorUserId", "=", filter.actorUserId);
  const rows = await query
    .orderBy("auditLog.createdAt", "desc")
    .orderBy("auditLog.id")
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  return {
    total: Number(rows[0]?.total ?? 0),
    entries: rows.map(
      ({ total: _total, actorId, actorName, actorEmail, targetId, targetName, targetEmail, ...row }) => ({
        ...row,
        details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null,
        createdAt: toDate(row.createdAt),
        actor: person(actorId, actorName, actorEmail),
        target: person(targetId, targetName, targetEmail),
      }),
    ),
  };
}

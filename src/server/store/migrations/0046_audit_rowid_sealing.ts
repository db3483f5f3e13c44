import { type Kysely, type Migration, sql } from "kysely";
import type { DialectName } from "../dialect.js";

/**
 * SQLite: entries are sealed in rowid order, so an unsealed entry's insert writes one index page
 * fewer (issue 50, "Budget"; bench/README.md "SQLite's entry with its change"). SQLite has one writer
 * at a time and gives a new row the rowid after the highest, so every entry after the sealed head's
 * row is an unsealed one and the sealer finds them from there (audit/trail.store.ts,
 * SQLITE_UNSEALED_AFTER) without the index of unsealed entries. An entry left unsealed by the
 * earlier sealer, which sealed by time, may sit before the head's row: each is moved to the end
 * (copied, in the order that sealer would have taken, then the original deleted). PostgreSQL has
 * writers side by side, no such order, and keeps its index.
 */
/** An unsealed entry's columns as this migration found them (frozen: a later field is not here yet). */
const ENTRY_COLUMNS = [
  "id",
  "createdAt",
  "action",
  "outcome",
  "actorType",
  "actorId",
  "subjectId",
  "organizationId",
  "ipAddress",
  "userAgent",
  "requestId",
  "details",
];

export function auditRowidSealingMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== "sqlite") return;
      const columns = sql.raw(ENTRY_COLUMNS.map((column) => `"${column}"`).join(", "));
      const { rows } = await sql<{ last: number | null }>`select max(rowid) as "last" from "auditTrail"`.execute(db);
      const last = rows[0]?.last ?? 0;
      await sql`insert into "auditTrail" (${columns})
        select ${columns} from "auditTrail" where "seq" is null and rowid <= ${last} order by "createdAt", "id"`.execute(
        db,
      );
      await sql`delete from "auditTrail" where "seq" is null and rowid <= ${last}`.execute(db);
      await sql`drop index if exists "auditTrail_unsealed_idx"`.execute(db);
    },
  };
}

import { type Kysely, type Migration, sql } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/**
 * SQLite: an unsealed entry's insert writes two pages, not seven (issue 50, "Budget"; bench/README.md).
 * What a SQLite commit costs is mostly one WAL frame per page it changed, and the insert is on every
 * audited write's path while the sealer's batch is not. So every reader index (actor, subject,
 * organization, time, and `seq`'s uniqueness) becomes partial on `seq is not null`: an entry enters
 * them when the sealer numbers it, hundreds to a batch and a page, and until then sits in the table
 * and the unsealed index only. The unique index on `id` goes (nothing looks an entry up by it; the
 * sealer updates by rowid, audit/trail.store.ts). Every reader's query says `seq is not null` or
 * compares `seq`, which SQLite takes as meeting the indexes' condition (test/index-plans.test.ts).
 * SQLite drops a column's UNIQUE only by rebuilding the table. PostgreSQL's trail is within its
 * budget as it is (its entry rides in the change's statement) and keeps its indexes.
 */
export function auditUnsealedPagesMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== "sqlite") return;
      const t = columnTypes(dialect);
      await db.schema
        .createTable("auditTrail_lean")
        .addColumn("seq", "integer")
        .addColumn("id", "text", (c) => c.notNull())
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addColumn("action", "text", (c) => c.notNull())
        .addColumn("outcome", "text", (c) => c.notNull())
        .addColumn("actorType", "text", (c) => c.notNull())
        .addColumn("actorId", "text")
        .addColumn("subjectId", "text")
        .addColumn("organizationId", "text")
        .addColumn("ipAddress", "text")
        .addColumn("userAgent", "text")
        .addColumn("requestId", "text")
        .addColumn("details", "text")
        .addColumn("hash", "text")
        .execute();
      const columns = sql.raw(
        [
          "seq",
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
          "hash",
        ]
          .map((column) => `"${column}"`)
          .join(", "),
      );
      await sql`insert into "auditTrail_lean" (${columns}) select ${columns} from "auditTrail" order by rowid`.execute(
        db,
      );
      await db.schema.dropTable("auditTrail").execute();
      await db.schema.alterTable("auditTrail_lean").renameTo("auditTrail").execute();
      const sealed = sql<boolean>`${sql.ref("seq")} is not null`;
      await db.schema.createIndex("auditTrail_seq_key").unique().on("auditTrail").column("seq").where(sealed).execute();
      for (const [name, column] of [
        ["auditTrail_actorId_seq_idx", "actorId"],
        ["auditTrail_subjectId_seq_idx", "subjectId"],
      ] as const) {
        await db.schema.createIndex(name).on("auditTrail").columns([column, "seq"]).where(sealed).execute();
      }
      await db.schema
        .createIndex("auditTrail_organizationId_partial_idx")
        .on("auditTrail")
        .columns(["organizationId", "seq"])
        .where(sql<boolean>`${sql.ref("organizationId")} is not null and ${sql.ref("seq")} is not null`)
        .execute();
      await db.schema
        .createIndex("auditTrail_createdAt_idx")
        .on("auditTrail")
        .column("createdAt")
        .where(sealed)
        .execute();
      await db.schema
        .createIndex("auditTrail_unsealed_idx")
        .on("auditTrail")
        .columns(["createdAt", "id"])
        .where(sql.ref("seq"), "is", null)
        .execute();
    },
  };
}

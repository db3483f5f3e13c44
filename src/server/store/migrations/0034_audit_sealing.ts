import { type Kysely, type Migration, sql } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/**
 * The audit trail sealed after commit (issue 50, docs/audit.md "Sealing"): a change's transaction
 * inserts its entry without `seq` and `hash`, and a sealer numbers and chains committed entries later.
 * `seq` and `hash` become nullable (`seq` stays unique: no two sealed entries share a number), and a
 * partial index holds only the unsealed tail, which the sealer reads oldest first. Entries already in
 * the trail are sealed and keep their numbers and hashes. On SQLite a column loses NOT NULL only by
 * rebuilding the table (`seq` was the rowid). The chain's head row gains the SQLite sealer's lease
 * (which instance seals, until when, in ms): PostgreSQL's sealers take the head row `FOR UPDATE SKIP
 * LOCKED` instead.
 */
export function auditSealingMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === "postgres") {
        await sql`alter table "auditTrail" drop constraint "auditTrail_pkey"`.execute(db);
        await sql`alter table "auditTrail" alter column "seq" drop not null, alter column "hash" drop not null`.execute(
          db,
        );
        await sql`alter table "auditTrail" add constraint "auditTrail_seq_key" unique ("seq")`.execute(db);
      } else {
        await rebuildOnSqlite(db, dialect);
      }
      await db.schema.alterTable("auditChain").addColumn("sealerId", "text").execute();
      await db.schema
        .alterTable("auditChain")
        .addColumn("sealerUntil", dialect === "postgres" ? "bigint" : "integer")
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

async function rebuildOnSqlite(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable("auditTrail_sealed")
    .addColumn("seq", "integer", (c) => c.unique())
    .addColumn("id", "text", (c) => c.notNull().unique())
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
  await sql`insert into "auditTrail_sealed" (${columns}) select ${columns} from "auditTrail"`.execute(db);
  await db.schema.dropTable("auditTrail").execute();
  await db.schema.alterTable("auditTrail_sealed").renameTo("auditTrail").execute();
  // The indexes went with the old table: the readers' own, as migrations 0021, 0029 and 0032 left them.
  await db.schema.createIndex("auditTrail_actorId_seq_idx").on("auditTrail").columns(["actorId", "seq"]).execute();
  await db.schema.createIndex("auditTrail_createdAt_idx").on("auditTrail").column("createdAt").execute();
  await db.schema.createIndex("auditTrail_subjectId_seq_idx").on("auditTrail").columns(["subjectId", "seq"]).execute();
  await db.schema
    .createIndex("auditTrail_organizationId_partial_idx")
    .on("auditTrail")
    .columns(["organizationId", "seq"])
    .where(sql.ref("organizationId"), "is not", null)
    .execute();
}

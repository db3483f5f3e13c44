import { type Kysely, type Migration, sql } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/** The hash the chain starts from: 64 zeros (audit/trail.store.ts). */
export const CHAIN_START_HASH = "0".repeat(64);

/**
 * The security audit trail (docs/audit.md): one row per event, each hashed over the one before, and
 * the chain's one head row, which every append updates in its transaction (that row's lock is what
 * keeps concurrent appends in one line) and which keeps the anchor retention prunes up to.
 */
export function auditTrailMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  const seqType = dialect === "postgres" ? "bigint" : "integer";
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("auditTrail")
        .addColumn("seq", seqType, (c) => c.primaryKey())
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
        .addColumn("hash", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("auditTrail_organizationId_seq_idx")
        .on("auditTrail")
        .columns(["organizationId", "seq"])
        .execute();
      await db.schema.createIndex("auditTrail_actorId_seq_idx").on("auditTrail").columns(["actorId", "seq"]).execute();
      await db.schema.createIndex("auditTrail_createdAt_idx").on("auditTrail").column("createdAt").execute();
      await db.schema
        .createTable("auditChain")
        .addColumn("id", "integer", (c) => c.primaryKey())
        .addColumn("headSeq", seqType, (c) => c.notNull())
        .addColumn("headHash", "text", (c) => c.notNull())
        .addColumn("anchorSeq", seqType, (c) => c.notNull())
        .addColumn("anchorHash", "text", (c) => c.notNull())
        .execute();
      await sql`insert into ${sql.table("auditChain")} (${sql.ref("id")}, ${sql.ref("headSeq")}, ${sql.ref("headHash")}, ${sql.ref("anchorSeq")}, ${sql.ref("anchorHash")}) values (1, 0, ${CHAIN_START_HASH}, 0, ${CHAIN_START_HASH})`.execute(
        db,
      );
    },
  };
}

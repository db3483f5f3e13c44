import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/** Who did what to whom, when and from where: every admin action and impersonation. */
export function adminAuditMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("auditLog")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("actorUserId", "text", (c) => c.notNull())
        .addColumn("action", "text", (c) => c.notNull())
        .addColumn("targetUserId", "text")
        .addColumn("ipAddress", "text")
        .addColumn("userAgent", "text")
        .addColumn("details", "text")
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("auditLog_createdAt_idx").on("auditLog").column("createdAt").execute();
      await db.schema.createIndex("auditLog_targetUserId_idx").on("auditLog").column("targetUserId").execute();
      await db.schema.createIndex("auditLog_actorUserId_idx").on("auditLog").column("actorUserId").execute();
    },
  };
}

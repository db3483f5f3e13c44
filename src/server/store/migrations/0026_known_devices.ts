import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/**
 * The browsers each user has signed in from (docs/security-activity.md): one row per user and device
 * cookie (its SHA-256, never the id itself). The unique key is what makes the new-device mail go
 * once: of two sign-ins racing from one new browser, only one inserts.
 */
export function knownDevicesMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("knownDevice")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
        .addColumn("deviceHash", "text", (c) => c.notNull())
        .addColumn("userAgent", "text")
        .addColumn("ipAddress", "text")
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addColumn("lastSeenAt", t.timestamp, (c) => c.notNull())
        .addUniqueConstraint("knownDevice_userId_deviceHash_key", ["userId", "deviceHash"])
        .execute();
      // Housekeeping deletes devices not seen for a long time in batches, without reading the table.
      await db.schema.createIndex("knownDevice_lastSeenAt_idx").on("knownDevice").column("lastSeenAt").execute();
    },
  };
}

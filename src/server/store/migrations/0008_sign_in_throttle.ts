import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/** Failed sign-ins per account (by normalized email, whether or not it exists), for the backoff. */
export function signInThrottleMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("signInThrottle")
        .addColumn("key", "text", (c) => c.primaryKey())
        .addColumn("failures", "integer", (c) => c.notNull())
        .addColumn("lockedUntil", t.timestamp)
        .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("signInThrottle_updatedAt_idx").on("signInThrottle").column("updatedAt").execute();
    },
  };
}

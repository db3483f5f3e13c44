import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/**
 * One table for every guess limit (store/attempt-counters.ts): the sign-in brake moves here from
 * signInThrottle, which goes; its counts start afresh, as they would after a day without failures.
 */
export function attemptCountersMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("attemptCounter")
        .addColumn("key", "text", (c) => c.primaryKey())
        .addColumn("attempts", "integer", (c) => c.notNull())
        .addColumn("blockedUntil", t.timestamp)
        .addColumn("expiresAt", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("attemptCounter_expiresAt_idx").on("attemptCounter").column("expiresAt").execute();
      await db.schema.dropTable("signInThrottle").execute();
    },
  };
}

import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/**
 * Invitation mail is counted: each invitation its sends and the last one (the resend cooldown). The
 * per-recipient daily cap counts in attemptCounter (0017), like every other limit.
 */
export function invitationSendsMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("invitation")
        .addColumn("sendCount", "integer", (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema.alterTable("invitation").addColumn("lastSentAt", t.timestamp).execute();
    },
  };
}

import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/**
 * Invitation mail is counted: each invitation its sends and the last one (the resend cooldown), and
 * each recipient address the invitation mails of its current day across organizations (the cap).
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
      await db.schema
        .createTable("invitationRecipientQuota")
        .addColumn("email", "text", (c) => c.primaryKey())
        .addColumn("windowStart", t.timestamp, (c) => c.notNull())
        .addColumn("sent", "integer", (c) => c.notNull())
        .execute();
    },
  };
}

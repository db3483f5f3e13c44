import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/**
 * When and how a session's user last proved who they are (password, passkey, TOTP, provider). Kept
 * beside the session rather than on it: only credential changes read it, never get-session.
 */
export function sessionProofMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("sessionProof")
        .addColumn("sessionId", "text", (c) => c.primaryKey().references("session.id").onDelete("cascade"))
        .addColumn("method", "text", (c) => c.notNull())
        .addColumn("provedAt", t.timestamp, (c) => c.notNull())
        .execute();
    },
  };
}

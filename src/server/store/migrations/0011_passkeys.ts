import { type Kysely, type Migration, sql } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/** WebAuthn credentials: the public key, its signature counter and backup state, per user. */
export function passkeysMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  const falseDefault = dialect === "postgres" ? sql`false` : sql`0`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("passkey")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text")
        .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
        .addColumn("credentialID", "text", (c) => c.notNull().unique())
        .addColumn("publicKey", "text", (c) => c.notNull())
        .addColumn("counter", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("deviceType", "text", (c) => c.notNull())
        .addColumn("backedUp", t.boolean, (c) => c.notNull().defaultTo(falseDefault))
        .addColumn("transports", "text")
        .addColumn("aaguid", "text")
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("passkey_userId_idx").on("passkey").column("userId").execute();
    },
  };
}

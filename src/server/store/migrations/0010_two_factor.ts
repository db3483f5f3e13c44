import { type Kysely, type Migration, sql } from "kysely";
import { columnTypes, type DialectName } from "../dialect.js";

/**
 * Second factors: the user's switch, their TOTP secret (encrypted) with hashed backup codes and the
 * last accepted time step (no code is accepted twice), and pending sign-in challenges (a password
 * was right; a second factor is still owed).
 */
export function twoFactorMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  const falseDefault = dialect === "postgres" ? sql`false` : sql`0`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("user")
        .addColumn("twoFactorEnabled", t.boolean, (c) => c.notNull().defaultTo(falseDefault))
        .execute();
      await db.schema
        .createTable("twoFactor")
        .addColumn("userId", "text", (c) => c.primaryKey().references("user.id").onDelete("cascade"))
        .addColumn("secret", "text", (c) => c.notNull())
        .addColumn("backupCodes", "text", (c) => c.notNull())
        .addColumn("verified", t.boolean, (c) => c.notNull().defaultTo(falseDefault))
        .addColumn("lastUsedStep", "bigint")
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .addColumn("updatedAt", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("twoFactorChallenge")
        .addColumn("tokenHash", "text", (c) => c.primaryKey())
        .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
        .addColumn("rememberMe", t.boolean, (c) => c.notNull())
        .addColumn("failures", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("otpHash", "text")
        .addColumn("otpExpiresAt", t.timestamp)
        .addColumn("expiresAt", t.timestamp, (c) => c.notNull())
        .addColumn("createdAt", t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("twoFactorChallenge_expiresAt_idx")
        .on("twoFactorChallenge")
        .column("expiresAt")
        .execute();
    },
  };
}

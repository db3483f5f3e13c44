import { sql } from "kysely";
import type { TestServer } from "./server.js";

/**
 * Makes the real database refuse one kind of write (a trigger), to drive the failure branches a
 * healthy database never takes. Returns the undo. Values are test literals (no quoting needed).
 */
export async function refuseWrites(
  server: TestServer,
  rule: { table: string; op: "INSERT" | "UPDATE" | "DELETE"; column?: string; equals?: string },
): Promise<() => Promise<void>> {
  const { db, dialect } = server.auth.database;
  const name = `test_refuse_${rule.table}_${rule.op}`.toLowerCase();
  const row = rule.op === "DELETE" ? "OLD" : "NEW";
  const condition = rule.column ? `${row}."${rule.column}" = '${rule.equals}'` : "1 = 1";
  if (dialect === "sqlite") {
    await sql
      .raw(
        `CREATE TRIGGER ${name} BEFORE ${rule.op} ON "${rule.table}" WHEN ${condition} BEGIN SELECT RAISE(ABORT, 'refused by test'); END`,
      )
      .execute(db);
    return async () => {
      await sql.raw(`DROP TRIGGER ${name}`).execute(db);
    };
  }
  await sql
    .raw(
      `CREATE FUNCTION ${name}() RETURNS trigger AS $$ BEGIN IF ${condition} THEN RAISE EXCEPTION 'refused by test'; END IF; RETURN ${row}; END $$ LANGUAGE plpgsql`,
    )
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER ${name} BEFORE ${rule.op} ON "${rule.table}" FOR EACH ROW EXECUTE FUNCTION ${name}()`)
    .execute(db);
  return async () => {
    await sql.raw(`DROP TRIGGER ${name} ON "${rule.table}"`).execute(db);
    await sql.raw(`DROP FUNCTION ${name}()`).execute(db);
  };
}

import { parseArgs } from "node:util";
import { readDatabaseUrl } from "../server/environment.js";
import { withoutPassword } from "../server/startup-summary.js";
import { migrateToLatest, openDatabase, pendingMigrations } from "../server/store/database.js";
import { type CommandIO, processIO } from "./io.js";

/** `gatehouse migrate`: applies pending migrations to DATABASE_URL; running it again does nothing. */
export async function migrate(args: string[], io: CommandIO = processIO): Promise<number> {
  parseArgs({ args, options: {}, strict: true });
  const url = readDatabaseUrl(io.env);
  const database = openDatabase(url);
  try {
    const pending = await pendingMigrations(database.db, database.dialect);
    await migrateToLatest(database.db, database.dialect);
    const what = pending.length === 0 ? "already up to date" : `applied ${pending.length} migration(s)`;
    io.out(`${withoutPassword(url)}: ${what} (${database.dialect})`);
    return 0;
  } finally {
    await database.close();
  }
}

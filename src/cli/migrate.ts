import { parseArgs } from "node:util";
import { readDatabaseUrl, readOptionsFile } from "../server/environment.js";
import { resolveOptions } from "../server/options.js";
import { withoutPassword } from "../server/startup-summary.js";
import { ensureAdditionalColumns, resolveAdditionalFields } from "../server/store/additional-fields.js";
import { migrateToLatest, openDatabase, pendingMigrations } from "../server/store/database.js";
import { type CommandIO, processIO } from "./io.js";

/**
 * `gatehouse migrate`: applies pending migrations to DATABASE_URL, then adds the columns of the
 * additional fields AUTH_CONFIG names; running it again does nothing.
 */
export async function migrate(args: string[], io: CommandIO = processIO): Promise<number> {
  parseArgs({ args, options: {}, strict: true });
  const url = readDatabaseUrl(io.env);
  const configPath = io.env.AUTH_CONFIG;
  // Only the fields matter here; the base URL affects no field.
  const fields = configPath
    ? resolveAdditionalFields(
        resolveOptions(readOptionsFile(configPath), { baseURL: "http://localhost", source: configPath }),
      )
    : null;
  const database = openDatabase(url);
  try {
    const pending = await pendingMigrations(database.db, database.dialect);
    await migrateToLatest(database.db, database.dialect);
    const added = fields ? await ensureAdditionalColumns(database.db, database.dialect, fields) : 0;
    const applied = pending.length === 0 ? "already up to date" : `applied ${pending.length} migration(s)`;
    const what = added > 0 ? `${applied}, added ${added} additional field column(s)` : applied;
    io.out(`${withoutPassword(url)}: ${what} (${database.dialect})`);
    return 0;
  } finally {
    await database.close();
  }
}

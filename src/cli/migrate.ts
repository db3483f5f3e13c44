import { parseArgs } from "node:util";
import { readDatabaseUrl } from "../server/environment.js";
import { withoutPassword } from "../server/startup-summary.js";
import { migrateToLatest, type OpenedDatabase, openDatabase, pendingMigrations } from "../server/store/database.js";
import type { AppConfig } from "./config-module.js";
import { type CommandIO, processIO } from "./io.js";
import { configuredDatabase } from "./setup.js";

/**
 * `gatehouse migrate`: applies pending migrations to the app's database (its configuration module's),
 * else DATABASE_URL; running it again does nothing.
 */
export async function migrate(
  args: string[],
  io: CommandIO = processIO,
  app: AppConfig | null = null,
): Promise<number> {
  parseArgs({ args, options: {}, strict: true });
  const { database, shown }: { database: OpenedDatabase; shown: string } = app
    ? configuredDatabase(app)
    : openFromUrl(readDatabaseUrl(io.env));
  try {
    const pending = await pendingMigrations(database.db, database.dialect);
    await migrateToLatest(database.db, database.dialect);
    const what = pending.length === 0 ? "already up to date" : `applied ${pending.length} migration(s)`;
    io.out(`${shown}: ${what} (${database.dialect})`);
    return 0;
  } finally {
    await database.close();
  }
}

function openFromUrl(url: string): { database: OpenedDatabase; shown: string } {
  return { database: openDatabase(url), shown: withoutPassword(url) };
}

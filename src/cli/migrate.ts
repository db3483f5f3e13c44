import { parseArgs } from "node:util";
import { readDatabaseUrl, readOptionsFile } from "../server/environment.js";
import { type AuthOptionsInput, resolveOptions } from "../server/options.js";
import { withoutPassword } from "../server/startup-summary.js";
import { ensureAdditionalColumns, resolveAdditionalFields } from "../server/store/additional-fields.js";
import { migrateToLatest, type OpenedDatabase, openDatabase, pendingMigrations } from "../server/store/database.js";
import type { AppConfig } from "./config-module.js";
import { type CommandIO, processIO } from "./io.js";
import { configuredDatabase } from "./setup.js";

/**
 * `gatehouse migrate`: applies pending migrations to the app's database (its configuration module's),
 * else DATABASE_URL, then adds the columns of the additional fields its options name; running it
 * again does nothing.
 */
export async function migrate(
  args: string[],
  io: CommandIO = processIO,
  app: AppConfig | null = null,
): Promise<number> {
  parseArgs({ args, options: {}, strict: true });
  // The module's options, else the AUTH_CONFIG file's; only their fields matter here.
  const source = app ? app.path : io.env.AUTH_CONFIG;
  const options: AuthOptionsInput | null = app
    ? (app.input.options ?? {})
    : io.env.AUTH_CONFIG
      ? (readOptionsFile(io.env.AUTH_CONFIG) as AuthOptionsInput)
      : null;
  const fields = options
    ? resolveAdditionalFields(resolveOptions(options, { baseURL: "http://localhost", source }))
    : null;
  const { database, shown }: { database: OpenedDatabase; shown: string } = app
    ? configuredDatabase(app)
    : openFromUrl(readDatabaseUrl(io.env));
  try {
    const pending = await pendingMigrations(database.db, database.dialect);
    await migrateToLatest(database.db, database.dialect);
    const added = fields ? await ensureAdditionalColumns(database.db, database.dialect, fields) : 0;
    const applied = pending.length === 0 ? "already up to date" : `applied ${pending.length} migration(s)`;
    const what = added > 0 ? `${applied}, added ${added} additional field column(s)` : applied;
    io.out(`${shown}: ${what} (${database.dialect})`);
    return 0;
  } finally {
    await database.close();
  }
}

function openFromUrl(url: string): { database: OpenedDatabase; shown: string } {
  return { database: openDatabase(url), shown: withoutPassword(url) };
}

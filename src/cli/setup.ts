import { ConfigError } from "../server/options.js";
import { withoutPassword } from "../server/startup-summary.js";
import { type OpenedDatabase, openDatabase, parseDatabaseUrl } from "../server/store/database.js";
import type { AppConfig } from "./config-module.js";

/** The configuration module's database, opened (a URL) or as the module opened it, and how to name it. */
export function configuredDatabase(app: AppConfig): { database: OpenedDatabase; shown: string } {
  const { database } = app.input;
  if (typeof database === "string") {
    try {
      parseDatabaseUrl(database);
    } catch (error) {
      throw new ConfigError(`${app.path}: database: ${(error as Error).message}`);
    }
    return { database: openDatabase(database), shown: withoutPassword(database) };
  }
  if (typeof database?.db !== "object") {
    throw new ConfigError(`${app.path}: database is required (a URL such as postgres://..., or an opened database)`);
  }
  return { database, shown: `the database ${app.path} opens` };
}

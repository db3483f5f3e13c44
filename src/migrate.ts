import { readEnvironment } from "./server/environment.js";
import { migrateToLatest, openDatabase } from "./server/store/database.js";

/** `npm run migrate`: applies pending migrations to DATABASE_URL and exits. */
const env = readEnvironment();
const database = openDatabase(env.databaseUrl);
try {
  await migrateToLatest(database.db, database.dialect);
  console.log(`migrations applied (${database.dialect})`);
} finally {
  await database.close();
}

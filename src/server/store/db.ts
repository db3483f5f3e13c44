import type { Kysely } from "kysely";
import type { Database } from "./schema.js";

/**
 * The database handle every store function takes first (a pool or a transaction). Its own module so
 * that store files need not import database.ts, which opens connections and imports them back.
 */
export type DB = Kysely<Database>;

import type { AutocannonRequest } from "autocannon";
import type { DatabaseKind } from "../lib/databases.js";

/** What a scenario's setup gets: the freshly started service, already answering, and its database. */
export interface SetupTarget {
  /** `http://127.0.0.1:<port>`: the service's public origin (send it as Origin on POSTs). */
  origin: string;
  /** Where the API answers, `/api/auth`. */
  basePath: string;
  /** How many users to seed (BENCH_USERS, default 100). */
  users: number;
  /** The service's DATABASE_URL, for seeding in bulk with SQL (bench/lib/direct.ts). */
  databaseUrl: string;
  database: DatabaseKind;
}

/**
 * One measured load. Each scenario runs on its own fresh service and database: `options` (CONFIG.md
 * JSON) are merged over the bench's base options, `setup` seeds and returns the requests autocannon
 * sends (each connection cycles through them in order).
 */
export interface Scenario {
  name: string;
  /** One line for the table and README: what the load is. */
  description: string;
  options?: Record<string, unknown>;
  /** Environment variables for its services (the seeding one and the measured one alike). */
  env?: Record<string, string>;
  /**
   * A read route bench/floor-server.ts answers too: on SQLite the floor is started on the database this
   * scenario seeded and measured as `floor:<name>` with the same requests; the target is 0.5x of it.
   */
  floor?: boolean;
  /** Only run when BENCH_ONLY names it (it takes long to seed). */
  optIn?: boolean;
  setup(target: SetupTarget): Promise<AutocannonRequest[]>;
}

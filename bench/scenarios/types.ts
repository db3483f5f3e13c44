import type { AutocannonRequest } from "autocannon";

/** What a scenario's setup gets: the freshly started service, already answering. */
export interface SetupTarget {
  /** `http://127.0.0.1:<port>`: the service's public origin (send it as Origin on POSTs). */
  origin: string;
  /** Where the API answers, `/api/auth`. */
  basePath: string;
  /** How many users to seed (BENCH_USERS, default 50). */
  users: number;
}

/**
 * One measured load. Each scenario runs on its own fresh service and database: `options` (CONFIG.md
 * JSON) are merged over the bench's base options, `setup` seeds over HTTP and returns the requests
 * autocannon sends (each connection cycles through them in order).
 */
export interface Scenario {
  name: string;
  /** One line for the table and README: what the load is. */
  description: string;
  options?: Record<string, unknown>;
  /**
   * Who takes the load: the service (default), or the floor reference, started on the database the
   * service seeded once setup is done and the service is stopped.
   */
  server?: "service" | "floor";
  setup(target: SetupTarget): Promise<AutocannonRequest[]>;
}

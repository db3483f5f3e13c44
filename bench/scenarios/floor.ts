import { getSessionRequests } from "./get-session.js";
import type { Scenario } from "./types.js";

/**
 * The reference get-session's ratios are measured against: bench/floor-server.ts (bare node:http, the
 * same signed cookie, one prepared SQLite join) on the sessions the service seeded.
 */
export const floor: Scenario = {
  name: "floor",
  description: "floor reference: node:http + unsignValue + one prepared better-sqlite3 join",
  options: { session: { cookieCache: { enabled: false } } },
  server: "floor",
  setup: (target) => getSessionRequests(target, "floor"),
};

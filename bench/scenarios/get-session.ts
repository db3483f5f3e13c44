import type { AutocannonRequest } from "autocannon";
import { seedUsers } from "../lib/seed.js";
import type { Scenario, SetupTarget } from "./types.js";

/** One GET per seeded user, each with that user's cookies; connections cycle through them. */
export function getRequests(target: SetupTarget, path: string, cookies: string[]): AutocannonRequest[] {
  return cookies.map((cookie) => ({ method: "GET", path: `${target.basePath}${path}`, headers: { cookie } }));
}

/** One GET /get-session per seeded user. */
export async function getSessionRequests(target: SetupTarget, prefix: string): Promise<AutocannonRequest[]> {
  const users = await seedUsers(target.origin, target.users, prefix);
  return getRequests(
    target,
    "/get-session",
    users.map((u) => u.cookie),
  );
}

export const getSession: Scenario = {
  name: "get-session",
  description: "GET /get-session, cookie cache off: verify cookie, one session+user join",
  options: { session: { cookieCache: { enabled: false } } },
  floor: true,
  setup: (target) => getSessionRequests(target, "get-session"),
};

export const getSessionCached: Scenario = {
  name: "get-session-cached",
  description: "GET /get-session, cookie cache on (fresh session_data cookie): no database",
  options: { session: { cookieCache: { enabled: true } } },
  setup: (target) => getSessionRequests(target, "get-session-cached"),
};

/** get-session with Prometheus metrics on (options.metrics), against get-session in the same rounds: their cost. */
export const getSessionMetrics: Scenario = {
  name: "get-session-metrics",
  description: "GET /get-session as get-session, with metrics on (per-route counter and histogram)",
  options: { session: { cookieCache: { enabled: false } }, metrics: { enabled: true } },
  optIn: true,
  setup: (target) => getSessionRequests(target, "get-session-metrics"),
};

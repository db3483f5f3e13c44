import type { AutocannonRequest } from "autocannon";
import { seedUsers } from "../lib/seed.js";
import type { Scenario, SetupTarget } from "./types.js";

/** One GET /get-session per seeded user, each with that user's cookies; connections cycle through them. */
export async function getSessionRequests(target: SetupTarget, prefix: string): Promise<AutocannonRequest[]> {
  const users = await seedUsers(target.origin, target.users, prefix);
  return users.map((user) => ({
    method: "GET",
    path: `${target.basePath}/get-session`,
    headers: { cookie: user.cookie },
  }));
}

export const getSession: Scenario = {
  name: "get-session",
  description: "GET /get-session, cookie cache off: verify cookie, one session+user join",
  options: { session: { cookieCache: { enabled: false } } },
  setup: (target) => getSessionRequests(target, "get-session"),
};

export const getSessionCached: Scenario = {
  name: "get-session-cached",
  description: "GET /get-session, cookie cache on (fresh session_data cookie): no database",
  options: { session: { cookieCache: { enabled: true } } },
  setup: (target) => getSessionRequests(target, "get-session-cached"),
};

import { inParallel, seedUsers, signIn } from "../lib/seed.js";
import { getRequests } from "./get-session.js";
import type { Scenario } from "./types.js";

/** Sessions each user holds, so the list has a few rows to read and shape. */
const SESSIONS_PER_USER = 5;

export const listSessions: Scenario = {
  name: "list-sessions",
  description: `GET /list-sessions, ${SESSIONS_PER_USER} sessions per user`,
  options: { session: { cookieCache: { enabled: false } } },
  floor: true,
  setup: async (target) => {
    // Fewer users here: every extra session is a password check.
    const users = await seedUsers(target.origin, Math.max(1, Math.ceil(target.users / 5)), "list-sessions");
    await inParallel(users.length * (SESSIONS_PER_USER - 1), 4, (i) =>
      signIn(target.origin, users[i % users.length]!.email),
    );
    return getRequests(
      target,
      "/list-sessions",
      users.map((u) => u.cookie),
    );
  },
};

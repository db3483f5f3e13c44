import { seedUsers } from "../lib/seed.js";
import { getSessionRequests } from "./get-session.js";
import type { Scenario } from "./types.js";

/** A write route: each request renames the caller (one user row update, `user.updated`). */
export const updateUser: Scenario = {
  name: "update-user",
  description: "POST /update-user (the caller's name), one row update each",
  optIn: true,
  setup: async (target) => {
    const users = await seedUsers(target.origin, target.users, "update-user");
    return users.map((user, index) => ({
      method: "POST",
      path: `${target.basePath}/update-user`,
      headers: { "content-type": "application/json", origin: target.origin, cookie: user.cookie },
      body: JSON.stringify({ name: `Renamed ${index}` }),
    }));
  },
};

/**
 * The same with the audit trail on: BENCH_ONLY=update-user,update-user-audited runs both in the same
 * rounds, so their ratio is what auditing costs a write (the entry in the change's transaction).
 */
export const updateUserAudited: Scenario = {
  ...updateUser,
  name: "update-user-audited",
  description: "POST /update-user as update-user, audit trail on",
  options: { audit: { enabled: true } },
};

/** A read with the audit trail on: reads write no entry, so this should match get-session. */
export const getSessionAudited: Scenario = {
  name: "get-session-audited",
  description: "GET /get-session as get-session, audit trail on",
  options: { session: { cookieCache: { enabled: false } }, audit: { enabled: true } },
  optIn: true,
  setup: (target) => getSessionRequests(target, "get-session-audited"),
};

import { seedUsers } from "../lib/seed.js";
import { getRequests } from "./get-session.js";
import type { Scenario } from "./types.js";

export const listAccounts: Scenario = {
  name: "list-accounts",
  description: "GET /list-accounts: the caller's one credential account",
  options: { session: { cookieCache: { enabled: false } } },
  floor: true,
  setup: async (target) => {
    const users = await seedUsers(target.origin, target.users, "list-accounts");
    return getRequests(
      target,
      "/list-accounts",
      users.map((u) => u.cookie),
    );
  },
};

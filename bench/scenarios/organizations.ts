import { insertFillerUsers, insertOrganizations, setActiveOrganization, userIds, withDatabase } from "../lib/direct.js";
import { seedUsers } from "../lib/seed.js";
import { getRequests } from "./get-session.js";
import type { Scenario } from "./types.js";

/** Organizations each user belongs to in organization/list. */
const ORGANIZATIONS_PER_USER = 3;
/** Members of each organization in list-members. */
const ORGANIZATION_SIZE = 50;
const options = { session: { cookieCache: { enabled: false } } };

export const listOrganizations: Scenario = {
  name: "organization-list",
  description: `GET /organization/list, ${ORGANIZATIONS_PER_USER} organizations per user`,
  options,
  floor: true,
  setup: async (target) => {
    const users = await seedUsers(target.origin, target.users, "organization-list");
    await withDatabase(target.databaseUrl, async (db) => {
      const ids = await userIds(db, users);
      await insertOrganizations(
        db,
        ids.flatMap((id) => Array.from({ length: ORGANIZATIONS_PER_USER }, () => [id])),
        "organization-list",
      );
    });
    return getRequests(
      target,
      "/organization/list",
      users.map((u) => u.cookie),
    );
  },
};

export const getActiveMember: Scenario = {
  name: "get-active-member",
  description: "GET /organization/get-active-member: the caller's membership in the active organization",
  options,
  floor: true,
  setup: async (target) => {
    const users = await seedUsers(target.origin, target.users, "get-active-member");
    await withDatabase(target.databaseUrl, async (db) => {
      const ids = await userIds(db, users);
      const organizations = await insertOrganizations(
        db,
        ids.map((id) => [id]),
        "get-active-member",
      );
      for (const [i, id] of ids.entries()) await setActiveOrganization(db, id, organizations[i]!);
    });
    return getRequests(
      target,
      "/organization/get-active-member",
      users.map((u) => u.cookie),
    );
  },
};

export const listMembers: Scenario = {
  name: "list-members",
  description: `GET /organization/list-members of the active organization, ${ORGANIZATION_SIZE} members`,
  options,
  floor: true,
  setup: async (target) => {
    const users = await seedUsers(target.origin, target.users, "list-members");
    await withDatabase(target.databaseUrl, async (db) => {
      const ids = await userIds(db, users);
      const groups = Math.ceil(ids.length / ORGANIZATION_SIZE);
      const filler = await insertFillerUsers(db, groups * ORGANIZATION_SIZE - ids.length, "list-members");
      const all = [...ids, ...filler];
      const members = Array.from({ length: groups }, (_, g) =>
        all.slice(g * ORGANIZATION_SIZE, (g + 1) * ORGANIZATION_SIZE),
      );
      const organizations = await insertOrganizations(db, members, "list-members");
      for (const [i, id] of ids.entries())
        await setActiveOrganization(db, id, organizations[Math.floor(i / ORGANIZATION_SIZE)]!);
    });
    return getRequests(
      target,
      "/organization/list-members",
      users.map((u) => u.cookie),
    );
  },
};

import type { Hono } from "hono";
import {
  createTeamBody,
  listTeamMembersQuery,
  listUserTeamsQuery,
  organizationIdQuery,
  setActiveTeamBody,
  teamIdBody,
  teamMemberBody,
  updateTeamBody,
} from "../../contract/organization.js";
import { applyActiveChange } from "../http/active-organization.js";
import type { AuthEnv } from "../http/env.js";
import { readBody, readQuery } from "../http/input.js";
import { requireSession } from "../http/session.js";
import {
  addTeamMember,
  createTeam,
  listTeamMembers,
  listTeams,
  listUserTeams,
  removeTeam,
  removeTeamMember,
  setActiveTeam,
  updateTeam,
} from "../services/teams.js";

/** Teams inside an organization (registered when organization.teams.enabled). */
export function teamRoutes(app: Hono<AuthEnv>): void {
  app.post("/organization/create-team", async (c) => {
    const body = readBody(c, createTeamBody);
    const { session } = await requireSession(c);
    return c.json(await createTeam(c.get("auth"), session, body));
  });

  app.post("/organization/update-team", async (c) => {
    const body = readBody(c, updateTeamBody);
    const { session } = await requireSession(c);
    return c.json(await updateTeam(c.get("auth"), session, body));
  });

  app.post("/organization/remove-team", async (c) => {
    const body = readBody(c, teamIdBody);
    const { session } = await requireSession(c);
    await removeTeam(c.get("auth"), session, body);
    return c.json({ message: "Team removed successfully." });
  });

  app.get("/organization/list-teams", async (c) => {
    const { organizationId } = readQuery(c, organizationIdQuery);
    const { session } = await requireSession(c);
    return c.json(await listTeams(c.get("auth"), session, organizationId));
  });

  app.post("/organization/set-active-team", async (c) => {
    const { teamId } = readBody(c, setActiveTeamBody);
    const data = await requireSession(c);
    const result = await setActiveTeam(c.get("auth"), data.session, teamId);
    applyActiveChange(c, data, result.active);
    return c.json(result.team);
  });

  app.get("/organization/list-user-teams", async (c) => {
    const query = readQuery(c, listUserTeamsQuery);
    const { session } = await requireSession(c);
    return c.json(await listUserTeams(c.get("auth"), session, query));
  });

  app.get("/organization/list-team-members", async (c) => {
    const { teamId } = readQuery(c, listTeamMembersQuery);
    const { session } = await requireSession(c);
    return c.json(await listTeamMembers(c.get("auth"), session, teamId));
  });

  app.post("/organization/add-team-member", async (c) => {
    const body = readBody(c, teamMemberBody);
    const { session } = await requireSession(c);
    return c.json(await addTeamMember(c.get("auth"), session, body));
  });

  app.post("/organization/remove-team-member", async (c) => {
    const body = readBody(c, teamMemberBody);
    const { session } = await requireSession(c);
    await removeTeamMember(c.get("auth"), session, body);
    return c.json({ message: "Team member removed successfully." });
  });
}

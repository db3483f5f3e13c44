import { teamEndpoints } from "../../contract/endpoints/index.js";
import { applyActiveChange } from "../http/active-organization.js";
import type { Route } from "../http/route.js";
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
  updateTeamMemberRole,
} from "../services/teams.js";

/** Teams inside an organization (registered when organization.teams.enabled). */
export function teamRoutes(route: Route): void {
  route(teamEndpoints.createTeam, async (c, { body, caller: { session } }) => {
    return createTeam(c.get("auth"), session, body);
  });

  route(teamEndpoints.updateTeam, async (c, { body, caller: { session } }) => {
    return updateTeam(c.get("auth"), session, body);
  });

  route(teamEndpoints.removeTeam, async (c, { body, caller: { session } }) => {
    await removeTeam(c.get("auth"), session, body);
    return { message: "Team removed successfully." };
  });

  route(teamEndpoints.listTeams, async (c, { query: { organizationId }, caller: { session } }) => {
    return listTeams(c.get("auth"), session, organizationId);
  });

  route(teamEndpoints.setActiveTeam, async (c, { body: { teamId }, caller }) => {
    const result = await setActiveTeam(c.get("auth"), caller.session, teamId);
    applyActiveChange(c, caller, result.active);
    return result.team;
  });

  route(teamEndpoints.listUserTeams, async (c, { query, caller: { session } }) => {
    return listUserTeams(c.get("auth"), session, query);
  });

  route(teamEndpoints.listTeamMembers, async (c, { query: { teamId }, caller: { session } }) => {
    return listTeamMembers(c.get("auth"), session, teamId);
  });

  route(teamEndpoints.addTeamMember, async (c, { body, caller: { session } }) => {
    return addTeamMember(c.get("auth"), session, body);
  });

  route(teamEndpoints.removeTeamMember, async (c, { body, caller: { session } }) => {
    await removeTeamMember(c.get("auth"), session, body);
    return { message: "Team member removed successfully." };
  });

  route(teamEndpoints.updateTeamMemberRole, async (c, { body, caller: { session } }) => {
    return updateTeamMemberRole(c.get("auth"), session, body);
  });
}

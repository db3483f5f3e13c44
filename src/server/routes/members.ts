import { organizationEndpoints } from "../../contract/endpoints/index.js";
import { applyActiveChange } from "../http/active-organization.js";
import type { Route } from "../http/route.js";
import { keyHasPermission } from "../services/api-keys.js";
import {
  activeMember,
  activeMemberRead,
  getActiveMemberRole,
  hasPermission,
  leaveOrganization,
  listMembers,
  membersPageRead,
  removeMember,
  updateMemberRole,
} from "../services/members.js";
import { transferOwnership } from "../services/ownership.js";

/** Members, roles and permission checks. add-member is server-side only (auth.api.addMember). */
export function memberRoutes(route: Route): void {
  route(organizationEndpoints.removeMember, async (c, { body, caller }) => {
    const result = await removeMember(c.get("auth"), caller.session, body);
    applyActiveChange(c, caller, result.active);
    return { member: result.member };
  });

  route(organizationEndpoints.updateMemberRole, async (c, { body, caller: { session } }) => {
    return updateMemberRole(c.get("auth"), session, body);
  });

  route(organizationEndpoints.transferOwnership, async (c, { body, caller: { session } }) => {
    return transferOwnership(c.get("auth"), session, body);
  });

  route(
    organizationEndpoints.getActiveMember,
    (_c, { query, caller, rows, standing }) => {
      const member = activeMember(caller.session, query.organizationId, rows);
      // Ours: how the caller's session stands with the organization's policy, when it has one.
      return standing && standing.organizationId === member.organizationId
        ? { ...member, organizationPolicy: standing.state }
        : member;
    },
    { reads: activeMemberRead },
  );

  route(organizationEndpoints.getActiveMemberRole, async (c, { query, caller: { session } }) => {
    return getActiveMemberRole(c.get("auth"), session, query);
  });

  route(
    organizationEndpoints.listMembers,
    (c, { query, caller, rows }) => listMembers(c.get("auth"), caller.session, query, rows),
    { reads: membersPageRead },
  );

  route(organizationEndpoints.leaveOrganization, async (c, { body: { organizationId }, caller }) => {
    const result = await leaveOrganization(c.get("auth"), caller.session, organizationId);
    applyActiveChange(c, caller, result.active);
    return result.member;
  });

  route(organizationEndpoints.hasPermission, async (c, { body, caller: { session } }) => {
    // The legacy `permission` key is read as `permissions` (the reference ignores it and answers false).
    const permissions = body.permissions ?? body.permission ?? {};
    const asked = { organizationId: body.organizationId, teamId: body.teamId, permissions };
    const key = c.get("apiKey");
    const success = key
      ? await keyHasPermission(c.get("auth"), key, asked)
      : await hasPermission(c.get("auth"), session, asked);
    return { error: null, success };
  });
}

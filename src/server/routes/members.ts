import { organizationEndpoints } from "../../contract/endpoints/index.js";
import { applyActiveChange } from "../http/active-organization.js";
import type { Route } from "../http/route.js";
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
  route(organizationEndpoints.removeMember, async (c, { body, session: data }) => {
    const result = await removeMember(c.get("auth"), data.session, body);
    applyActiveChange(c, data, result.active);
    return { member: result.member };
  });

  route(organizationEndpoints.updateMemberRole, async (c, { body, session: { session } }) => {
    return updateMemberRole(c.get("auth"), session, body);
  });

  route(organizationEndpoints.transferOwnership, async (c, { body, session: { session } }) => {
    return transferOwnership(c.get("auth"), session, body);
  });

  route(
    organizationEndpoints.getActiveMember,
    (_c, { query, session: caller, rows }) => activeMember(caller.session, query.organizationId, rows),
    { reads: activeMemberRead },
  );

  route(organizationEndpoints.getActiveMemberRole, async (c, { query, session: { session } }) => {
    return getActiveMemberRole(c.get("auth"), session, query);
  });

  route(
    organizationEndpoints.listMembers,
    (c, { query, session: caller, rows }) => listMembers(c.get("auth"), caller.session, query, rows),
    { reads: membersPageRead },
  );

  route(organizationEndpoints.leaveOrganization, async (c, { body: { organizationId }, session: data }) => {
    const result = await leaveOrganization(c.get("auth"), data.session, organizationId);
    applyActiveChange(c, data, result.active);
    return result.member;
  });

  route(organizationEndpoints.hasPermission, async (c, { body, session: { session } }) => {
    // The legacy `permission` key is read as `permissions` (the reference ignores it and answers false).
    const permissions = body.permissions ?? body.permission ?? {};
    const success = await hasPermission(c.get("auth"), session, { organizationId: body.organizationId, permissions });
    return { error: null, success };
  });
}

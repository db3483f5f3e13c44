import { organizationEndpoints } from "../../contract/endpoints/index.js";
import { applyActiveChange } from "../http/active-organization.js";
import { JsonReply, type Route } from "../http/route.js";
import {
  activeMemberFrom,
  getActiveMember,
  getActiveMemberRole,
  hasPermission,
  leaveOrganization,
  listMembers,
  membersFrom,
  readActiveMemberWithCaller,
  readMembersWithCaller,
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
    async (c, { query: { organizationId }, session: { session } }) =>
      getActiveMember(c.get("auth"), session, organizationId),
    {
      joined: {
        read: readActiveMemberWithCaller,
        answer: (_c, { query, session: { session } }, rows) => activeMemberFrom(session, query.organizationId, rows),
      },
    },
  );

  route(organizationEndpoints.getActiveMemberRole, async (c, { query, session: { session } }) => {
    return getActiveMemberRole(c.get("auth"), session, query);
  });

  route(
    organizationEndpoints.listMembers,
    async (c, { query, session: { session } }) => listMembers(c.get("auth"), session, query),
    {
      joined: {
        read: readMembersWithCaller,
        answer: (_c, { query, session: { session } }, rows) => new JsonReply(membersFrom(session, query, rows)),
      },
    },
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

import type { Hono } from "hono";
import {
  activeMemberRoleQuery,
  hasPermissionBody,
  listMembersQuery,
  organizationIdBody,
  organizationIdQuery,
  removeMemberBody,
  updateMemberRoleBody,
} from "../../contract/organization.js";
import { applyActiveChange } from "../http/active-organization.js";
import type { AuthEnv } from "../http/env.js";
import { readBody, readQuery } from "../http/input.js";
import { requireSession } from "../http/session.js";
import {
  getActiveMember,
  getActiveMemberRole,
  hasPermission,
  leaveOrganization,
  listMembers,
  removeMember,
  updateMemberRole,
} from "../services/members.js";

/** Members, roles and permission checks. add-member is server-side only (auth.api.addMember). */
export function memberRoutes(app: Hono<AuthEnv>): void {
  app.post("/organization/remove-member", async (c) => {
    const body = readBody(c, removeMemberBody);
    const data = await requireSession(c);
    const result = await removeMember(c.get("auth"), data.session, body);
    applyActiveChange(c, data, result.active);
    return c.json({ member: result.member });
  });

  app.post("/organization/update-member-role", async (c) => {
    const body = readBody(c, updateMemberRoleBody);
    const { session } = await requireSession(c);
    return c.json(await updateMemberRole(c.get("auth"), session, body));
  });

  app.get("/organization/get-active-member", async (c) => {
    const { organizationId } = readQuery(c, organizationIdQuery);
    const { session } = await requireSession(c);
    return c.json(await getActiveMember(c.get("auth"), session, organizationId));
  });

  app.get("/organization/get-active-member-role", async (c) => {
    const query = readQuery(c, activeMemberRoleQuery);
    const { session } = await requireSession(c);
    return c.json(await getActiveMemberRole(c.get("auth"), session, query));
  });

  app.get("/organization/list-members", async (c) => {
    const query = readQuery(c, listMembersQuery);
    const { session } = await requireSession(c);
    return c.json(await listMembers(c.get("auth"), session, query));
  });

  app.post("/organization/leave", async (c) => {
    const { organizationId } = readBody(c, organizationIdBody);
    const data = await requireSession(c);
    const result = await leaveOrganization(c.get("auth"), data.session, organizationId);
    applyActiveChange(c, data, result.active);
    return c.json(result.member);
  });

  app.post("/organization/has-permission", async (c) => {
    const body = readBody(c, hasPermissionBody);
    const { session } = await requireSession(c);
    // The legacy `permission` key is read as `permissions` (the reference ignores it and answers false).
    const permissions = body.permissions ?? body.permission ?? {};
    const success = await hasPermission(c.get("auth"), session, { organizationId: body.organizationId, permissions });
    return c.json({ error: null, success });
  });
}

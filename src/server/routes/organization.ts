import { organizationEndpoints } from "../../contract/endpoints/index.js";
import { applyActiveChange } from "../http/active-organization.js";
import type { Route } from "../http/route.js";
import { fieldSource } from "../http/server-call.js";
import { getPolicy, updatePolicy } from "../services/organization-policy.js";
import {
  callerOrganizationsRead,
  checkSlug,
  createOrganization,
  deleteOrganization,
  getFullOrganization,
  getOrganization,
  setActiveOrganization,
  updateOrganization,
} from "../services/organizations.js";

/** Organization lifecycle and the session's active organization (WIRE 8.2). */
export function organizationRoutes(route: Route): void {
  route(organizationEndpoints.createOrganization, async (c, { body, caller }) => {
    const result = await createOrganization(c.get("auth"), caller.session, {
      ...body,
      additional: { from: c.get("body"), source: fieldSource(c) },
    });
    applyActiveChange(c, caller, result.active);
    return result.organization;
  });

  route(organizationEndpoints.checkSlug, async (c, { body: { slug } }) => {
    await checkSlug(c.get("auth"), slug);
    return { status: true };
  });

  route(organizationEndpoints.updateOrganization, async (c, { body, caller: { session } }) => {
    const raw = (c.get("body") as { data?: unknown }).data;
    return updateOrganization(c.get("auth"), session, body, { from: raw, source: fieldSource(c) });
  });

  route(organizationEndpoints.deleteOrganization, async (c, { body: { organizationId }, caller }) => {
    const result = await deleteOrganization(c.get("auth"), caller.session, organizationId);
    applyActiveChange(c, caller, result.active);
    return result.organization;
  });

  route(organizationEndpoints.listOrganizations, (_c, { rows }) => rows, { reads: callerOrganizationsRead });

  route(organizationEndpoints.setActiveOrganization, async (c, { body, caller }) => {
    const result = await setActiveOrganization(c.get("auth"), caller, body);
    applyActiveChange(c, caller, result.active);
    return result.organization;
  });

  route(organizationEndpoints.getOrganization, async (c, { query, caller: { session } }) => {
    return getOrganization(c.get("auth"), session, query);
  });

  route(organizationEndpoints.getFullOrganization, async (c, { query, caller: { session } }) => {
    return getFullOrganization(c.get("auth"), session, query);
  });

  // Organization policy (ours; docs/organization-policy.md).
  route(organizationEndpoints.getPolicy, async (c, { query, caller }) => getPolicy(c.get("auth"), caller, query));

  route(organizationEndpoints.updatePolicy, async (c, { body, caller }) => updatePolicy(c.get("auth"), caller, body));
}

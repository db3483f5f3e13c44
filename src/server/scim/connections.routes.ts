import { scimEndpoints } from "../../contract/endpoints/index.js";
import type { Route } from "../http/route.js";
import {
  deleteScimConnectionOf,
  generateScimToken,
  getScimConnection,
  listProvisionedUsers,
  listScimConnections,
  updateScimConnection,
} from "./connections.service.js";
import { listGroupMappings, updateGroupMapping } from "./groups.service.js";
import { scimHealthForOwner } from "./health.service.js";

/** An organization's SCIM connections (registered when scim.enabled); the protocol is scim/protocol.routes.ts. */
export function scimRoutes(route: Route): void {
  route(scimEndpoints.generateSCIMToken, async (c, { body, caller: { session } }) => {
    // 201, as better-auth answers: a connection (or a new token for it) was created.
    return c.json(await generateScimToken(c.get("auth"), session, body), 201);
  });

  route(scimEndpoints.listSCIMProviderConnections, async (c, { caller: { session } }) => {
    return { providers: await listScimConnections(c.get("auth"), session) };
  });

  route(scimEndpoints.getSCIMProviderConnection, async (c, { query, caller: { session } }) => {
    return getScimConnection(c.get("auth"), session, query.providerId);
  });

  route(scimEndpoints.updateSCIMProviderConnection, async (c, { body, caller: { session } }) => {
    return updateScimConnection(c.get("auth"), session, body);
  });

  route(scimEndpoints.deleteSCIMProviderConnection, async (c, { body, caller: { session } }) => {
    await deleteScimConnectionOf(c.get("auth"), session, body.providerId);
    return { success: true };
  });

  route(scimEndpoints.getSCIMConnectionHealth, (c, { query, caller: { session } }) =>
    scimHealthForOwner(c.get("auth"), session, query.providerId),
  );

  route(scimEndpoints.listSCIMUsers, async (c, { query, caller: { session } }) => {
    return listProvisionedUsers(c.get("auth"), session, query);
  });

  route(scimEndpoints.listSCIMGroups, async (c, { query, caller: { session } }) => {
    return { groups: await listGroupMappings(c.get("auth"), session, query.providerId) };
  });

  route(scimEndpoints.updateSCIMGroupMapping, async (c, { body, caller: { session } }) => {
    return updateGroupMapping(c.get("auth"), session, body);
  });
}

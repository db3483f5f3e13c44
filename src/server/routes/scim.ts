import { scimEndpoints } from "../../contract/endpoints/index.js";
import type { Route } from "../http/route.js";
import {
  deleteScimConnectionOf,
  generateScimToken,
  getScimConnection,
  listProvisionedUsers,
  listScimConnections,
  updateScimConnection,
} from "../services/scim-connections.js";
import { listGroupMappings, updateGroupMapping } from "../services/scim-groups.js";
import { scimHealthForOwner } from "../services/scim-health.js";

/** An organization's SCIM connections (registered when scim.enabled); the protocol is routes/scim-protocol.ts. */
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

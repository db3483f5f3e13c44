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
import { scimConnectionHealth } from "./health.service.js";

/** An organization's SCIM connections (registered when scim.enabled); the protocol is scim/protocol.routes.ts. */
export function scimRoutes(route: Route): void {
  route(scimEndpoints.generateSCIMToken, async (c, { body, caller }) => {
    // 201, as better-auth answers: a connection (or a new token for it) was created.
    return c.json(await generateScimToken(c.get("auth"), caller, body), 201);
  });

  route(scimEndpoints.listSCIMProviderConnections, async (c, { caller }) => {
    return { providers: await listScimConnections(c.get("auth"), caller) };
  });

  route(scimEndpoints.getSCIMProviderConnection, async (c, { query, caller }) => {
    return getScimConnection(c.get("auth"), caller, query.providerId);
  });

  route(scimEndpoints.updateSCIMProviderConnection, async (c, { body, caller }) => {
    return updateScimConnection(c.get("auth"), caller, body);
  });

  route(scimEndpoints.deleteSCIMProviderConnection, async (c, { body, caller }) => {
    await deleteScimConnectionOf(c.get("auth"), caller, body.providerId);
    return { success: true };
  });

  route(scimEndpoints.getSCIMConnectionHealth, (c, { query, caller }) =>
    scimConnectionHealth(c.get("auth"), caller, query.providerId),
  );

  route(scimEndpoints.listSCIMUsers, async (c, { query, caller }) => {
    return listProvisionedUsers(c.get("auth"), caller, query);
  });

  route(scimEndpoints.listSCIMGroups, async (c, { query, caller }) => {
    return { groups: await listGroupMappings(c.get("auth"), caller, query.providerId) };
  });

  route(scimEndpoints.updateSCIMGroupMapping, async (c, { body, caller }) => {
    return updateGroupMapping(c.get("auth"), caller, body);
  });
}

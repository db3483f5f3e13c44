import type { Context } from "hono";
import { scimProtocolEndpoints as scim } from "../../contract/endpoints/index.js";
import type { AuthContext } from "../context.js";
import type { AuthEnv } from "../http/env.js";
import type { Route } from "../http/route.js";
import { ScimError } from "./errors.js";
import { GROUP_SCHEMA } from "./group-input.js";
import { createGroup, deleteGroup, getGroup, listGroups, patchGroup, replaceGroup } from "./groups.service.js";
import { scimJson } from "./protocol.http.js";
import {
  groupResource,
  groupResourceType,
  groupSchema,
  listResponse,
  serviceProviderConfig,
  userResource,
  userResourceType,
  userSchema,
} from "./resources.service.js";
import { USER_SCHEMA } from "./user-input.js";
import { createUser, deleteUser, getUser, listUsers, patchUser, replaceUser } from "./users.service.js";

/**
 * The SCIM 2.0 protocol (RFC 7644) an organization's directory calls, under <basePath>/scim/v2, on the
 * endpoint table like every route (its entries say `directory`: bearer token, SCIM media type, SCIM
 * errors; scim/protocol.http.ts). Routed only when scim.enabled.
 */
const idOf = (c: Context<AuthEnv>): string => c.req.param("id") ?? "";

/** Okta and Entra ID ask for groups without their members (excludedAttributes=members) when they only look one up. */
function withMembers(excludedAttributes: string | undefined): boolean {
  const excluded = (excludedAttributes ?? "").split(",").map((name) => name.trim().toLowerCase());
  return !excluded.includes("members");
}

export function scimProtocolRoutes(route: Route, ctx: AuthContext): void {
  const v2Url = `${ctx.baseURL}${ctx.basePath}/scim/v2`;
  const resourceTypes = [userResourceType(v2Url), groupResourceType(v2Url)];
  const schemas = [userSchema(v2Url), groupSchema(v2Url)];

  route(scim.getSCIMServiceProviderConfig, (c) => scimJson(c, serviceProviderConfig(v2Url)));
  route(scim.getSCIMResourceTypes, (c) => scimJson(c, listResponse(resourceTypes, 2, 1)));
  route(scim.getSCIMResourceType, (c) => {
    const type = resourceTypes.find((t) => t.id === idOf(c));
    if (!type) throw new ScimError(404, "Resource type not found");
    return scimJson(c, type);
  });
  route(scim.getSCIMSchemas, (c) => scimJson(c, listResponse(schemas, 2, 1)));
  route(scim.getSCIMSchema, (c) => {
    const schema = schemas.find((s) => s.id === idOf(c));
    if (!schema || (schema.id !== USER_SCHEMA && schema.id !== GROUP_SCHEMA)) {
      throw new ScimError(404, "Schema not found");
    }
    return scimJson(c, schema);
  });

  route(scim.getSCIMUsers, async (c, { query, caller: directory }) => {
    const page = await listUsers(c.get("auth"), directory, query);
    const resources = page.users.map((user) => userResource(v2Url, user));
    return scimJson(c, listResponse(resources, page.total, page.startIndex));
  });
  route(scim.createSCIMUser, async (c, { body, caller: directory }) => {
    const resource = userResource(v2Url, await createUser(c.get("auth"), directory, body));
    c.header("Location", resource.meta.location);
    return scimJson(c, resource, 201);
  });
  route(scim.getSCIMUser, async (c, { caller: directory }) =>
    scimJson(c, userResource(v2Url, await getUser(c.get("auth"), directory, idOf(c)))),
  );
  route(scim.updateSCIMUser, async (c, { body, caller: directory }) =>
    scimJson(c, userResource(v2Url, await replaceUser(c.get("auth"), directory, idOf(c), body))),
  );
  route(scim.patchSCIMUser, async (c, { body, caller: directory }) =>
    scimJson(c, userResource(v2Url, await patchUser(c.get("auth"), directory, idOf(c), body))),
  );
  route(scim.deleteSCIMUser, async (c, { caller: directory }) => {
    await deleteUser(c.get("auth"), directory, idOf(c));
    return c.body(null, 204);
  });

  route(scim.getSCIMGroups, async (c, { query, caller: directory }) => {
    const page = await listGroups(c.get("auth"), directory, {
      ...query,
      withMembers: withMembers(query.excludedAttributes),
    });
    const resources = page.groups.map((group) => groupResource(v2Url, group));
    return scimJson(c, listResponse(resources, page.total, page.startIndex));
  });
  route(scim.createSCIMGroup, async (c, { body, caller: directory }) => {
    const resource = groupResource(v2Url, await createGroup(c.get("auth"), directory, body));
    c.header("Location", resource.meta.location);
    return scimJson(c, resource, 201);
  });
  route(scim.getSCIMGroup, async (c, { query, caller: directory }) =>
    scimJson(
      c,
      groupResource(v2Url, await getGroup(c.get("auth"), directory, idOf(c), withMembers(query.excludedAttributes))),
    ),
  );
  route(scim.updateSCIMGroup, async (c, { body, caller: directory }) =>
    scimJson(c, groupResource(v2Url, await replaceGroup(c.get("auth"), directory, idOf(c), body))),
  );
  route(scim.patchSCIMGroup, async (c, { body, caller: directory }) =>
    scimJson(c, groupResource(v2Url, await patchGroup(c.get("auth"), directory, idOf(c), body))),
  );
  route(scim.deleteSCIMGroup, async (c, { caller: directory }) => {
    await deleteGroup(c.get("auth"), directory, idOf(c));
    return c.body(null, 204);
  });
}

import type { Context, Hono } from "hono";
import type { AuditAction } from "../../contract/audit.js";
import type { AuthContext } from "../context.js";
import { AuthError } from "../errors.js";
import { runDirectoryAudited } from "../http/audit.js";
import { MAX_BODY_BYTES, readLimited } from "../http/body.js";
import type { AuthEnv } from "../http/env.js";
import { startingRequest } from "../http/request-start.js";
import { authenticateScimToken, type ScimConnectionRow } from "../services/scim-connections.js";
import { invalidSyntax, ScimError } from "../services/scim-errors.js";
import { GROUP_SCHEMA } from "../services/scim-group-input.js";
import { createGroup, deleteGroup, getGroup, listGroups, patchGroup, replaceGroup } from "../services/scim-groups.js";
import {
  ERROR_SCHEMA,
  groupResource,
  groupResourceType,
  groupSchema,
  listResponse,
  serviceProviderConfig,
  userResource,
  userResourceType,
  userSchema,
} from "../services/scim-resources.js";
import { USER_SCHEMA } from "../services/scim-user-input.js";
import { createUser, deleteUser, getUser, listUsers, patchUser, replaceUser } from "../services/scim-users.js";

/**
 * The SCIM 2.0 protocol (RFC 7644) an organization's directory calls, under <basePath>/scim/v2. It
 * is not part of the auth API's endpoint table: it authenticates by bearer token rather than
 * session, answers `application/scim+json`, errors in SCIM's format, and uses PUT, PATCH and
 * DELETE (docs/wire-decisions.md). Registered only when scim.enabled.
 */
const SCIM_JSON = "application/scim+json";
const ACCEPTED_TYPES = new Set([SCIM_JSON, "application/json"]);

function scimJson(c: Context<AuthEnv>, body: unknown, status = 200): Response {
  return c.body(JSON.stringify(body), status as 200, { "Content-Type": SCIM_JSON });
}

function scimErrorResponse(c: Context<AuthEnv>, error: ScimError): Response {
  const body = {
    schemas: [ERROR_SCHEMA],
    status: String(error.status),
    ...(error.scimType ? { scimType: error.scimType } : {}),
    detail: error.message,
  };
  if (error.status === 401) c.header("WWW-Authenticate", 'Bearer realm="SCIM"');
  return scimJson(c, body, error.status);
}

/** The connection the Authorization header's bearer token belongs to, or a SCIM 401. */
async function connectionOf(c: Context<AuthEnv>): Promise<ScimConnectionRow> {
  const header = c.req.header("authorization") ?? "";
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const connection = match?.[1] ? await authenticateScimToken(c.get("auth"), match[1]) : null;
  if (!connection) throw new ScimError(401, "A valid SCIM bearer token is required");
  return connection;
}

/** The request's JSON body: SCIM's or plain JSON media type, within the body limit, an object. */
async function jsonBody(c: Context<AuthEnv>): Promise<unknown> {
  const type = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (!ACCEPTED_TYPES.has(type)) throw new ScimError(415, `The body must be ${SCIM_JSON} or application/json`);
  if (Number(c.req.header("content-length") ?? "0") > MAX_BODY_BYTES) throw new ScimError(413, "The body is too large");
  let raw: string;
  try {
    raw = await readLimited(c.req.raw);
  } catch (error) {
    if (error instanceof AuthError) throw new ScimError(413, "The body is too large");
    throw error;
  }
  try {
    return JSON.parse(raw);
  } catch {
    throw invalidSyntax("The body is not valid JSON");
  }
}

const idOf = (c: Context<AuthEnv>): string => c.req.param("id") ?? "";

/** Okta and Entra ID ask for groups without their members (excludedAttributes=members) when they only look one up. */
function withMembers(c: Context<AuthEnv>): boolean {
  const excluded = (c.req.query("excludedAttributes") ?? "").split(",").map((name) => name.trim().toLowerCase());
  return !excluded.includes("members");
}

type ScimHandler = (c: Context<AuthEnv>, connection: ScimConnectionRow, v2Url: string) => Promise<Response> | Response;

/** The handler's answer, its refusals in SCIM's format. */
async function answered(c: Context<AuthEnv>, run: () => Promise<Response> | Response): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ScimError) return scimErrorResponse(c, error);
    // A catalogue error (a hook refusing a write, the database away) keeps its status, in SCIM's format.
    if (error instanceof AuthError && error.status < 500) {
      return scimErrorResponse(c, new ScimError(error.status, error.message));
    }
    throw error;
  }
}

export function scimProtocolRoutes(app: Hono<AuthEnv>, ctx: AuthContext): void {
  const v2Url = `${ctx.baseURL}${ctx.basePath}/scim/v2`;
  /** A route; a write names its audit action (the directory's entry, in the change's transaction). */
  const on = (method: string, path: string, handler: ScimHandler, audited?: AuditAction) => {
    app.on(
      method,
      `/scim/v2${path}`,
      startingRequest(ctx, { method, path: `/scim/v2${path}` }, (c) =>
        answered(c, async () => {
          const connection = await connectionOf(c);
          const serve = () => answered(c, () => handler(c, connection, v2Url));
          return audited ? runDirectoryAudited(c, audited, connection, serve) : serve();
        }),
      ),
    );
  };

  on("GET", "/ServiceProviderConfig", (c) => scimJson(c, serviceProviderConfig(v2Url)));
  const resourceTypes = [userResourceType(v2Url), groupResourceType(v2Url)];
  const schemas = [userSchema(v2Url), groupSchema(v2Url)];
  on("GET", "/ResourceTypes", (c) => scimJson(c, listResponse(resourceTypes, 2, 1)));
  on("GET", "/ResourceTypes/:id", (c) => {
    const type = resourceTypes.find((t) => t.id === c.req.param("id"));
    if (!type) throw new ScimError(404, "Resource type not found");
    return scimJson(c, type);
  });
  on("GET", "/Schemas", (c) => scimJson(c, listResponse(schemas, 2, 1)));
  on("GET", "/Schemas/:id", (c) => {
    const schema = schemas.find((s) => s.id === c.req.param("id"));
    if (!schema || (schema.id !== USER_SCHEMA && schema.id !== GROUP_SCHEMA)) {
      throw new ScimError(404, "Schema not found");
    }
    return scimJson(c, schema);
  });

  on("GET", "/Users", async (c, connection) => {
    const { filter, startIndex, count } = c.req.query();
    const page = await listUsers(c.get("auth"), connection, { filter, startIndex, count });
    const resources = page.users.map((user) => userResource(v2Url, user));
    return scimJson(c, listResponse(resources, page.total, page.startIndex));
  });
  on(
    "POST",
    "/Users",
    async (c, connection) => {
      const user = await createUser(c.get("auth"), connection, await jsonBody(c));
      const resource = userResource(v2Url, user);
      c.header("Location", resource.meta.location);
      return scimJson(c, resource, 201);
    },
    "directory.user_provisioned",
  );
  on("GET", "/Users/:id", async (c, connection) => {
    return scimJson(c, userResource(v2Url, await getUser(c.get("auth"), connection, idOf(c))));
  });
  on(
    "PUT",
    "/Users/:id",
    async (c, connection) => {
      const user = await replaceUser(c.get("auth"), connection, idOf(c), await jsonBody(c));
      return scimJson(c, userResource(v2Url, user));
    },
    "directory.user_updated",
  );
  on(
    "PATCH",
    "/Users/:id",
    async (c, connection) => {
      const user = await patchUser(c.get("auth"), connection, idOf(c), await jsonBody(c));
      return scimJson(c, userResource(v2Url, user));
    },
    "directory.user_updated",
  );
  on(
    "DELETE",
    "/Users/:id",
    async (c, connection) => {
      await deleteUser(c.get("auth"), connection, idOf(c));
      return c.body(null, 204);
    },
    "directory.user_deprovisioned",
  );

  on("GET", "/Groups", async (c, connection) => {
    const { filter, startIndex, count } = c.req.query();
    const page = await listGroups(c.get("auth"), connection, {
      filter,
      startIndex,
      count,
      withMembers: withMembers(c),
    });
    const resources = page.groups.map((group) => groupResource(v2Url, group));
    return scimJson(c, listResponse(resources, page.total, page.startIndex));
  });
  on(
    "POST",
    "/Groups",
    async (c, connection) => {
      const resource = groupResource(v2Url, await createGroup(c.get("auth"), connection, await jsonBody(c)));
      c.header("Location", resource.meta.location);
      return scimJson(c, resource, 201);
    },
    "directory.group_created",
  );
  on("GET", "/Groups/:id", async (c, connection) => {
    return scimJson(c, groupResource(v2Url, await getGroup(c.get("auth"), connection, idOf(c), withMembers(c))));
  });
  on(
    "PUT",
    "/Groups/:id",
    async (c, connection) => {
      const group = await replaceGroup(c.get("auth"), connection, idOf(c), await jsonBody(c));
      return scimJson(c, groupResource(v2Url, group));
    },
    "directory.group_updated",
  );
  on(
    "PATCH",
    "/Groups/:id",
    async (c, connection) => {
      const group = await patchGroup(c.get("auth"), connection, idOf(c), await jsonBody(c));
      return scimJson(c, groupResource(v2Url, group));
    },
    "directory.group_updated",
  );
  on(
    "DELETE",
    "/Groups/:id",
    async (c, connection) => {
      await deleteGroup(c.get("auth"), connection, idOf(c));
      return c.body(null, 204);
    },
    "directory.group_deleted",
  );
}

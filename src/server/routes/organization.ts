import type { Hono } from "hono";
import {
  checkSlugBody,
  createOrganizationBody,
  getFullOrganizationQuery,
  getOrganizationQuery,
  organizationIdBody,
  setActiveOrganizationBody,
  updateOrganizationBody,
} from "../../contract/organization.js";
import { applyActiveChange } from "../http/active-organization.js";
import type { AuthEnv } from "../http/env.js";
import { readBody, readQuery } from "../http/input.js";
import { requireSession } from "../http/session.js";
import {
  checkSlug,
  createOrganization,
  deleteOrganization,
  getFullOrganization,
  getOrganization,
  listOrganizations,
  setActiveOrganization,
  updateOrganization,
} from "../services/organizations.js";

/** Organization lifecycle and the session's active organization (WIRE 8.2). */
export function organizationRoutes(app: Hono<AuthEnv>): void {
  app.post("/organization/create", async (c) => {
    const body = readBody(c, createOrganizationBody);
    const data = await requireSession(c);
    const result = await createOrganization(c.get("auth"), data.session, body);
    applyActiveChange(c, data, result.active);
    return c.json(result.organization);
  });

  app.post("/organization/check-slug", async (c) => {
    const { slug } = readBody(c, checkSlugBody);
    await requireSession(c);
    await checkSlug(c.get("auth"), slug);
    return c.json({ status: true });
  });

  app.post("/organization/update", async (c) => {
    const body = readBody(c, updateOrganizationBody);
    const { session } = await requireSession(c);
    return c.json(await updateOrganization(c.get("auth"), session, body));
  });

  app.post("/organization/delete", async (c) => {
    const { organizationId } = readBody(c, organizationIdBody);
    const data = await requireSession(c);
    const result = await deleteOrganization(c.get("auth"), data.session, organizationId);
    applyActiveChange(c, data, result.active);
    return c.json(result.organization);
  });

  app.get("/organization/list", async (c) => {
    const { session } = await requireSession(c);
    return c.json(await listOrganizations(c.get("auth"), session));
  });

  app.post("/organization/set-active", async (c) => {
    const body = readBody(c, setActiveOrganizationBody);
    const data = await requireSession(c);
    const result = await setActiveOrganization(c.get("auth"), data.session, body);
    applyActiveChange(c, data, result.active);
    return c.json(result.organization);
  });

  app.get("/organization/get-organization", async (c) => {
    const query = readQuery(c, getOrganizationQuery);
    const { session } = await requireSession(c);
    return c.json(await getOrganization(c.get("auth"), session, query));
  });

  app.get("/organization/get-full-organization", async (c) => {
    const query = readQuery(c, getFullOrganizationQuery);
    const { session } = await requireSession(c);
    return c.json(await getFullOrganization(c.get("auth"), session, query));
  });
}

import type { Context } from "hono";
import { adminEndpoints, organizationEndpoints } from "../../contract/endpoints/index.js";
import type { AuthEnv } from "../http/env.js";
import type { Route } from "../http/route.js";
import { requestMeta } from "../http/session.js";
import {
  checkTrail,
  exportTrail,
  readTrailPage,
  requireOrganizationTrail,
  requireWholeTrail,
  type TrailScope,
} from "./reading.service.js";

const CONTENT_TYPES = { jsonl: "application/x-ndjson; charset=utf-8", csv: "text/csv; charset=utf-8" } as const;

function sendExport(
  c: Context<AuthEnv>,
  scope: TrailScope,
  query: Parameters<typeof exportTrail>[2] & { format?: "jsonl" | "csv" },
): Response {
  const { format = "jsonl", ...filters } = query;
  const name = `audit-trail${scope.organizationId ? `-${scope.organizationId}` : ""}.${format}`;
  return new Response(exportTrail(c.get("auth"), scope, filters, format), {
    headers: {
      "Content-Type": CONTENT_TYPES[format],
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "no-store",
    },
  });
}

/** The security audit trail's readers (docs/audit.md): admins the whole, owners their organization's. */
export function auditTrailRoutes(route: Route): void {
  route(adminEndpoints.listAuditTrail, async (c, { query, caller }) => {
    const scope = requireWholeTrail(c.get("auth"), { user: caller.user, meta: requestMeta(c) });
    return readTrailPage(c.get("auth"), scope, query);
  });

  route(adminEndpoints.verifyAuditTrail, async (c, { caller }) => {
    requireWholeTrail(c.get("auth"), { user: caller.user, meta: requestMeta(c) });
    return checkTrail(c.get("auth"));
  });

  route(adminEndpoints.exportAuditTrail, async (c, { query, caller }) => {
    const scope = requireWholeTrail(c.get("auth"), { user: caller.user, meta: requestMeta(c) });
    return sendExport(c, scope, query);
  });

  route(organizationEndpoints.listAuditTrail, async (c, { query: { organizationId, ...query }, caller }) => {
    const scope = await requireOrganizationTrail(c.get("auth"), caller.session, organizationId);
    return readTrailPage(c.get("auth"), scope, query);
  });

  route(organizationEndpoints.exportAuditTrail, async (c, { query: { organizationId, ...query }, caller }) => {
    const scope = await requireOrganizationTrail(c.get("auth"), caller.session, organizationId);
    return sendExport(c, scope, query);
  });
}

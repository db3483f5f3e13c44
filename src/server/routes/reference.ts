import type { MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { Endpoint } from "../../contract/endpoints/define.js";
import { endpointAreas, serviceEndpoints } from "../../contract/endpoints/index.js";
import { buildOpenApiDocument } from "../../contract/openapi.js";
import { type AuthContext, apiURL } from "../context.js";
import { cookieName } from "../http/cookies.js";
import { isRouted, type Route } from "../http/route.js";
import { REFERENCE_PAGE, VIEWER_SCRIPT, VIEWER_STYLES } from "./reference-viewer.js";

/** The viewer sets no inline style or script: everything comes from this origin. */
function referencePageHeaders(ctx: AuthContext): MiddlewareHandler {
  return secureHeaders({
    xFrameOptions: "DENY",
    referrerPolicy: "no-referrer",
    strictTransportSecurity: ctx.baseURL.startsWith("https://") ? "max-age=31536000; includeSubDomains" : false,
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      connectSrc: ["'self'"],
      baseUri: ["'none'"],
      formAction: ["'none'"],
      frameAncestors: ["'none'"],
    },
  });
}

function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= make();
    return value;
  };
}

const ASSETS = new Map<string, { type: string; text: string }>([
  ["viewer.css", { type: "text/css; charset=utf-8", text: VIEWER_STYLES }],
  ["viewer.js", { type: "text/javascript; charset=utf-8", text: VIEWER_SCRIPT }],
]);

/** The endpoints this server routes, by area: the document lists exactly what is served. */
function routedAreas(ctx: AuthContext): Record<string, Record<string, Endpoint>> {
  const areas: Record<string, Record<string, Endpoint>> = {};
  for (const [name, area] of Object.entries(endpointAreas)) {
    const routed = Object.entries(area as Record<string, Endpoint>).filter(([, endpoint]) => isRouted(endpoint, ctx));
    if (routed.length > 0) areas[name] = Object.fromEntries(routed);
  }
  return areas;
}

/** The OpenAPI document (built on first request: options are fixed at start-up) and its reference page. */
export function referenceRoutes(route: Route, ctx: AuthContext): void {
  const document = once(() =>
    JSON.stringify(
      buildOpenApiDocument({
        areas: routedAreas(ctx),
        serverUrl: apiURL(ctx, ""),
        sessionCookieName: cookieName(ctx, "session_token"),
        additionalFields: {
          user: ctx.options.user.additionalFields,
          session: ctx.options.session.additionalFields,
          organization: ctx.options.organization.additionalFields,
        },
      }),
    ),
  );

  route(serviceEndpoints.openApi, (c) => {
    c.header("Cache-Control", "no-cache");
    return c.body(document(), 200, { "Content-Type": "application/json" });
  });

  route(serviceEndpoints.reference, (c) => c.html(REFERENCE_PAGE), { page: referencePageHeaders(ctx) });

  route(serviceEndpoints.referenceAsset, (c) => {
    const name = c.req.param("asset") ?? "";
    const asset = ASSETS.get(name);
    if (!asset) return c.body(null, 404);
    c.header("Cache-Control", "public, max-age=3600");
    return c.body(asset.text, 200, { "Content-Type": asset.type });
  });
}

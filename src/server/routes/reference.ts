import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { Endpoint } from "../../contract/endpoints/define.js";
import { endpointAreas, serviceEndpoints } from "../../contract/endpoints/index.js";
import { buildOpenApiDocument } from "../../contract/openapi.js";
import { type AuthContext, apiURL } from "../context.js";
import { cookieName } from "../http/cookies.js";
import { isRouted, type Route } from "../http/route.js";

/** The page: Swagger UI's stylesheet and script from this server (no CDN), started by a script file, not inline. */
const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Gatehouse API reference</title>
<link rel="stylesheet" href="reference/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="reference/swagger-ui-bundle.js"></script>
<script src="reference/start.js"></script>
</body>
</html>`;

const START_SCRIPT = `// validatorUrl null: no badge fetched from swagger.io.
window.ui = SwaggerUIBundle({ url: "openapi.json", dom_id: "#reference", deepLinking: true, validatorUrl: null });\n`;

/** Swagger UI sets style attributes, so styles allow 'unsafe-inline'; scripts come from this origin only. */
function referencePageHeaders(ctx: AuthContext): MiddlewareHandler {
  return secureHeaders({
    xFrameOptions: "DENY",
    referrerPolicy: "no-referrer",
    strictTransportSecurity: ctx.baseURL.startsWith("https://") ? "max-age=31536000; includeSubDomains" : false,
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:"],
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

/** The viewer's files, read from the swagger-ui-dist package on first request and kept (they never change). */
const swaggerRoot = once(() => dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json")));
const swaggerFile = (name: string) => once(() => readFileSync(join(swaggerRoot(), name), "utf8"));
const ASSETS = new Map<string, { type: string; read: () => string }>([
  ["swagger-ui.css", { type: "text/css; charset=utf-8", read: swaggerFile("swagger-ui.css") }],
  ["swagger-ui-bundle.js", { type: "text/javascript; charset=utf-8", read: swaggerFile("swagger-ui-bundle.js") }],
  ["start.js", { type: "text/javascript; charset=utf-8", read: () => START_SCRIPT }],
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
    if (!asset) return new Response(null, { status: 404 });
    c.header("Cache-Control", "public, max-age=3600");
    return c.body(asset.read(), 200, { "Content-Type": asset.type });
  });
}

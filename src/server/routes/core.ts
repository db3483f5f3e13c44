import { serviceEndpoints } from "../../contract/endpoints/index.js";
import type { AuthContext } from "../context.js";
import { escapeHtml } from "../html-escape.js";
import type { Route } from "../http/route.js";
import { staticPageHeaders } from "../http/security-headers.js";
import { databaseIsReady } from "../services/readiness.js";

/** Only letters, digits and `_ ' -` survive into the page or a redirect (WIRE: /error). */
export function sanitizeErrorCode(value: string | undefined): string {
  if (!value) return "UNKNOWN";
  return /^[A-Za-z0-9_'-]+$/.test(value) ? value : "UNKNOWN";
}

/** The error page's only style: inline, and allowed by its hash in the page's CSP. */
const ERROR_PAGE_CSS = `
  body { font-family: system-ui, sans-serif; display: grid; place-items: center; min-height: 100vh; margin: 0; background: #f6f7f9; color: #1b1f24; }
  main { max-width: 28rem; padding: 2rem; background: #fff; border-radius: 12px; box-shadow: 0 1px 3px rgba(0,0,0,.12); }
  code { background: #eef0f3; padding: .15rem .4rem; border-radius: 4px; }
  a { color: #0b5fff; }
`;

function errorPage(code: string, description: string | undefined, homeURL: string): string {
  const detail = description ? `<p class="detail">${escapeHtml(description.slice(0, 500))}</p>` : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in error</title>
<style>${ERROR_PAGE_CSS}</style>
</head>
<body>
<main>
  <h1>Something went wrong</h1>
  <p>The sign-in could not be completed. Error code: <code data-testid="error-code">${escapeHtml(code)}</code></p>
  ${detail}
  <p><a href="${escapeHtml(homeURL)}">Back to the application</a></p>
</main>
</body>
</html>`;
}

export function coreRoutes(route: Route, ctx: AuthContext): void {
  route(serviceEndpoints.ok, () => ({ ok: true }));

  // Readiness for a load balancer: 503 while the database does not answer. `revocations` says whether
  // other instances' revocations are reaching this one; while they are not, the instance still serves
  // correctly (get-session reads the database instead of the cookie cache), so it stays in rotation:
  // a Redis outage must not take every instance out.
  route(serviceEndpoints.ready, async (c) => {
    const ctx = c.get("auth");
    c.header("Cache-Control", "no-store");
    const database = await databaseIsReady(ctx);
    const revocations = ctx.revocations.connected;
    return c.json({ ready: database, database, revocations }, database ? 200 : 503);
  });

  route(
    serviceEndpoints.errorPage,
    (c, { query }) => {
      const code = sanitizeErrorCode(query.error);
      const description = query.error_description;
      if (process.env.NODE_ENV === "production") {
        const target = ctx.pages.error({ error: code, error_description: description?.slice(0, 500) || undefined });
        return c.redirect(target, 302);
      }
      return c.html(errorPage(code, description, `${ctx.baseURL}/`));
    },
    { page: staticPageHeaders(ctx, ERROR_PAGE_CSS) },
  );
}

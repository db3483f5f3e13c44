/**
 * A page the server renders itself (not the app's): never cached, sent with no referrer, never
 * framed, and allowed only what `contentSecurityPolicy` says (to which `frame-ancestors 'none'` and
 * `base-uri 'none'` are added).
 */
export function htmlPage(html: string, contentSecurityPolicy: string): Response {
  return new Response(html, {
    status: 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
      "x-frame-options": "DENY",
      "x-content-type-options": "nosniff",
      "content-security-policy": `${contentSecurityPolicy}; base-uri 'none'; frame-ancestors 'none'`,
    },
  });
}

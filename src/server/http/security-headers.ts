import { createHash } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { AuthContext } from "../context.js";
import { MAIL_STYLES } from "../email/layout.js";
import { oneTapClientId } from "../options.js";

/** Where Google Identity Services loads from, when One Tap is on (its documented CSP sources). */
const GOOGLE_SIGN_IN = "https://accounts.google.com/gsi/";

/** The SHA-256 source for an inline `<style>` element, so a page can carry one without 'unsafe-inline'. */
export function styleHash(css: string): string {
  return `'sha256-${createHash("sha256").update(css).digest("base64")}'`;
}

/** Headers every HTML page shares: no framing, no sniffing, no referrer (reset pages carry tokens), HSTS over https. */
function commonOptions(ctx: AuthContext) {
  return {
    xFrameOptions: "DENY",
    referrerPolicy: "no-referrer",
    xContentTypeOptions: "nosniff",
    strictTransportSecurity: ctx.baseURL.startsWith("https://") ? "max-age=31536000; includeSubDomains" : false,
  } as const;
}

/**
 * The application's pages: scripts, styles, data and frames from this origin only, plus Google's
 * sign-in client when One Tap is on. Images may come from any https origin (avatars, logos).
 */
export function applicationPageHeaders(ctx: AuthContext): MiddlewareHandler {
  const google = oneTapClientId(ctx.options) ? [GOOGLE_SIGN_IN] : [];
  // The development outbox shows each mail in a sandboxed srcdoc frame, which inherits this policy:
  // the layout's own inline styles, and no others, are allowed by hash (development only).
  const mailStyles = ctx.devOutbox ? ["'unsafe-hashes'", ...MAIL_STYLES.map(styleHash)] : [];
  return secureHeaders({
    ...commonOptions(ctx),
    // One Tap may open Google's window; a stricter opener policy would cut it off.
    crossOriginOpenerPolicy: google.length > 0 ? "same-origin-allow-popups" : "same-origin",
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...google],
      styleSrc: ["'self'", ...google, ...mailStyles],
      connectSrc: ["'self'", ...google],
      frameSrc: google.length > 0 ? google : ["'none'"],
      imgSrc: ["'self'", "data:", "https:"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      frameAncestors: ["'none'"],
    },
  });
}

/** A server-rendered page with one inline stylesheet and nothing else (the /error page). */
export function staticPageHeaders(ctx: AuthContext, inlineCss: string): MiddlewareHandler {
  return secureHeaders({
    ...commonOptions(ctx),
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      styleSrc: [styleHash(inlineCss)],
      baseUri: ["'none'"],
      formAction: ["'none'"],
      frameAncestors: ["'none'"],
    },
  });
}

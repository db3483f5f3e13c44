import type { AuthContext } from "../../context.js";
import { AuthError } from "../../errors.js";

/** The checks every client's metadata passes: registered, updated, or read from a metadata document. */

const LOOPBACK = new Set(["127.0.0.1", "[::1]", "localhost"]);

/**
 * A redirect URI is matched exactly at authorization, so it must be one absolute URL: https, or
 * http on loopback (native apps, RFC 8252), or a private-use scheme with a dot (reverse domain).
 * No fragment (RFC 6749 3.1.2).
 */
function checkRedirectUri(value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AuthError("OAUTH_INVALID_REDIRECT_URI", { message: `Not an absolute URL: ${value}` });
  }
  const scheme = url.protocol.slice(0, -1);
  const allowed =
    scheme === "https" ||
    (scheme === "http" && LOOPBACK.has(url.hostname)) ||
    (/^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+$/.test(scheme) && !["javascript", "data", "file"].includes(scheme));
  if (!allowed || url.hash || value.includes("#")) throw new AuthError("OAUTH_INVALID_REDIRECT_URI");
}

/** The checks a client's metadata must pass, at creation and at every update. */
export function checkMetadata(
  ctx: AuthContext,
  metadata: {
    scope: string | undefined;
    grantTypes: readonly string[];
    isPublic: boolean;
    redirectUris: readonly string[];
    postLogoutRedirectUris: readonly string[];
  },
): { scopes: string[]; grantTypes: string[] } {
  const serverScopes = ctx.options.oauthProvider.scopes;
  const scopes = metadata.scope ? [...new Set(metadata.scope.split(" ").filter(Boolean))] : serverScopes;
  const unknown = scopes.filter((scope) => !serverScopes.includes(scope));
  if (unknown.length > 0) {
    throw new AuthError("OAUTH_INVALID_CLIENT_METADATA", { message: `Unknown scopes: ${unknown.join(", ")}` });
  }
  const grantTypes = [...new Set(metadata.grantTypes)];
  if (grantTypes.includes("client_credentials") && metadata.isPublic) {
    throw new AuthError("OAUTH_INVALID_CLIENT_METADATA", { message: "A public client cannot use client_credentials" });
  }
  if (grantTypes.includes("authorization_code") && metadata.redirectUris.length === 0) {
    throw new AuthError("OAUTH_INVALID_CLIENT_METADATA", { message: "authorization_code needs redirect_uris" });
  }
  for (const uri of [...metadata.redirectUris, ...metadata.postLogoutRedirectUris]) checkRedirectUri(uri);
  return { scopes, grantTypes };
}

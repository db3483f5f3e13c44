import { type AuthContext, apiURL } from "../../context.js";
import { findClient } from "../../store/oauth-provider.js";
import { verifyJwt } from "../jwt.js";
import { issuerOf } from "./metadata.js";

/**
 * RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0). The relying party must send the ID
 * token it holds (`id_token_hint`): a GET any page can aim at the browser must not sign the user out
 * on its own. The browser's session ends only when the hint names its user; it goes back only to a
 * post-logout URI the client registered, exactly, with `state`.
 */
export async function endSession(
  ctx: AuthContext,
  params: URLSearchParams,
  signedInUserId: string | null,
): Promise<{ signOut: boolean; url: string }> {
  const errorPage = (description: string) => ({
    signOut: false,
    url: `${apiURL(ctx, "/error")}?${new URLSearchParams({ error: "invalid_request", error_description: description })}`,
  });
  const hint = params.get("id_token_hint");
  const claims = hint ? await verifyJwt(ctx, hint, { issuer: issuerOf(ctx), typ: "JWT", acceptExpired: true }) : null;
  const audience = typeof claims?.aud === "string" ? claims.aud : null;
  if (!claims || !audience || typeof claims.sub !== "string") return errorPage("A valid id_token_hint is required");
  const clientId = params.get("client_id");
  if (clientId !== null && clientId !== audience) return errorPage("client_id does not match the id_token_hint");
  const client = await findClient(ctx.db, audience);
  if (!client) return errorPage("Unknown client");
  const signOut = signedInUserId === claims.sub;
  const target = params.get("post_logout_redirect_uri");
  if (target === null) return { signOut, url: apiURL(ctx, "/error?error=signed_out") };
  if (!client.postLogoutRedirectUris.includes(target)) {
    return errorPage("post_logout_redirect_uri is not registered for this client");
  }
  const url = new URL(target);
  const state = params.get("state");
  if (state !== null) url.searchParams.set("state", state);
  return { signOut, url: url.toString() };
}

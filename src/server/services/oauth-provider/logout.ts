import { type AuthContext, apiURL } from "../../context.js";
import { frontchannelLogoutUris } from "../../store/oauth-logout.js";
import { findClient } from "../../store/oauth-provider.js";
import { verifyJwt } from "../jwt.js";
import { issuerOf } from "./metadata.js";

/** What end-session does: whether the browser's session ends, where it goes, and the pages framed on the way. */
export interface EndSessionOutcome {
  signOut: boolean;
  url: string;
  /** OpenID Connect Front-Channel Logout 1.0: each client of the ending session that asked, with `iss` and `sid`. */
  frames: string[];
}

/**
 * RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0). The relying party must send the ID
 * token it holds (`id_token_hint`): a GET any page can aim at the browser must not sign the user out
 * on its own. The browser's session ends only when the hint names its user; it goes back only to a
 * post-logout URI the client registered, exactly, with `state`. When it ends, the clients the
 * session signed in to that registered a front-channel logout URI are framed on the way.
 */
export async function endSession(
  ctx: AuthContext,
  params: URLSearchParams,
  signedIn: { userId: string; sessionId: string } | null,
): Promise<EndSessionOutcome> {
  const errorPage = (description: string) => ({
    frames: [],
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
  const signOut = signedIn !== null && signedIn.userId === claims.sub;
  const target = params.get("post_logout_redirect_uri");
  if (target !== null && !client.postLogoutRedirectUris.includes(target)) {
    return errorPage("post_logout_redirect_uri is not registered for this client");
  }
  const frames = signOut ? await framesFor(ctx, signedIn.sessionId) : [];
  if (target === null) return { signOut, frames, url: apiURL(ctx, "/error?error=signed_out") };
  const url = new URL(target);
  const state = params.get("state");
  if (state !== null) url.searchParams.set("state", state);
  return { signOut, frames, url: url.toString() };
}

/** Each front-channel logout URI of the session's clients, with `iss` and `sid` (the ID tokens' `sid`) added. */
async function framesFor(ctx: AuthContext, sessionId: string): Promise<string[]> {
  return (await frontchannelLogoutUris(ctx.db, sessionId)).map((uri) => {
    const frame = new URL(uri);
    frame.searchParams.set("iss", issuerOf(ctx));
    frame.searchParams.set("sid", sessionId);
    return frame.toString();
  });
}

import type { AuthContext } from "../context.js";
import { createOAuthState, type OAuthStateData } from "../services/social/state.js";
import { SSO_STATE_PREFIX } from "./oidc-client.service.js";
import type { SsoProviderRecord } from "./providers.store.js";
import { newSamlRequestId, samlAuthorizeURL } from "./saml.service.js";

/**
 * The start of a SAML flow, a sign-in or a test: the state (sent as RelayState) keeps the
 * AuthnRequest id the response must answer; the browser goes to the IdP's SSO URL with the deflated
 * request.
 */
export async function startSAMLFlow(
  ctx: AuthContext,
  provider: SsoProviderRecord,
  flow: Pick<OAuthStateData, "callbackURL" | "errorURL" | "newUserURL" | "test">,
): Promise<{ url: string; state: string; saml: true }> {
  const request = { id: newSamlRequestId(), issuedAt: ctx.now().toISOString() };
  const { state } = await createOAuthState(
    ctx,
    { ...flow, providerId: `${SSO_STATE_PREFIX}${provider.providerId}`, scopes: [], saml: request },
    { openid: false },
  );
  return { url: await samlAuthorizeURL(ctx, provider, request, state), state, saml: true };
}

import type { AuthContext } from "../../context.js";
import { AuthError } from "../../errors.js";
import type { SocialProvider } from "../../providers/social-provider.js";
import { createOAuthState, type OAuthStateData } from "./state.js";

export function requireProvider(ctx: AuthContext, id: string): SocialProvider {
  const provider = ctx.providers.get(id);
  if (!provider) throw new AuthError("PROVIDER_NOT_FOUND");
  return provider;
}

export interface StartInput {
  callbackURL?: string;
  newUserCallbackURL?: string;
  errorCallbackURL?: string;
  scopes?: string[];
  loginHint?: string;
  additionalParams?: Record<string, string>;
  link?: OAuthStateData["link"];
  test?: OAuthStateData["test"];
}

/**
 * Starts the redirect flow: stores state and PKCE verifier server-side and returns the provider's
 * authorization URL and the state (for the browser-binding cookie).
 */
export async function startAuthorization(
  ctx: AuthContext,
  provider: SocialProvider,
  input: StartInput,
): Promise<{ url: string; state: string }> {
  const scopes = [...new Set([...provider.defaultScopes, ...(input.scopes ?? [])])];
  const { state, codeVerifier, nonce } = await createOAuthState(
    ctx,
    {
      providerId: provider.id,
      callbackURL: input.callbackURL || ctx.baseURL,
      ...(input.errorCallbackURL ? { errorURL: input.errorCallbackURL } : {}),
      ...(input.newUserCallbackURL ? { newUserURL: input.newUserCallbackURL } : {}),
      scopes,
      ...(input.link ? { link: input.link } : {}),
      ...(input.test ? { test: input.test } : {}),
    },
    { openid: provider.preset.openid },
  );
  let url: URL;
  try {
    url = new URL(await provider.authorizationURL({ state, codeVerifier, nonce, scopes, loginHint: input.loginHint }));
  } catch (error) {
    // Discovery failed (the provider is down or misconfigured): a clear 502, not a 500.
    ctx.logger.warn("provider metadata unavailable", { provider: provider.id, error: String(error) });
    throw new AuthError("PROVIDER_UNAVAILABLE");
  }
  for (const [key, value] of Object.entries(input.additionalParams ?? {})) url.searchParams.set(key, value);
  return { url: url.toString(), state };
}

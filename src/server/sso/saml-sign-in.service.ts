import type { AuthContext } from "../context.js";
import { safeEqual } from "../crypto/digest.js";
import { emailDomain } from "../services/email-domain.js";
import { type CallbackInput, type CallbackOutcome, defaultErrorURL, withError } from "../services/social/callback.js";
import type { OAuthStateData } from "../services/social/state.js";
import { consumeOAuthState } from "../services/social/state.js";
import { isSafeRedirectTarget } from "../trusted-origins.js";
import { SSO_STATE_PREFIX } from "./oidc-client.service.js";
import type { SsoProviderRecord } from "./providers.store.js";
import { findSsoProvider } from "./providers.store.js";
import { claimAssertion, readSamlSettings, SamlRefusal, samlProfile, verifySamlResponse } from "./saml.service.js";
import { finishSSOSignIn, roleFromClaims } from "./sign-in.service.js";
import { recordSSOTestResult } from "./test-sign-in.service.js";

export interface SamlPostInput extends Pick<CallbackInput, "currentSession" | "meta"> {
  providerId: string;
  SAMLResponse: string;
  RelayState: string | undefined;
  /** The signed `state` cookie when the browser sent it (a cross-site POST usually does not: SameSite=Lax). */
  stateCookie: string | null;
  /**
   * The signed SameSite=None flow cookie (null when absent), or undefined where the deployment cannot
   * set one (plain http on a network name) and responses are not bound to a browser.
   */
  flowCookie: string | null | undefined;
}

/**
 * POST /sso/saml2/callback/:providerId (and /sso/saml2/sp/acs/:providerId): the IdP's response.
 * SP-initiated: RelayState is the state the sign-in stored (single use), holding the AuthnRequest id
 * the response must answer. IdP-initiated (no state): refused unless `sso.saml.allowIdpInitiated`.
 * Every refusal is a redirect to the flow's error URL with `error=<code>`.
 */
export async function completeSAMLResponse(ctx: AuthContext, input: SamlPostInput): Promise<CallbackOutcome> {
  let errorURL = defaultErrorURL(ctx);
  const fail = (code: string): CallbackOutcome => ({ kind: "redirect", location: withError(errorURL, code) });

  // The state goes whatever follows: a response is tried once.
  const state = input.RelayState ? await consumeOAuthState(ctx, input.RelayState) : null;
  if (state?.errorURL) errorURL = state.errorURL;
  let flow: { callbackURL: string; newUserURL?: string };
  if (state) {
    if (state.providerId !== `${SSO_STATE_PREFIX}${input.providerId}` || !state.saml) {
      return fail("oauth_provider_not_found");
    }
    // Only the browser that started this flow holds its flow cookie: a response someone obtained for
    // their own account, posted from a victim's browser, would otherwise sign the victim in as them.
    const bound = (cookie: string | null | undefined) =>
      cookie === undefined || (cookie !== null && safeEqual(cookie, input.RelayState ?? ""));
    if (!bound(input.flowCookie)) return fail("state_mismatch");
    // A browser that still holds another flow's state cookie is not the one that started this flow.
    if (input.stateCookie !== null && !bound(input.stateCookie)) return fail("state_mismatch");
    if (state.test) return completeSAMLTest(ctx, input, state.saml, state.test);
    flow = { callbackURL: state.callbackURL, ...(state.newUserURL ? { newUserURL: state.newUserURL } : {}) };
  } else {
    if (!ctx.options.sso.saml.allowIdpInitiated)
      return fail(input.RelayState ? "state_not_found" : "unsolicited_response");
    // IdP-initiated: RelayState, when it is a target we may send the browser to, is where it lands.
    const target =
      input.RelayState && isSafeRedirectTarget(input.RelayState, ctx.isTrustedOrigin) ? input.RelayState : "/";
    flow = { callbackURL: target };
  }
  if (!isSafeRedirectTarget(flow.callbackURL, ctx.isTrustedOrigin)) return fail("no_callback_url");

  const provider = await findSsoProvider(ctx.db, input.providerId);
  if (provider?.type !== "saml") return fail("oauth_provider_not_found");

  try {
    const assertion = await verifySamlResponse(ctx, provider, input.SAMLResponse, state?.saml ?? null);
    await claimAssertion(ctx, provider, assertion);
    const profile = samlProfile(readSamlSettings(provider), assertion);
    const email = profile.email?.trim().toLowerCase();
    const refusal = refusalOf(provider, email);
    if (refusal || !email) return fail(refusal ?? "email_not_found");
    const tokens = {
      accessToken: null,
      refreshToken: null,
      idToken: null,
      accessTokenExpiresAt: null,
      refreshTokenExpiresAt: null,
      scopes: [],
    };
    return await finishSSOSignIn(
      ctx,
      provider,
      { profile: { ...profile, email }, claims: assertion.claims, tokens },
      flow,
      input,
      fail,
    );
  } catch (error) {
    if (error instanceof SamlRefusal) {
      ctx.logger.warn("saml response refused", { provider: input.providerId, code: error.code, detail: error.detail });
      return fail(error.code);
    }
    throw error;
  }
}

/** What a real sign-in refuses a verified assertion for: no email, or one outside the proven domains. */
function refusalOf(provider: SsoProviderRecord, email: string | undefined): string | null {
  if (!email?.includes("@")) return "email_not_found";
  // The organization speaks only for the domains it proved.
  const domain = emailDomain(email);
  if (!provider.domains.some((d) => d.verified && d.domain === domain)) return "email_domain_not_verified";
  return null;
}

/**
 * A test sign-in's response: verified and claimed as a sign-in's is, then recorded for its starter
 * with the mapped email, name and role and the refusal a sign-in would meet. Nobody is signed in.
 */
async function completeSAMLTest(
  ctx: AuthContext,
  input: SamlPostInput,
  request: NonNullable<OAuthStateData["saml"]>,
  test: NonNullable<OAuthStateData["test"]>,
): Promise<CallbackOutcome> {
  const provider = await findSsoProvider(ctx.db, input.providerId);
  if (provider?.type !== "saml")
    return { kind: "redirect", location: withError(defaultErrorURL(ctx), "oauth_provider_not_found") };
  const nothing = { claims: null, email: null, name: null, role: null };
  try {
    const assertion = await verifySamlResponse(ctx, provider, input.SAMLResponse, request);
    await claimAssertion(ctx, provider, assertion);
    const profile = samlProfile(readSamlSettings(provider), assertion);
    const email = profile.email?.trim().toLowerCase() || null;
    return await recordSSOTestResult(ctx, provider, test, {
      claims: assertion.claims,
      email,
      name: profile.name || null,
      role: roleFromClaims(ctx, provider, assertion.claims),
      refusal: refusalOf(provider, email ?? undefined),
    });
  } catch (error) {
    if (!(error instanceof SamlRefusal)) throw error;
    ctx.logger.warn("saml test response refused", {
      provider: input.providerId,
      code: error.code,
      detail: error.detail,
    });
    return recordSSOTestResult(ctx, provider, test, { ...nothing, refusal: error.code });
  }
}

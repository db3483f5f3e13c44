import type { SessionWithUser } from "../../../contract/models.js";
import type { SignInMethod } from "../../../contract/organization-policy.js";
import { type CallbackParams, callbackParams } from "../../../contract/social.js";
import { type AuthContext, apiURL } from "../../context.js";
import { safeEqual } from "../../crypto/digest.js";
import { AuthError } from "../../errors.js";
import type { CodeExchange, SocialProvider } from "../../providers/social-provider.js";
import type { Claims, ProviderProfile } from "../../providers/types.js";
import { isSafeRedirectTarget } from "../../trusted-origins.js";
import { type RequestMeta, TwoFactorRequired } from "../sessions.js";
import { linkProfileToUser, SocialSignInError, signInWithProfile } from "./profile-sign-in.js";
import { consumeOAuthState, type OAuthStateData } from "./state.js";

/** Where the browser goes after the callback, and the session to set when it signed in. */
export type CallbackOutcome =
  | { kind: "signed-in"; location: string; data: SessionWithUser }
  | { kind: "redirect"; location: string }
  /** The user owes a second factor: the app's callbackURL, told so, and a challenge for the browser. */
  | {
      kind: "two-factor";
      location: string;
      userId: string;
      signInMethod: SignInMethod | null;
      /** The SSO connection the sign-in began at (the session the factor completes records it). */
      signInProviderId?: string | null;
    };

/** `url` with `error=<code>` (and a description) added, keeping its own query. */
export function withError(url: string, code: string, description?: string): string {
  const [path = "", hash] = url.split("#", 2);
  const query = new URLSearchParams({ error: code });
  if (description) query.set("error_description", description.slice(0, 500));
  const joined = `${path}${path.includes("?") ? "&" : "?"}${query.toString()}`;
  return hash === undefined ? joined : `${joined}#${hash}`;
}

export function defaultErrorURL(ctx: AuthContext): string {
  return apiURL(ctx, "/error");
}

export interface CallbackInput {
  providerId: string;
  params: CallbackParams;
  /** The value of the signed `state` cookie, or null when it is absent or forged. */
  stateCookie: string | null;
  /** The browser's current session: the user a link must finish for, or a guest whose work moves over. */
  currentSession: () => Promise<SessionWithUser | null>;
  meta: RequestMeta;
}

/**
 * GET /callback/:id. Every refusal is a redirect to the flow's error URL with `error=<code>`
 * (SPEC 8); only a bug escapes as an exception (the route sends it to /error?error=internal_server_error).
 */
export async function completeCallback(ctx: AuthContext, input: CallbackInput): Promise<CallbackOutcome> {
  const { params } = input;
  const opened = await openCallback(ctx, input);
  if ("outcome" in opened) return opened.outcome;
  const { state, fail } = opened;
  const provider = ctx.providers.get(input.providerId);
  if (!provider || provider.id !== state.providerId) return fail("oauth_provider_not_found");
  if (!params.code) return fail("no_code");
  if (!state.callbackURL || !isSafeRedirectTarget(state.callbackURL, ctx.isTrustedOrigin)) {
    return fail("no_callback_url");
  }

  const redeemed = await redeemCode(ctx, provider, params, state);
  if ("failure" in redeemed) return fail(redeemed.failure);
  const { exchange } = redeemed;
  const profile = await readProfile(ctx, provider, exchange.tokens.accessToken, exchange.idTokenClaims);
  if (!profile) return fail("unable_to_get_user_info");
  const tokens = { ...exchange.tokens, scopes: exchange.tokens.scopes.length ? exchange.tokens.scopes : state.scopes };

  try {
    if (state.link) {
      // The link must finish in the browser session that asked for it.
      if ((await input.currentSession())?.user.id !== state.link.userId) return fail("unable_to_link_account");
      await linkProfileToUser(ctx, {
        provider,
        profile,
        tokens,
        user: { id: state.link.userId, email: state.link.email },
      });
      return { kind: "redirect", location: state.callbackURL };
    }
    const guest = await input.currentSession();
    const result = await signInWithProfile(ctx, { provider, profile, tokens, guest }, input.meta);
    const location = result.isNewUser && state.newUserURL ? state.newUserURL : state.callbackURL;
    return { kind: "signed-in", location, data: { session: result.session, user: result.user } };
  } catch (error) {
    if (error instanceof TwoFactorRequired) {
      const location = new URL(state.callbackURL, ctx.baseURL);
      location.searchParams.set("twoFactorRedirect", "true");
      return {
        kind: "two-factor",
        location: location.toString(),
        userId: error.userId,
        signInMethod: error.signInMethod,
      };
    }
    if (error instanceof SocialSignInError) {
      if (error.cause)
        ctx.logger.warn("social sign-in write failed", { reason: error.reason, error: describe(error.cause) });
      return fail(error.reason);
    }
    // A rule's refusal (e.g. BANNED_USER) reaches the app as its code, lowercased like the others.
    if (error instanceof AuthError) return fail(error.code === "BANNED_USER" ? "banned" : error.code.toLowerCase());
    throw error;
  }
}

/** A refusal: a redirect to the flow's error URL with `error=<code>` (and a description). */
export type CallbackFail = (code: string, description?: string) => CallbackOutcome;

/**
 * How every OAuth callback (social and SSO OIDC) opens: the flow's state taken (bound to the
 * browser, used once), its error URL adopted, and the provider's own `error=` passed on. Answers the
 * state and a `fail` that redirects to the flow's error URL, or the refusal to send at once.
 */
export async function openCallback(
  ctx: AuthContext,
  input: CallbackInput,
): Promise<
  | { state: OAuthStateData; fail: CallbackFail }
  | { outcome: CallbackOutcome; refused?: { state: OAuthStateData; code: string } }
> {
  const { params } = input;
  let errorURL = defaultErrorURL(ctx);
  const fail: CallbackFail = (code, description) => ({
    kind: "redirect",
    location: withError(errorURL, code, description),
  });
  const state = await takeBoundState(ctx, params, input.stateCookie);
  if (!state) return { outcome: fail("state_not_found") };
  if (state.errorURL) errorURL = state.errorURL;
  if (params.error) {
    const code = params.error.replace(/[^A-Za-z0-9_.-]/g, "_");
    // The provider refused (the user declined, the app is not assigned): a test sign-in shows it.
    return { outcome: fail(code, params.error_description), refused: { state, code } };
  }
  return { state, fail };
}

/**
 * The flow's state when the callback's `state` came back to the browser that started the flow (the
 * signed cookie, against login CSRF); consumed, so it is used once. Null otherwise.
 */
export async function takeBoundState(
  ctx: AuthContext,
  params: CallbackParams,
  stateCookie: string | null,
): Promise<OAuthStateData | null> {
  if (!params.state) return null;
  const boundToBrowser = stateCookie !== null && safeEqual(stateCookie, params.state);
  return boundToBrowser ? consumeOAuthState(ctx, params.state) : null;
}

/**
 * Redeems the callback's code: the response checked (issuer, RFC 9207 `iss`), the code exchanged
 * with the PKCE verifier and the nonce checked, the ID token's signature verified. A failure is the
 * callback's `error=` code.
 */
export async function redeemCode(
  ctx: AuthContext,
  provider: SocialProvider,
  params: CallbackParams,
  state: OAuthStateData,
): Promise<{ exchange: CodeExchange } | { failure: string }> {
  let validated: URLSearchParams;
  try {
    validated = await provider.validateCallback(new URLSearchParams(definedEntries(params)));
  } catch (error) {
    // Never redeemed. Another issuer's `iss` is a mix-up (a response meant elsewhere); a code
    // without the `iss` the provider always sends was made by hand: to the app, a forged code.
    ctx.logger.warn("oauth callback refused", { provider: provider.id, error: describe(error) });
    return { failure: params.iss === undefined ? "invalid_code" : "invalid_callback_request" };
  }

  let exchange: CodeExchange;
  try {
    exchange = await provider.exchangeCode(validated, state.codeVerifier, state.nonce);
  } catch (error) {
    ctx.logger.warn("oauth code exchange failed", { provider: provider.id, error: describe(error) });
    return { failure: "invalid_code" };
  }

  if (exchange.tokens.idToken) {
    try {
      await provider.verifyIdTokenSignature(exchange.tokens.idToken);
    } catch (error) {
      ctx.logger.warn("provider ID token signature refused", { provider: provider.id, error: describe(error) });
      return { failure: "unable_to_get_user_info" };
    }
  }
  return { exchange };
}

/** The provider's user, or null when it cannot be read or has no subject. */
export async function readProfile(
  ctx: AuthContext,
  provider: SocialProvider,
  accessToken: string | null,
  idTokenClaims: Claims | null,
): Promise<ProviderProfile | null> {
  try {
    const claims = accessToken ? await provider.fetchUserInfo(accessToken, idTokenClaims) : idTokenClaims;
    return claims ? provider.mapProfile(claims) : null;
  } catch (error) {
    ctx.logger.warn("provider user info failed", { provider: provider.id, error: describe(error) });
    return null;
  }
}

/**
 * Whether the callback's query names one of its parameters twice (`?state=a&state=b`): which value
 * counts would be a guess, so the request is malformed (invalid_callback_request).
 */
export function repeatsCallbackParam(query: URLSearchParams): boolean {
  const seen = new Set<string>();
  for (const key of query.keys()) {
    if (!(key in callbackParams.shape)) continue;
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

function definedEntries(params: CallbackParams): Record<string, string> {
  return Object.fromEntries(Object.entries(params).filter(([, v]) => typeof v === "string")) as Record<string, string>;
}

export function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

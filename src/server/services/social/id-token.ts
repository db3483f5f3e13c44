import type { SessionWithUser } from "../../../contract/models.js";
import type { IdTokenInput } from "../../../contract/social.js";
import type { AuthContext } from "../../context.js";
import { AuthError } from "../../errors.js";
import type { SocialProvider } from "../../providers/social-provider.js";
import type { ProviderProfile, ProviderTokens } from "../../providers/types.js";
import type { RequestMeta } from "../sessions.js";
import {
  linkProfileToUser,
  type ProfileSignInResult,
  type SocialFailure,
  SocialSignInError,
  signInWithProfile,
} from "./profile-sign-in.js";

/** SPEC 9: Google One Tap tokens older than an hour are refused. */
const ONE_TAP_MAX_AGE_SECONDS = 3600;

async function verifiedProfile(
  ctx: AuthContext,
  provider: SocialProvider,
  input: IdTokenInput,
): Promise<{ profile: ProviderProfile; tokens: ProviderTokens }> {
  if (!provider.supportsIdToken) throw new AuthError("ID_TOKEN_NOT_SUPPORTED");
  let claims: Record<string, unknown>;
  try {
    claims = await provider.verifyIdToken(input.token, { nonce: input.nonce, now: ctx.now() });
  } catch {
    throw new AuthError("INVALID_TOKEN", { status: 401 });
  }
  const profile = provider.mapProfile(claims);
  if (!profile) throw new AuthError("FAILED_TO_GET_USER_INFO");
  if (!profile.email) throw new AuthError("USER_EMAIL_NOT_FOUND");
  const tokens: ProviderTokens = {
    accessToken: input.accessToken ?? null,
    refreshToken: input.refreshToken ?? null,
    idToken: input.token,
    accessTokenExpiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
    refreshTokenExpiresAt: null,
    scopes: provider.defaultScopes,
  };
  return { profile, tokens };
}

/** The refusal as the JSON flows answer it: 401 OAUTH_LINK_ERROR with the reason in words ("account not linked"). */
function linkError(reason: SocialFailure): AuthError {
  return new AuthError("OAUTH_LINK_ERROR", { message: reason.replaceAll("_", " ") });
}

/** POST /sign-in/social with idToken: no redirect, no state; the token itself is the proof. */
export async function signInWithIdToken(
  ctx: AuthContext,
  provider: SocialProvider,
  input: IdTokenInput,
  meta: RequestMeta,
  guest: SessionWithUser | null,
): Promise<ProfileSignInResult> {
  const { profile, tokens } = await verifiedProfile(ctx, provider, input);
  try {
    return await signInWithProfile(ctx, { provider, profile, tokens, guest }, meta);
  } catch (error) {
    if (error instanceof SocialSignInError) throw linkError(error.reason);
    throw error;
  }
}

/** POST /link-social with idToken: links at once (WIRE codes for each refusal). */
export async function linkWithIdToken(
  ctx: AuthContext,
  provider: SocialProvider,
  input: IdTokenInput,
  user: { id: string; email: string },
): Promise<void> {
  const { profile, tokens } = await verifiedProfile(ctx, provider, input);
  try {
    await linkProfileToUser(ctx, { provider, profile, tokens, user });
  } catch (error) {
    if (!(error instanceof SocialSignInError)) throw error;
    if (error.reason === "account_already_linked_to_different_user")
      throw new AuthError("SOCIAL_ACCOUNT_ALREADY_LINKED");
    if (error.reason === "email_does_not_match") throw new AuthError("LINKING_DIFFERENT_EMAILS_NOT_ALLOWED");
    if (error.cause) throw new AuthError("LINKING_FAILED");
    throw new AuthError("LINKING_NOT_ALLOWED");
  }
}

/**
 * POST /one-tap/callback: a Google ID token checked against Google's JWKS, the One Tap client id as
 * audience, the issuer and a one-hour age limit, then the same sign-in as a provider callback.
 */
export async function signInWithOneTap(
  ctx: AuthContext,
  idToken: string,
  meta: RequestMeta,
  guest: SessionWithUser | null,
): Promise<ProfileSignInResult> {
  const provider = ctx.providers.oneTap();
  if (!provider) throw new AuthError("ONE_TAP_NOT_CONFIGURED");
  let claims: Record<string, unknown>;
  try {
    claims = await provider.verifyIdToken(idToken, {
      now: ctx.now(),
      audience: ctx.options.oneTap.clientId ?? provider.config.clientId,
      maxAgeSeconds: ONE_TAP_MAX_AGE_SECONDS,
    });
  } catch {
    throw new AuthError("INVALID_ID_TOKEN");
  }
  const profile = provider.mapProfile(claims);
  if (!profile?.email) throw new AuthError("EMAIL_NOT_AVAILABLE_IN_TOKEN");
  const tokens: ProviderTokens = {
    accessToken: null,
    refreshToken: null,
    idToken,
    accessTokenExpiresAt: null,
    refreshTokenExpiresAt: null,
    scopes: ["openid", "profile", "email"],
  };
  try {
    return await signInWithProfile(ctx, { provider, profile, tokens, guest }, meta);
  } catch (error) {
    if (error instanceof SocialSignInError) throw linkError(error.reason);
    throw error;
  }
}

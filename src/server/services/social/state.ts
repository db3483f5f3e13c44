import type { AuthContext } from "../../context.js";
import { sha256Base64Url } from "../../crypto/digest.js";
import { newId, randomString, URL_SAFE } from "../../crypto/random.js";
import { insertOAuthState, takeOAuthState } from "../../store/oauth-states.js";

/** SPEC 9: state 32 characters, PKCE verifier 128, both kept 10 minutes. */
export const STATE_LENGTH = 32;
export const CODE_VERIFIER_LENGTH = 128;
export const STATE_LIFETIME_SECONDS = 600;
/** The signed `state` cookie that binds the state to the browser that started the flow. */
export const STATE_COOKIE_MAX_AGE = 300;

/** What the callback needs to finish the flow the browser started. */
export interface OAuthStateData {
  providerId: string;
  callbackURL: string;
  errorURL?: string;
  newUserURL?: string;
  codeVerifier: string;
  nonce: string | null;
  scopes: string[];
  /** Present when the flow links an account to a signed-in user (/link-social). */
  link?: { userId: string; email: string };
  /** A SAML sign-in: the AuthnRequest the response must answer (InResponseTo) and when it was made. */
  saml?: { id: string; issuedAt: string };
  /** A test sign-in (sso/test-sign-in.service.ts): its result's id and who may read it; nobody signs in. */
  test?: { id: string; requester: SSOTestRequester; location?: string };
}

/** Who started a test sign-in: an owner (user id) or a setup link (link id). */
export interface SSOTestRequester {
  type: "user" | "setup-link";
  id: string;
}

const identifierOf = (state: string) => `auth-state:${sha256Base64Url(state)}`;

/** Stores a new state server-side (only its digest is the key) and returns it with the PKCE verifier. */
export async function createOAuthState(
  ctx: AuthContext,
  data: Omit<OAuthStateData, "codeVerifier" | "nonce">,
  options: { openid: boolean },
): Promise<{ state: string; codeVerifier: string; nonce: string | null }> {
  const state = randomString(STATE_LENGTH, URL_SAFE);
  const codeVerifier = randomString(CODE_VERIFIER_LENGTH, URL_SAFE);
  const nonce = options.openid ? randomString(32, URL_SAFE) : null;
  const now = ctx.now();
  const value: OAuthStateData = { ...data, codeVerifier, nonce };
  await insertOAuthState(ctx.db, {
    id: newId(),
    identifier: identifierOf(state),
    value: JSON.stringify(value),
    expiresAt: new Date(now.getTime() + STATE_LIFETIME_SECONDS * 1000),
    now,
  });
  return { state, codeVerifier, nonce };
}

/** Consumes a state (single use); null when it is unknown, already used or expired. */
export async function consumeOAuthState(ctx: AuthContext, state: string): Promise<OAuthStateData | null> {
  const row = await takeOAuthState(ctx.db, identifierOf(state));
  if (!row || row.expiresAt.getTime() <= ctx.now().getTime()) return null;
  try {
    return JSON.parse(row.value) as OAuthStateData;
  } catch {
    return null;
  }
}

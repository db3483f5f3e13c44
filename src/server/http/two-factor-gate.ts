import type { Context } from "hono";
import type { SignInMethod } from "../../contract/organization-policy.js";
import type { TwoFactorRedirectReply } from "../../contract/two-factor.js";
import { noteAuditChallenge } from "../audit/trail.service.js";
import { TwoFactorRequired } from "../services/sessions.js";
import { CHALLENGE_SECONDS, startTwoFactorChallenge } from "../services/two-factor.js";
import { writeSignedCookie } from "./cookies.js";
import type { AuthEnv } from "./env.js";

/**
 * Runs a sign-in. When it ends at the second-factor gate (TwoFactorRequired from createSession), the
 * browser gets a signed two-factor cookie naming a fresh challenge, and the caller gets better-auth's
 * `{twoFactorRedirect: true, twoFactorMethods}` to answer instead of a session.
 */
export async function signInOrChallenge<T>(
  c: Context<AuthEnv>,
  rememberMe: boolean,
  signIn: () => Promise<T>,
): Promise<T | TwoFactorRedirectReply> {
  try {
    return await signIn();
  } catch (error) {
    if (!(error instanceof TwoFactorRequired)) throw error;
    noteAuditChallenge(c.get("auth"), error.userId);
    return challenge(c, error.userId, rememberMe, error.signInMethod, error.signInProviderId);
  }
}

export async function challenge(
  c: Context<AuthEnv>,
  userId: string,
  rememberMe: boolean,
  signInMethod: SignInMethod | null = null,
  signInProviderId: string | null = null,
): Promise<TwoFactorRedirectReply> {
  const { token, reply } = await startTwoFactorChallenge(
    c.get("auth"),
    userId,
    rememberMe,
    signInMethod,
    signInProviderId,
  );
  writeSignedCookie(c, "two_factor", token, CHALLENGE_SECONDS);
  return reply;
}

export const isTwoFactorRedirect = (value: object): value is TwoFactorRedirectReply => "twoFactorRedirect" in value;

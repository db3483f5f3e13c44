import type { CredentialRule } from "../../contract/endpoints/define.js";
import type { SessionWithUser } from "../../contract/models.js";
import type { AuthContext } from "../context.js";
import { AuthError } from "../errors.js";
import { findCredentialPassword } from "../store/accounts.js";
import { findSessionProof, type ProofMethod, recordSessionProof } from "../store/session-proofs.js";
import { verifyPasswordOrDummy } from "./credentials.js";
import { checkPasswordUnderBrake } from "./sign-in-throttle.js";

/**
 * How long a proof of identity counts for adding a credential or factor. A session alone is no
 * proof: it may come from a sign-in link (the mailbox only), or be a stolen cookie.
 */
export const RECENT_PROOF_SECONDS = 300;

/**
 * The one check before every credential or factor change (the endpoint table's `credentials` rule).
 * Impersonation changes nothing that would outlive it; enrolment waits for a verified, non-guest
 * account (a squatter must not plant a factor); `reprove` and `enrol` need a recent proof: the body's
 * `password`, else one the session recorded (a provider-only user signs in through the provider again).
 */
export async function guardCredentialChange(
  ctx: AuthContext,
  caller: SessionWithUser,
  rule: CredentialRule,
  password: string | undefined,
): Promise<void> {
  if (caller.session.impersonatedBy) throw new AuthError("IMPERSONATION_NOT_ALLOWED");
  if (rule === "manage") return;
  if (rule === "enrol" && (!caller.user.emailVerified || caller.user.isAnonymous)) {
    throw new AuthError("EMAIL_NOT_VERIFIED");
  }
  if (password !== undefined) {
    await proveWithPassword(ctx, caller, password);
    return;
  }
  const proof = await findSessionProof(ctx.db, caller.session.id);
  const recentSince = ctx.now().getTime() - RECENT_PROOF_SECONDS * 1000;
  if (!proof || proof.provedAt.getTime() <= recentSince) throw new AuthError("REAUTHENTICATION_REQUIRED");
}

/** Checks the user's password and records it as the session's latest proof; INVALID_PASSWORD otherwise. */
export async function proveWithPassword(ctx: AuthContext, caller: SessionWithUser, password: string): Promise<void> {
  const stored = await findCredentialPassword(ctx.db, caller.user.id);
  const valid = await checkPasswordUnderBrake(ctx, caller.user.email, () =>
    verifyPasswordOrDummy(ctx.hasher, stored, password),
  );
  if (!valid) throw new AuthError("INVALID_PASSWORD");
  await noteProof(ctx, caller, "password");
}

/** A signed-in user just proved themselves on this session (a password, a TOTP code). */
export async function noteProof(ctx: AuthContext, caller: SessionWithUser, method: ProofMethod): Promise<void> {
  // An impersonation session is refused every credential change, so its proof would count for nothing.
  if (caller.session.impersonatedBy) return;
  await recordSessionProof(ctx.db, caller.session.id, method, ctx.now());
}

import type { Session, SessionWithUser, User } from "../../contract/models.js";
import { auditChange } from "../audit/trail.service.js";
import type { AuthContext } from "../context.js";
import { passwordChangedNotice } from "../email/templates.js";
import { AuthError } from "../errors.js";
import { findCredentialPassword, setCredentialPassword } from "../store/accounts.js";
import { isUniqueViolation } from "../store/database.js";
import { findUserById } from "../store/users.js";
import { deleteUserVerifications } from "../store/verifications.js";
import { assertNewPasswordAcceptable } from "./credentials.js";
import { RESET_PASSWORD_PREFIX } from "./password-reset.js";
import { createSession, type RequestMeta, revokeAllSessions } from "./sessions.js";
import { assertCurrentPassword } from "./sign-in-throttle.js";
import { forgetTrustedDevices } from "./trusted-devices.js";

export interface ChangePasswordInput {
  newPassword: string;
  currentPassword: string;
  revokeOtherSessions?: boolean;
}

/**
 * POST /change-password. With revokeOtherSessions every session ends, the caller's included, and a
 * new one replaces it (a stolen token stops working). Pending reset links die with the old password.
 */
export async function changePassword(
  ctx: AuthContext,
  caller: SessionWithUser,
  input: ChangePasswordInput,
  meta: RequestMeta,
  options: { rememberMe: boolean },
): Promise<{ user: User; session: Session | null }> {
  assertNewPasswordAcceptable(ctx, input.newPassword);
  const { user } = caller;
  await assertCurrentPassword(ctx, user, input.currentPassword);
  // Checked once the current password is proven, so a wrong one is always INVALID_PASSWORD.
  if (input.newPassword === input.currentPassword) throw new AuthError("NEW_PASSWORD_SAME_AS_CURRENT");
  const passwordHash = await ctx.hasher.hash(input.newPassword);
  const now = ctx.now();
  const session = await ctx.db.transaction().execute(async (trx) => {
    await setCredentialPassword(trx, user.id, passwordHash, now);
    await deleteUserVerifications(trx, user.id, RESET_PASSWORD_PREFIX);
    // A trusted device must not outlive the password it was trusted under.
    await forgetTrustedDevices(trx, user.id);
    await ctx.mail.enqueue(trx, passwordChangedNotice(meta.locale, user.email, "changed"));
    await auditChange(ctx, trx);
    if (!input.revokeOtherSessions) return null;
    await revokeAllSessions(ctx, trx, user.id);
    return createSession(ctx, trx, user.id, meta, {
      rememberMe: options.rememberMe,
      secondFactor: "rotation",
      proof: "password",
      signInMethod: "password",
    });
  });
  ctx.mail.wake();
  if (session) await ctx.revocations.revokeUser(user.id);
  return { user, session };
}

/**
 * Server-side only (not an HTTP route): gives a user without a credential password one, e.g. after a
 * social sign-up. USER_ALREADY_HAS_PASSWORD when they have one; the account's unique key decides races.
 */
export async function setPassword(ctx: AuthContext, userId: string, newPassword: string): Promise<void> {
  assertNewPasswordAcceptable(ctx, newPassword);
  const passwordHash = await ctx.hasher.hash(newPassword);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const user = await findUserById(trx, userId);
      if (!user) throw new AuthError("USER_NOT_FOUND");
      if (await findCredentialPassword(trx, userId)) throw new AuthError("USER_ALREADY_HAS_PASSWORD");
      await setCredentialPassword(trx, userId, passwordHash, ctx.now());
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AuthError("USER_ALREADY_HAS_PASSWORD");
    throw error;
  }
}

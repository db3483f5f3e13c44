import type { User } from "../../contract/models.js";
import type { Locale } from "../../i18n/index.js";
import { auditChange } from "../audit/trail.service.js";
import type { AuthContext } from "../context.js";
import { apiURL } from "../context.js";
import { sha256Base64Url } from "../crypto/digest.js";
import { randomString } from "../crypto/random.js";
import { factorChangedNotice, passwordChangedNotice, resetPasswordMail } from "../email/templates.js";
import { AuthError } from "../errors.js";
import { setCredentialPassword } from "../store/accounts.js";
import type { DB } from "../store/database.js";
import { deleteUserPasskeys } from "../store/passkeys.js";
import { findUserByEmail, findUserById } from "../store/users.js";
import { consumeVerification, deleteUserVerifications, findVerification } from "../store/verifications.js";
import { assertNewPasswordAcceptable, normalizeEmail } from "./credentials.js";
import { adoptUnprovenAccount } from "./mailbox-proof.js";
import { issueMailedToken } from "./mailed-tokens.js";
import { revokeAllSessions } from "./sessions.js";
import { clearSignInFailures } from "./sign-in-throttle.js";
import { atLeast } from "./timing.js";
import { forgetTrustedDevices } from "./trusted-devices.js";

export const RESET_PASSWORD_PREFIX = "reset-password:";

/** Reset tokens are 24 alphanumeric characters (SPEC 9); only their SHA-256 is stored. */
export const resetIdentifier = (token: string) => `${RESET_PASSWORD_PREFIX}${sha256Base64Url(token)}`;

/** The reset page, as a path when it is on BASE_URL (the link stays as short as it always was). */
function resetPage(ctx: AuthContext): string {
  const page = ctx.pages.resetPassword({});
  return page.startsWith(`${ctx.baseURL}/`) ? page.slice(ctx.baseURL.length) : page;
}

/**
 * POST /request-password-reset (and /forget-password). Same answer, in the same time, for known and
 * unknown emails; a known user gets a single-use link valid for resetPasswordTokenExpiresIn.
 */
export async function requestPasswordReset(
  ctx: AuthContext,
  input: { email: string; redirectTo?: string },
  locale: Locale,
) {
  const { sendResetPassword, resetPasswordTokenExpiresIn } = ctx.options.emailAndPassword;
  if (!sendResetPassword) throw new AuthError("RESET_PASSWORD_DISABLED");
  const email = normalizeEmail(input.email);
  await atLeast(ctx.enumerationSafeAnswerMs, async () => {
    const user = await findUserByEmail(ctx.db, email);
    if (!user) return;
    const token = randomString(24);
    // Without a redirectTo, the link lands on the application's reset page (options.pages).
    const callbackURL = encodeURIComponent(input.redirectTo || resetPage(ctx));
    const url = apiURL(ctx, `/reset-password/${token}?callbackURL=${callbackURL}`);
    await issueMailedToken(ctx, {
      identifier: resetIdentifier(token),
      value: user.id,
      expiresInSeconds: resetPasswordTokenExpiresIn,
      mail: resetPasswordMail(locale, user.email, url, resetPasswordTokenExpiresIn),
    });
  });
}

/** Whether the link's token is live (GET /reset-password/:token only looks; it does not consume). */
export async function isResetTokenLive(ctx: AuthContext, token: string): Promise<boolean> {
  const found = await findVerification(ctx.db, resetIdentifier(token));
  return found !== null && found.expiresAt.getTime() > ctx.now().getTime();
}

/**
 * POST /reset-password, in one transaction: take the token (single use even under races), set the
 * password, drop the user's other reset links, end their sessions (revokeSessionsOnPasswordReset),
 * and tell the address that the password changed.
 */
export async function resetPassword(
  ctx: AuthContext,
  input: { newPassword: string; token?: string },
  locale: Locale,
): Promise<MailedPasswordReset> {
  const { token } = input;
  if (!token) throw new AuthError("INVALID_TOKEN");
  return setPasswordWithMailedProof(ctx, input.newPassword, locale, async (trx, now) => {
    const found = await consumeVerification(trx, resetIdentifier(token));
    if (!found || found.expiresAt.getTime() <= now.getTime()) throw new AuthError("INVALID_TOKEN");
    const user = await findUserById(trx, found.value);
    if (!user) throw new AuthError("USER_NOT_FOUND");
    return user;
  });
}

export interface MailedPasswordReset {
  /** The account had never proven its address and lost what was set up on it (the owner was mailed). */
  credentialsRemoved: boolean;
}

/**
 * A new password for the user a mailed proof names (a reset link's token, or a code), in the
 * transaction that takes the proof: an account that had never proven its address is adopted first
 * (adoptUnprovenAccount), other reset links die, trusted devices and passkeys are forgotten,
 * sessions end (revokeSessionsOnPasswordReset), and the owner is told by mail.
 */
export async function setPasswordWithMailedProof(
  ctx: AuthContext,
  newPassword: string,
  locale: Locale,
  takeProof: (trx: DB, now: Date) => Promise<User>,
): Promise<MailedPasswordReset> {
  assertNewPasswordAcceptable(ctx, newPassword);
  const passwordHash = await ctx.hasher.hash(newPassword);
  const now = ctx.now();
  const revokeOnReset = ctx.options.emailAndPassword.revokeSessionsOnPasswordReset;
  const { user, credentialsRemoved, revokedSessions } = await ctx.db.transaction().execute(async (trx) => {
    const proven = await takeProof(trx, now);
    const adopted = proven.emailVerified
      ? { user: proven, credentialsRemoved: false, revokedSessions: false }
      : await adoptUnprovenAccount(ctx, trx, proven, { proof: "password-reset", locale });
    const { user } = adopted;
    await setCredentialPassword(trx, user.id, passwordHash, now);
    await deleteUserVerifications(trx, user.id, RESET_PASSWORD_PREFIX);
    // A trusted device must not outlive the password it was trusted under.
    await forgetTrustedDevices(trx, user.id);
    // Nor a passkey: whoever held the old password (a squatter whose sign-up the owner confirmed by
    // clicking its mail) could add one, and only this proof says who owns the mailbox.
    if ((await deleteUserPasskeys(trx, user.id)) > 0) {
      await ctx.mail.enqueue(trx, factorChangedNotice(locale, user.email, "passkeyRemoved"));
    }
    if (revokeOnReset) await revokeAllSessions(ctx, trx, user.id);
    await ctx.mail.enqueue(trx, passwordChangedNotice(locale, user.email, "reset"));
    await auditChange(ctx, trx, { subjectId: user.id });
    return { ...adopted, revokedSessions: adopted.revokedSessions || revokeOnReset };
  });
  ctx.mail.wake();
  // Whoever proved they own the mailbox may sign in at once, even if someone was guessing meanwhile.
  await clearSignInFailures(ctx, user.email);
  if (revokedSessions) await ctx.revocations.revokeUser(user.id);
  return { credentialsRemoved };
}

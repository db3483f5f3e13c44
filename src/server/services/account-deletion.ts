import type { SessionWithUser } from "../../contract/models.js";
import type { Locale } from "../../i18n/index.js";
import type { AuthContext } from "../context.js";
import { apiURL } from "../context.js";
import { sha256Base64Url } from "../crypto/digest.js";
import { LOWER_ALPHANUMERIC, randomString } from "../crypto/random.js";
import { deleteAccountMail } from "../email/templates.js";
import { AuthError } from "../errors.js";
import type { DB } from "../store/database.js";
import { consumeVerification } from "../store/verifications.js";
import { deleteUserRows } from "./hooked-writes.js";
import { issueMailedToken } from "./mailed-tokens.js";
import { queueLogoutsOfDeletedUser } from "./oauth-provider/backchannel-logout.js";
import { assertAccountDeletable, releaseMemberships } from "./ownership.js";
import { isSessionFresh } from "./sessions.js";
import { assertCurrentPassword } from "./sign-in-throttle.js";

/** Delete tokens are 32 characters of digits and lowercase letters (SPEC 9); only their SHA-256 is stored. */
const deleteIdentifier = (token: string) => `delete-account-${sha256Base64Url(token)}`;

export type DeleteUserOutcome = "deleted" | "verification-sent";

/**
 * POST /delete-user. Proof, in this order: a wrong password refuses; an emailed token deletes at
 * once; with sendDeleteAccountVerification a link is mailed instead; otherwise the right password or
 * a session fresher than freshAge deletes.
 */
export async function deleteUser(
  ctx: AuthContext,
  caller: SessionWithUser,
  input: { password?: string; token?: string; callbackURL?: string },
  locale: Locale,
): Promise<DeleteUserOutcome> {
  const { sendDeleteAccountVerification, deleteTokenExpiresIn } = ctx.options.user.deleteUser;
  const { user, session } = caller;
  if (input.password) {
    if (input.password.length > ctx.options.emailAndPassword.maxPasswordLength)
      throw new AuthError("PASSWORD_TOO_LONG");
    await assertCurrentPassword(ctx, user, input.password);
  }
  if (input.token) {
    await deleteUserWithToken(ctx, user.id, input.token);
    return "deleted";
  }
  if (sendDeleteAccountVerification) {
    // A link that could only be refused is not mailed.
    await assertAccountDeletable(ctx, user.id);
    const token = randomString(32, LOWER_ALPHANUMERIC);
    const callbackURL = encodeURIComponent(input.callbackURL || "/");
    const url = apiURL(ctx, `/delete-user/callback?token=${token}&callbackURL=${callbackURL}`);
    await issueMailedToken(ctx, {
      identifier: deleteIdentifier(token),
      value: user.id,
      expiresInSeconds: deleteTokenExpiresIn,
      mail: deleteAccountMail(locale, user.email, url, deleteTokenExpiresIn),
    });
    return "verification-sent";
  }
  if (!input.password) {
    // freshAge 0 switches freshness off: then no session is proof enough to delete an account.
    if (ctx.options.session.freshAge === 0) throw new AuthError("USER_CANNOT_BE_DELETED");
    if (!isSessionFresh(ctx, session)) throw new AuthError("SESSION_EXPIRED");
  }
  await deleteUserEverywhere(ctx, user.id);
  return "deleted";
}

/** Deletes the user and what they own in one transaction, then refuses every cached copy of their sessions. */
export async function deleteUserEverywhere(ctx: AuthContext, userId: string): Promise<void> {
  await ctx.db.transaction().execute((trx) => deleteAccountRows(ctx, trx, userId));
  await ctx.revocations.revokeUser(userId);
}

/**
 * Every account deletion's step inside its transaction: the organization owner rules first
 * (refused while the user is an organization's only owner; organizations only they belong to go
 * with them), then the user and what they own. Answers the ids of the organizations deleted.
 */
export async function deleteAccountRows(ctx: AuthContext, trx: DB, userId: string): Promise<string[]> {
  const deletedOrganizationIds = await releaseMemberships(ctx, trx, userId);
  await queueLogoutsOfDeletedUser(ctx, trx, userId);
  await ctx.webhooks.enqueue(trx, "user.deleted", await deleteUserRows(ctx, trx, userId));
  return deletedOrganizationIds;
}

/**
 * Takes the emailed token (only one issued to this user: another user's token stays intact) and
 * deletes the user in the same transaction. 404 INVALID_TOKEN otherwise, as the reference answers.
 */
export async function deleteUserWithToken(ctx: AuthContext, userId: string, token: string): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    const found = await consumeVerification(trx, deleteIdentifier(token), { value: userId });
    if (!found || found.expiresAt.getTime() <= now.getTime()) throw new AuthError("INVALID_TOKEN", { status: 404 });
    await deleteAccountRows(ctx, trx, userId);
  });
  await ctx.revocations.revokeUser(userId);
}

import type { User } from "../../contract/models.js";
import type { Locale } from "../../i18n/index.js";
import { auditedChange } from "../audit/trail.service.js";
import type { AuthContext } from "../context.js";
import { confirmEmailChangeMail, emailChangedNotice, verifyNewEmailMail } from "../email/templates.js";
import { AuthError } from "../errors.js";
import { isUniqueViolation } from "../store/database.js";
import { findUserByEmail, moveUserEmail } from "../store/users.js";
import { normalizeEmail } from "./credentials.js";
import { verifyEmailLink } from "./verification-links.js";

/**
 * POST /change-email. A verified address changes only through a link to the current address first
 * (with sendChangeEmailConfirmation); otherwise the link goes straight to the new address. Nothing
 * changes until a link is followed.
 */
export async function requestEmailChange(
  ctx: AuthContext,
  user: User,
  input: { newEmail: string; callbackURL?: string },
  locale: Locale,
): Promise<void> {
  const { enabled, sendChangeEmailConfirmation } = ctx.options.user.changeEmail;
  if (!enabled) throw new AuthError("CHANGE_EMAIL_DISABLED");
  const newEmail = normalizeEmail(input.newEmail);
  if (newEmail === user.email) throw new AuthError("EMAIL_IS_THE_SAME");
  if (!ctx.options.emailVerification.sendVerificationEmail) throw new AuthError("VERIFICATION_EMAIL_NOT_ENABLED");
  if (await findUserByEmail(ctx.db, newEmail)) throw new AuthError("COULD_NOT_UPDATE_EMAIL");

  if (user.emailVerified && sendChangeEmailConfirmation) {
    const claims = {
      email: user.email,
      userId: user.id,
      updateTo: newEmail,
      requestType: "change-email-confirmation" as const,
    };
    const url = await verifyEmailLink(ctx, claims, input.callbackURL);
    const expiresIn = ctx.options.emailVerification.expiresIn;
    const mail = confirmEmailChangeMail(locale, user.email, newEmail, url, expiresIn);
    await auditedChange(ctx, (db) => ctx.mail.enqueue(db, mail));
    ctx.mail.wake();
    return;
  }
  await sendNewAddressLink(ctx, user, newEmail, locale, input.callbackURL, true);
}

/** Mails the new address the link that applies the change (step two for verified users). */
export async function sendNewAddressLink(
  ctx: AuthContext,
  user: User,
  newEmail: string,
  locale: Locale,
  callbackURL?: string,
  /** Step one (the request itself): the queued mail is the change its audit entry commits with. */
  isRequest = false,
): Promise<void> {
  if (await findUserByEmail(ctx.db, newEmail)) throw new AuthError("COULD_NOT_UPDATE_EMAIL");
  const claims = {
    email: user.email,
    userId: user.id,
    updateTo: newEmail,
    requestType: "change-email-verification" as const,
    ...(user.emailVerified ? {} : { fromUnverified: true as const }),
  };
  const url = await verifyEmailLink(ctx, claims, callbackURL);
  const mail = verifyNewEmailMail(locale, newEmail, url, ctx.options.emailVerification.expiresIn);
  if (isRequest) await auditedChange(ctx, (db) => ctx.mail.enqueue(db, mail));
  else await ctx.mail.enqueue(ctx.db, mail);
  ctx.mail.wake();
}

/**
 * Moves the email; following the link proves the new mailbox, so the address ends verified. The old
 * address is told (ASVS 2.2.3). Whoever took the address meanwhile wins: the unique index decides.
 */
export async function applyEmailChange(ctx: AuthContext, user: User, newEmail: string, locale: Locale): Promise<User> {
  try {
    const updated = await ctx.db.transaction().execute(async (trx) => {
      const moved = await moveUserEmail(
        trx,
        user.id,
        { fromEmail: user.email, toEmail: newEmail, verified: true },
        ctx.now(),
      );
      if (!moved) throw new AuthError("INVALID_TOKEN", { status: 401 });
      await ctx.webhooks.enqueue(trx, "user.updated", moved);
      await ctx.mail.enqueue(trx, emailChangedNotice(locale, user.email, newEmail));
      return moved;
    });
    ctx.mail.wake();
    return updated;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AuthError("COULD_NOT_UPDATE_EMAIL");
    throw error;
  }
}

import { type OtpType, otpType } from "../../contract/passwordless.js";
import { auditChange } from "../audit/trail.service.js";
import type { AuthContext } from "../context.js";
import { newId } from "../crypto/random.js";
import type { ActionMail } from "../email/layout.js";
import { insertVerification } from "../store/verifications.js";

/**
 * A single-use token sent by mail: its identifier (a hash of the token, never the token) is stored
 * with the user it names and the mail carrying it is queued in one transaction, so there is never a
 * token without its mail or a mail whose token was not stored. Delivery starts after the commit.
 */
export async function issueMailedToken(
  ctx: AuthContext,
  token: {
    identifier: string;
    /** What the token stands for: the user id, or (magic link) the address and name it signs in. */
    value: string;
    expiresInSeconds: number;
    mail: ActionMail;
  },
): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    await insertVerification(trx, {
      id: newId(),
      identifier: token.identifier,
      value: token.value,
      expiresAt: new Date(now.getTime() + token.expiresInSeconds * 1000),
      now,
    });
    await ctx.mail.enqueue(trx, token.mail);
    // An audited request (a password reset asked for) records its entry with the token it issued.
    await auditChange(ctx, trx);
  });
  ctx.mail.wake();
}

/** Where the live code mailed to an address for one purpose is kept (email-otp). */
export const otpIdentifier = (type: OtpType, email: string) => `email-otp:${type}:${email}`;

/** The codes of every purpose that may be waiting for the address. */
export const mailedCodeIdentifiers = (email: string) => otpType.options.map((type) => otpIdentifier(type, email));

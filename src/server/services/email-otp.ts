import type { SessionWithUser, User } from "../../contract/models.js";
import type { OtpType } from "../../contract/passwordless.js";
import type { Locale } from "../../i18n/index.js";
import type { AuthContext } from "../context.js";
import { safeEqual, sha256Base64Url } from "../crypto/digest.js";
import { DIGITS, newId, randomString } from "../crypto/random.js";
import { emailCodeMail } from "../email/templates.js";
import { AuthError } from "../errors.js";
import { claimAttempt, releaseAttempt } from "../store/attempt-counters.js";
import type { DB } from "../store/database.js";
import { findUserByEmail } from "../store/users.js";
import { consumeVerification, findVerification, replaceVerification } from "../store/verifications.js";
import { normalizeEmail } from "./credentials.js";
import { claimMailboxOwner, openMailboxOwnerSession, verifyUnprovenAccount } from "./mailbox-proof.js";
import { otpIdentifier } from "./mailed-tokens.js";
import { type MailedPasswordReset, setPasswordWithMailedProof } from "./password-reset.js";
import { createSession, type RequestMeta } from "./sessions.js";
import { atLeast } from "./timing.js";

/**
 * Codes by mail (better-auth's email-otp wire). One live code per address and purpose, stored as
 * `<sha256(code)>:0` under otpIdentifier (the count once kept after the colon now lives in
 * store/attempt-counters.ts); a new code replaces the old one.
 */

const storedDigest = (value: string) => value.slice(0, value.lastIndexOf(":"));

/** Guesses count per code: a new code starts afresh, as it always did. */
const guessKey = (identifier: string, digest: string) => `${identifier}:${digest}`;

/**
 * POST /email-otp/send-verification-otp (and /forget-password/email-otp). The same answer in the
 * same time whether or not a code went out: none goes to an unknown address unless it may sign up.
 */
export async function sendEmailOtp(
  ctx: AuthContext,
  input: { email: string; type: OtpType },
  locale: Locale,
): Promise<void> {
  const email = normalizeEmail(input.email);
  const { disableSignUp } = ctx.options.emailOTP;
  await atLeast(ctx.enumerationSafeAnswerMs, async () => {
    const user = await findUserByEmail(ctx.db, email);
    if (!user && (input.type !== "sign-in" || disableSignUp)) return;
    if (user && input.type === "email-verification" && user.emailVerified) return;
    await ctx.db.transaction().execute((trx) => enqueueEmailOtp(ctx, trx, email, input.type, locale));
    ctx.mail.wake();
  });
}

/** A fresh code for an address and purpose, and its mail, on `db` (the caller's transaction). */
export async function enqueueEmailOtp(
  ctx: AuthContext,
  db: DB,
  email: string,
  type: OtpType,
  locale: Locale,
): Promise<void> {
  const { otpLength, expiresIn } = ctx.options.emailOTP;
  const code = randomString(otpLength, DIGITS);
  const now = ctx.now();
  // Past the address's mail cap the code already mailed stays the live one: replacing it with one
  // nobody received would lock its owner out (and parallel replacements would collide).
  if (!(await ctx.mail.enqueue(db, emailCodeMail(locale, email, code, type, expiresIn)))) return;
  await replaceVerification(db, {
    id: newId(),
    identifier: otpIdentifier(type, email),
    value: `${sha256Base64Url(code)}:0`,
    expiresAt: new Date(now.getTime() + expiresIn * 1000),
    now,
  });
}

/**
 * Checks a code against the live one. Each guess first claims one of allowedAttempts (so parallel
 * guesses cannot all be checked); when none is left the code dies. A right code that is not used up
 * gives its claim back, so checking before using it costs no attempt. With `consume`, a right code
 * is taken, once.
 */
async function checkOtp(
  ctx: AuthContext,
  db: DB,
  input: { email: string; type: OtpType; otp: string },
  consume: boolean,
): Promise<void> {
  const identifier = otpIdentifier(input.type, input.email);
  const stored = await findVerification(db, identifier);
  if (!stored) throw new AuthError("INVALID_OTP");
  if (stored.expiresAt.getTime() <= ctx.now().getTime()) {
    await consumeVerification(db, identifier, { value: stored.value });
    throw new AuthError("OTP_EXPIRED");
  }
  const digest = storedDigest(stored.value);
  const key = guessKey(identifier, digest);
  const limit = { limit: ctx.options.emailOTP.allowedAttempts, expiresAt: stored.expiresAt };
  if ((await claimAttempt(db, key, ctx.now(), limit)) === null) {
    await consumeVerification(db, identifier, { value: stored.value });
    throw new AuthError("TOO_MANY_ATTEMPTS");
  }
  if (!safeEqual(sha256Base64Url(input.otp), digest)) throw new AuthError("INVALID_OTP");
  if (!consume) return releaseAttempt(db, key);
  if (!(await consumeVerification(db, identifier, { value: stored.value }))) throw new AuthError("INVALID_OTP");
}

/** POST /email-otp/check-verification-otp: right or wrong, without using the code up. */
export async function checkEmailOtp(ctx: AuthContext, input: { email: string; type: OtpType; otp: string }) {
  await checkOtp(ctx, ctx.db, { ...input, email: normalizeEmail(input.email) }, false);
}

/** POST /sign-in/email-otp: the mailbox's owner (signed up if new) gets a session, through the two-factor gate. */
export async function signInWithEmailOtp(
  ctx: AuthContext,
  input: { email: string; otp: string; name?: string },
  meta: RequestMeta,
  guest: SessionWithUser | null,
): Promise<SessionWithUser & { credentialsRemoved: boolean }> {
  const email = normalizeEmail(input.email);
  // A wrong guess must be counted even though the sign-in fails, so the check commits on its own.
  await checkOtp(ctx, ctx.db, { email, type: "sign-in", otp: input.otp }, true);
  const owner = await ctx.db.transaction().execute((trx) =>
    claimMailboxOwner(ctx, trx, {
      email,
      name: input.name,
      disableSignUp: ctx.options.emailOTP.disableSignUp,
      refusal: "INVALID_OTP",
      proof: "email-code",
      locale: meta.locale,
    }),
  );
  const data = await openMailboxOwnerSession(ctx, owner, meta, guest, "email-otp");
  return { ...data, credentialsRemoved: owner.credentialsRemoved };
}

/** POST /email-otp/verify-email: the address is verified; with autoSignInAfterVerification, a session too. */
export async function verifyEmailWithOtp(
  ctx: AuthContext,
  input: { email: string; otp: string },
  meta: RequestMeta,
): Promise<{ user: User; session: SessionWithUser["session"] | null }> {
  const email = normalizeEmail(input.email);
  await checkOtp(ctx, ctx.db, { email, type: "email-verification", otp: input.otp }, true);
  const found = await findUserByEmail(ctx.db, email);
  if (!found) throw new AuthError("USER_NOT_FOUND");
  const user = found.emailVerified
    ? found
    : await ctx.db.transaction().execute((trx) => verifyUnprovenAccount(ctx, trx, found, meta.locale));
  ctx.mail.wake();
  if (!ctx.options.emailVerification.autoSignInAfterVerification) return { user, session: null };
  const session = await createSession(ctx, ctx.db, user.id, meta, {
    rememberMe: true,
    knownUser: user,
    signInMethod: "email-otp",
  });
  return { user, session };
}

/**
 * POST /email-otp/reset-password: a new password with a mailed code; the address counts as verified
 * (an account that had never proven it is adopted: setPasswordWithMailedProof).
 */
export async function resetPasswordWithEmailOtp(
  ctx: AuthContext,
  input: { email: string; otp: string; password: string },
  locale: Locale,
): Promise<MailedPasswordReset> {
  const email = normalizeEmail(input.email);
  // Checked first on its own, so a wrong guess is counted (the transaction below would roll it back).
  await checkOtp(ctx, ctx.db, { email, type: "forget-password", otp: input.otp }, false);
  return setPasswordWithMailedProof(ctx, input.password, locale, async (trx) => {
    await checkOtp(ctx, trx, { email, type: "forget-password", otp: input.otp }, true);
    const user = await findUserByEmail(trx, email);
    if (!user) throw new AuthError("INVALID_OTP");
    return user;
  });
}

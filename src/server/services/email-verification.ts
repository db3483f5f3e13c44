import type { Session, SessionWithUser, User } from "../../contract/models.js";
import type { Locale } from "../../i18n/index.js";
import type { AuthContext } from "../context.js";
import { checkEmailToken, type EmailTokenClaims } from "../crypto/email-token.js";
import { verifyEmailMail } from "../email/templates.js";
import { AuthError } from "../errors.js";
import type { DB } from "../store/database.js";
import { findUserByEmail } from "../store/users.js";
import { applyEmailChange, sendNewAddressLink } from "./change-email.js";
import { normalizeEmail } from "./credentials.js";
import { enqueueEmailOtp } from "./email-otp.js";
import { verifyUnprovenAccount } from "./mailbox-proof.js";
import { createSession, type RequestMeta } from "./sessions.js";
import { atLeast } from "./timing.js";
import { verifyEmailLink } from "./verification-links.js";

/** At most one verification mail per user per this many seconds from a refused sign-in. */
const SIGN_IN_RESEND_WINDOW_SECONDS = 60;

/**
 * Writes the verification mail to the outbox on `db` (the caller's transaction); wake the outbox
 * after the commit. A code instead of a link with emailOTP.overrideDefaultEmailVerification (or, at
 * sign-up, emailOTP.sendVerificationOnSignUp); the code is used at /email-otp/verify-email.
 */
export async function enqueueVerificationMail(
  ctx: AuthContext,
  db: DB,
  user: Pick<User, "id" | "email">,
  locale: Locale,
  callbackURL?: string,
  options: { signUp?: boolean } = {},
): Promise<void> {
  const otp = ctx.options.emailOTP;
  if (otp.enabled && (otp.overrideDefaultEmailVerification || (options.signUp && otp.sendVerificationOnSignUp))) {
    await enqueueEmailOtp(ctx, db, user.email, "email-verification", locale);
    return;
  }
  const url = await verifyEmailLink(ctx, { email: user.email, userId: user.id }, callbackURL);
  await ctx.mail.enqueue(db, verifyEmailMail(locale, user.email, url, ctx.options.emailVerification.expiresIn));
}

export function sendsVerificationOnSignUp(ctx: AuthContext): boolean {
  const { sendVerificationEmail, sendOnSignUp } = ctx.options.emailVerification;
  const otp = ctx.options.emailOTP;
  return (sendVerificationEmail && sendOnSignUp) || (otp.enabled && otp.sendVerificationOnSignUp);
}

/**
 * With sendOnSignIn, a sign-in refused for an unverified email mails the link again, at most once a
 * minute per user so repeated sign-in attempts cannot flood the mailbox.
 */
export async function resendVerificationOnSignIn(
  ctx: AuthContext,
  user: User,
  locale: Locale,
  callbackURL?: string,
): Promise<void> {
  const { sendVerificationEmail, sendOnSignIn } = ctx.options.emailVerification;
  if (!sendVerificationEmail || !sendOnSignIn) return;
  const key = `verification-mail-on-sign-in:${user.id}`;
  const decision = await ctx.rateLimitStore.hit(key, SIGN_IN_RESEND_WINDOW_SECONDS, 1, ctx.now().getTime());
  if (!decision.allowed) return;
  await enqueueVerificationMail(ctx, ctx.db, user, locale, callbackURL);
  ctx.mail.wake();
}

/**
 * POST /send-verification-email. Signed in: only for the caller's own unverified email. Signed out:
 * the same answer, in the same time, whether or not the email belongs to an unverified user.
 */
export async function sendVerificationEmail(
  ctx: AuthContext,
  input: { email: string; callbackURL?: string },
  caller: SessionWithUser | null,
  locale: Locale,
): Promise<void> {
  if (!ctx.options.emailVerification.sendVerificationEmail) throw new AuthError("VERIFICATION_EMAIL_NOT_ENABLED");
  const email = normalizeEmail(input.email);
  if (caller) {
    if (caller.user.email !== email) throw new AuthError("EMAIL_MISMATCH");
    if (caller.user.emailVerified) throw new AuthError("EMAIL_ALREADY_VERIFIED");
    await enqueueVerificationMail(ctx, ctx.db, caller.user, locale, input.callbackURL);
    ctx.mail.wake();
    return;
  }
  await atLeast(ctx.enumerationSafeAnswerMs, async () => {
    const user = await findUserByEmail(ctx.db, email);
    if (!user || user.emailVerified) return;
    await enqueueVerificationMail(ctx, ctx.db, user, locale, input.callbackURL);
    ctx.mail.wake();
  });
}

export type VerifyEmailOutcome =
  /** The email is verified; `session` is new when autoSignInAfterVerification signed the user in. */
  | { kind: "verified"; user: User; session: Session | null }
  /** A verified user approved a change from the current address; a link went to the new one. */
  | { kind: "change-confirmed" }
  | { kind: "email-changed"; user: User }
  /** The link would sign in, but it came as a navigation: nothing done, the app's page confirms it. */
  | { kind: "confirm" };

/** Verify-email failures carry 401 (SPEC 8); the route turns them into `?error=` redirects when it can. */
const refuse = (code: "INVALID_TOKEN" | "TOKEN_EXPIRED" | "USER_NOT_FOUND" | "UNAUTHORIZED") =>
  new AuthError(code, { status: 401 });

/**
 * /verify-email: checks the token, its user, and that a signed-in caller is that user, then
 * performs the step the token names (plain verification or one of the two email-change steps).
 * `confirmed`: the request is the app's confirmation form or a trusted script's fetch, not a link
 * that any site can aim at a browser; only then may the verification sign the browser in.
 */
export async function verifyEmail(
  ctx: AuthContext,
  input: { token: string; callbackURL?: string },
  caller: SessionWithUser | null,
  meta: RequestMeta,
  confirmed: boolean,
): Promise<VerifyEmailOutcome> {
  const check = await checkEmailToken(ctx.secret, input.token, ctx.now());
  if (check.status === "expired") throw refuse("TOKEN_EXPIRED");
  if (check.status === "invalid") throw refuse("INVALID_TOKEN");
  const { claims } = check;
  const user = await findUserByEmail(ctx.db, claims.email);
  if (!user) throw refuse("USER_NOT_FOUND");
  if (user.id !== claims.userId) throw refuse("INVALID_TOKEN");
  if (caller && caller.user.id !== user.id) throw refuse("UNAUTHORIZED");

  if (claims.requestType === "change-email-confirmation") {
    await sendNewAddressLink(ctx, user, requireNewEmail(claims), meta.locale, input.callbackURL);
    return { kind: "change-confirmed" };
  }
  if (claims.requestType === "change-email-verification") {
    // Asked for before the address was proven, perhaps by whoever registered it first: the proof ended it.
    if (claims.fromUnverified && user.emailVerified) throw refuse("INVALID_TOKEN");
    return { kind: "email-changed", user: await applyEmailChange(ctx, user, requireNewEmail(claims), meta.locale) };
  }
  return markVerified(ctx, user, { signIn: caller === null, confirmed }, meta);
}

function requireNewEmail(claims: EmailTokenClaims): string {
  if (!claims.updateTo) throw refuse("INVALID_TOKEN");
  return claims.updateTo;
}

/**
 * Sets emailVerified, dropping what was enrolled on the unproven account beyond its sign-up
 * (verifyUnprovenAccount). Signing in happens only on the link's first use: a replayed link (say,
 * from a mailbox someone else later reads) verifies nothing new and opens no session. A first use that
 * would sign in but is not `confirmed` does nothing yet (login CSRF: the link may be someone else's).
 */
async function markVerified(
  ctx: AuthContext,
  user: User,
  options: { signIn: boolean; confirmed: boolean },
  meta: RequestMeta,
): Promise<VerifyEmailOutcome> {
  if (user.emailVerified) return { kind: "verified", user, session: null };
  // A link in a mailbox is one factor: a user with two-factor on signs in the usual way instead
  // (decided before the proof strips factors enrolled while unproven, so no unconfirmed link signs in).
  const signIn = options.signIn && ctx.options.emailVerification.autoSignInAfterVerification && !user.twoFactorEnabled;
  if (signIn && !options.confirmed) return { kind: "confirm" };
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    const updated = await verifyUnprovenAccount(ctx, trx, user, meta.locale);
    const session = signIn
      ? await createSession(ctx, trx, user.id, meta, { rememberMe: true, signInMethod: "magic-link" })
      : null;
    return { kind: "verified" as const, user: updated, session };
  });
  ctx.mail.wake();
  return outcome;
}

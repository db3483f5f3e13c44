import type { Session, SessionWithUser, User } from "../../contract/models.js";
import { noteAudit } from "../audit/trail.service.js";
import type { AuthContext } from "../context.js";
import { newId } from "../crypto/random.js";
import { AuthError } from "../errors.js";
import { updateCredentialPassword } from "../store/accounts.js";
import { isUniqueViolation } from "../store/database.js";
import { findUserWithPasswordByEmail } from "../store/users.js";
import { type FieldSource, readFieldInput } from "./additional-fields.js";
import { retireAnonymousUser } from "./anonymous.js";
import { assertNewPasswordAcceptable, normalizeEmail, verifyPasswordOrDummy } from "./credentials.js";
import {
  enqueueVerificationMail,
  resendVerificationOnSignIn,
  sendsVerificationOnSignUp,
} from "./email-verification.js";
import { createCredentialAccount, createUserRow } from "./hooked-writes.js";
import { createSession, type RequestMeta } from "./sessions.js";
import { beginSignInAttempt } from "./sign-in-throttle.js";

export interface SignUpInput {
  name: string;
  email: string;
  password: string;
  image?: string | null;
  rememberMe: boolean;
  /** Where the verification link sends the browser (emailVerification.sendOnSignUp). */
  callbackURL?: string;
  /** The guest session the browser held, if any: its work moves to this user once they are signed in. */
  guest?: SessionWithUser | null;
  /** Where the app's own user fields are read from (the request body), and who sent them. */
  additional?: { from: unknown; source: FieldSource };
}

export interface SignUpResult {
  user: User;
  /** Null when the user must verify first or autoSignIn is off. */
  session: Session | null;
  /** True when the account was really created (false for the enumeration-safe answer to a taken email). */
  created: boolean;
}

/**
 * Creates the user, their credential account and (with autoSignIn) a session, in one transaction.
 * A taken email is decided by the unique index, so two racing sign-ups create one user.
 */
export async function signUpEmail(ctx: AuthContext, input: SignUpInput, meta: RequestMeta): Promise<SignUpResult> {
  const { enabled, disableSignUp, requireEmailVerification, autoSignIn } = ctx.options.emailAndPassword;
  if (!enabled || disableSignUp) throw new AuthError("EMAIL_PASSWORD_SIGN_UP_DISABLED");
  const email = normalizeEmail(input.email);
  assertNewPasswordAcceptable(ctx, input.password);
  const fieldValues = readFieldInput(ctx.fields.user, input.additional?.from, {
    creating: true,
    source: input.additional?.source ?? "client",
  });
  const name = input.name.trim();
  const passwordHash = await ctx.hasher.hash(input.password);
  const signInNow = autoSignIn && !requireEmailVerification;
  const now = ctx.now();

  let result: SignUpResult;
  try {
    result = await ctx.db.transaction().execute(async (trx) => {
      const user = await createUserRow(ctx, trx, {
        id: newId(),
        name,
        email,
        emailVerified: false,
        image: input.image ?? null,
        role: ctx.options.admin.defaultRole,
        now,
        fields: { spec: ctx.fields.user, values: fieldValues },
      });
      await ctx.webhooks.enqueue(trx, "user.created", user);
      await createCredentialAccount(ctx, trx, { id: newId(), userId: user.id, passwordHash, now });
      if (sendsVerificationOnSignUp(ctx)) {
        await enqueueVerificationMail(ctx, trx, user, meta.locale, input.callbackURL, { signUp: true });
      }
      const session = signInNow
        ? await createSession(ctx, trx, user.id, meta, {
            rememberMe: input.rememberMe,
            knownUser: user,
            proof: "password",
            signInMethod: "password",
          })
        : null;
      return { user, session, created: true };
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // When sign-up does not sign in, answer a taken email exactly like a new one: no enumeration.
    if (!signInNow) {
      const synthetic: User = {
        id: newId(),
        name,
        email,
        emailVerified: false,
        image: input.image ?? null,
        isAnonymous: false,
        twoFactorEnabled: false,
        role: ctx.options.admin.defaultRole,
        banned: false,
        banReason: null,
        banExpires: null,
        createdAt: now,
        updatedAt: now,
      };
      return { user: synthetic, session: null, created: false };
    }
    throw new AuthError("USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL");
  }
  if (sendsVerificationOnSignUp(ctx)) ctx.mail.wake();
  if (result.session)
    await retireAnonymousUser(ctx, input.guest ?? null, { session: result.session, user: result.user });
  return result;
}

export interface SignInInput {
  email: string;
  password: string;
  rememberMe: boolean;
  callbackURL?: string;
  /** The guest session the browser held, if any: its work moves to this user once they are signed in. */
  guest?: SessionWithUser | null;
}

export type SignInResult =
  | { status: "signed-in"; user: User; session: Session }
  | { status: "email-not-verified"; user: User };

/** Checks the password (same work for an unknown email), upgrades an old hash, and opens a session. */
export async function signInEmail(ctx: AuthContext, input: SignInInput, meta: RequestMeta): Promise<SignInResult> {
  const { enabled, maxPasswordLength, requireEmailVerification } = ctx.options.emailAndPassword;
  if (!enabled) throw new AuthError("EMAIL_PASSWORD_DISABLED");
  const email = normalizeEmail(input.email);
  if (input.password.length > maxPasswordLength) throw new AuthError("PASSWORD_TOO_LONG");

  const finishAttempt = await beginSignInAttempt(ctx, email);
  const found = await findUserWithPasswordByEmail(ctx.db, email, ctx.fields.user);
  const valid = await verifyPasswordOrDummy(ctx.hasher, found?.passwordHash ?? null, input.password);
  await finishAttempt(Boolean(found && valid));
  // The refusal's entry names the account tried, for its owner's activity; the answer stays the same.
  if (found && !valid) noteAudit(ctx, { subjectId: found.user.id });
  if (!found || !valid) throw new AuthError("INVALID_EMAIL_OR_PASSWORD");
  if (requireEmailVerification && !found.user.emailVerified) {
    await resendVerificationOnSignIn(ctx, found.user, meta.locale, input.callbackURL);
    return { status: "email-not-verified", user: found.user };
  }

  const now = ctx.now();
  if (found.passwordHash && ctx.hasher.needsRehash(found.passwordHash)) {
    await updateCredentialPassword(ctx.db, found.user.id, await ctx.hasher.hash(input.password), now);
  }
  const session = await createSession(ctx, ctx.db, found.user.id, meta, {
    rememberMe: input.rememberMe,
    knownUser: found.user,
    proof: "password",
    signInMethod: "password",
  });
  // A session was granted, so any ban on the row had run out and createSession lifted it.
  const user = found.user.banned ? { ...found.user, banned: false, banReason: null, banExpires: null } : found.user;
  await retireAnonymousUser(ctx, input.guest ?? null, { session, user });
  return { status: "signed-in", user, session };
}

import type { SessionWithUser, User } from "../../contract/models.js";
import type { Locale } from "../../i18n/index.js";
import type { AuthContext } from "../context.js";
import { newId } from "../crypto/random.js";
import { credentialsRemovedNotice, type MailboxProof } from "../email/templates.js";
import { AuthError } from "../errors.js";
import {
  claimUnprovenAddress,
  deleteUserCredentials,
  removedAnything,
  type StripScope,
} from "../store/account-credentials.js";
import type { DB } from "../store/database.js";
import { findUserByEmail, findUserById } from "../store/users.js";
import { retireAnonymousUser } from "./anonymous.js";
import { createUserRow, updateUserRow } from "./hooked-writes.js";
import { mailedCodeIdentifiers } from "./mailed-tokens.js";
import { createSession, type RequestMeta, revokeAllSessions } from "./sessions.js";
import { TRUST_DEVICE_PREFIX } from "./trusted-devices.js";

export interface MailboxOwner {
  user: User;
  isNewUser: boolean;
  /** Sessions were revoked (publish to the other instances after the commit). */
  revokedSessions: boolean;
  /** The account had never proven its address and lost what was set up on it (the owner was mailed). */
  credentialsRemoved: boolean;
}

/**
 * The user whose mailbox just proved itself (a sign-in link or code): found, or signed up with a
 * verified email unless `disableSignUp`. An account whose address was never proven is adopted
 * (adoptUnprovenAccount). Run inside the transaction that takes the proof.
 */
export async function claimMailboxOwner(
  ctx: AuthContext,
  trx: DB,
  input: {
    email: string;
    name?: string;
    disableSignUp: boolean;
    refusal: "INVALID_TOKEN" | "INVALID_OTP";
    proof: MailboxProof;
    locale: Locale;
  },
): Promise<MailboxOwner> {
  const now = ctx.now();
  const existing = await findUserByEmail(trx, input.email);
  if (!existing) {
    if (input.disableSignUp) throw new AuthError(input.refusal);
    const user = await createUserRow(ctx, trx, {
      id: newId(),
      name: input.name?.trim() || input.email.split("@")[0] || input.email,
      email: input.email,
      emailVerified: true,
      image: null,
      role: ctx.options.admin.defaultRole,
      now,
    });
    await ctx.webhooks.enqueue(trx, "user.created", user);
    return { user, isNewUser: true, revokedSessions: false, credentialsRemoved: false };
  }
  if (existing.emailVerified) {
    return { user: existing, isNewUser: false, revokedSessions: false, credentialsRemoved: false };
  }
  return adoptUnprovenAccount(ctx, trx, existing, input);
}

/**
 * Someone proved the mailbox of an account whose address was never proven, and takes the account
 * (sign-in link or code, password reset). Whoever registered the address first may be waiting for
 * its owner (account pre-hijacking), so every way in goes, in the caller's transaction: password,
 * linked accounts, passkeys, two-factor, trusted devices, pending one-time values and sessions. The
 * address ends verified, and the owner is told by mail when anything was removed.
 */
export async function adoptUnprovenAccount(
  ctx: AuthContext,
  trx: DB,
  user: User,
  input: { proof: MailboxProof; locale: Locale },
): Promise<MailboxOwner> {
  if (!(await claimUnprovenAddress(trx, user.id, ctx.now()))) {
    return { user: await provenUser(trx, user), isNewUser: false, revokedSessions: false, credentialsRemoved: false };
  }
  const removed = await stripUnprovenAccount(ctx, trx, user, "everything");
  const revoked = await revokeAllSessions(ctx, trx, user.id);
  const adopted = await markEmailVerified(ctx, trx, user);
  const credentialsRemoved = removedAnything(removed) || revoked > 0;
  if (credentialsRemoved) {
    await ctx.mail.enqueue(trx, credentialsRemovedNotice(input.locale, user.email, input.proof, "everything"));
  }
  return { user: adopted, isNewUser: false, revokedSessions: revoked > 0, credentialsRemoved };
}

/**
 * Verification (a link or code mailed at sign-up) confirms what its creator set up at sign-up, the
 * password and sessions. Anything enrolled on top while the address was unproven goes (the owner may
 * be confirming someone else's sign-up), in the caller's transaction, and the address ends verified.
 */
export async function verifyUnprovenAccount(ctx: AuthContext, trx: DB, user: User, locale: Locale): Promise<User> {
  if (!(await claimUnprovenAddress(trx, user.id, ctx.now()))) return provenUser(trx, user);
  const removed = await stripUnprovenAccount(ctx, trx, user, "enrolled-factors");
  if (removedAnything(removed)) {
    await ctx.mail.enqueue(trx, credentialsRemovedNotice(locale, user.email, "verification", "enrolled-factors"));
  }
  return markEmailVerified(ctx, trx, user);
}

/**
 * The one place that decides what an unproven account loses, so no proof (nor create-admin's
 * adoption) can forget a kind.
 */
export function stripUnprovenAccount(ctx: AuthContext, trx: DB, user: User, scope: StripScope) {
  return deleteUserCredentials(trx, ctx.dialect, {
    userId: user.id,
    scope,
    trustedDevicePrefix: TRUST_DEVICE_PREFIX,
    mailedCodeIdentifiers: mailedCodeIdentifiers(user.email),
    now: ctx.now(),
  });
}

/** The user as a racing proof left them. */
async function provenUser(trx: DB, user: User): Promise<User> {
  return (await findUserById(trx, user.id)) ?? user;
}

async function markEmailVerified(ctx: AuthContext, trx: DB, user: User): Promise<User> {
  const updated = (await updateUserRow(ctx, trx, user.id, { emailVerified: true }, ctx.now())) ?? user;
  await ctx.webhooks.enqueue(trx, "user.updated", updated);
  return updated;
}

/**
 * After the proof's transaction: the notice goes out, the revoked sessions are published to the other
 * instances, and the owner gets a session (through the second-factor gate); a guest session in this browser retires.
 */
export async function openMailboxOwnerSession(
  ctx: AuthContext,
  owner: MailboxOwner,
  meta: RequestMeta,
  guest: SessionWithUser | null,
  signInMethod: "magic-link" | "email-otp",
): Promise<SessionWithUser> {
  if (owner.credentialsRemoved) ctx.mail.wake();
  if (owner.revokedSessions) await ctx.revocations.revokeUser(owner.user.id);
  const session = await createSession(ctx, ctx.db, owner.user.id, meta, {
    rememberMe: true,
    knownUser: owner.user,
    signInMethod,
  });
  const data = { session, user: owner.user };
  await retireAnonymousUser(ctx, guest, data);
  return data;
}

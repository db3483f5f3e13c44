import type { SessionWithUser, User } from "../../contract/models.js";
import type { AuthContext } from "../context.js";
import { newId } from "../crypto/random.js";
import { AuthError } from "../errors.js";
import { deleteCredentialAccount } from "../store/accounts.js";
import type { DB } from "../store/database.js";
import { findUserByEmail, insertUser, updateUserProfile } from "../store/users.js";
import { retireAnonymousUser } from "./anonymous.js";
import { createSession, type RequestMeta, revokeAllSessions } from "./sessions.js";

export interface MailboxOwner {
  user: User;
  isNewUser: boolean;
  /** Sessions were revoked (publish to the other instances after the commit). */
  revokedSessions: boolean;
}

/**
 * The user whose mailbox just proved itself (a sign-in link or code): found, or signed up with a
 * verified email unless `disableSignUp`. An account whose address was never proven loses what its
 * creator set up, its password and sessions: someone may have registered the address first, to wait
 * for its owner (account pre-hijacking). Run inside the transaction that takes the proof.
 */
export async function claimMailboxOwner(
  ctx: AuthContext,
  trx: DB,
  input: { email: string; name?: string; disableSignUp: boolean; refusal: "INVALID_TOKEN" | "INVALID_OTP" },
): Promise<MailboxOwner> {
  const now = ctx.now();
  const existing = await findUserByEmail(trx, input.email);
  if (!existing) {
    if (input.disableSignUp) throw new AuthError(input.refusal);
    const user = await insertUser(trx, {
      id: newId(),
      name: input.name?.trim() || input.email.split("@")[0] || input.email,
      email: input.email,
      emailVerified: true,
      image: null,
      role: ctx.options.admin.defaultRole,
      now,
    });
    await ctx.webhooks.enqueue(trx, "user.created", user);
    return { user, isNewUser: true, revokedSessions: false };
  }
  if (existing.emailVerified) return { user: existing, isNewUser: false, revokedSessions: false };
  await deleteCredentialAccount(trx, existing.id);
  await revokeAllSessions(ctx, trx, existing.id);
  const user = (await updateUserProfile(trx, existing.id, { emailVerified: true }, now)) ?? existing;
  await ctx.webhooks.enqueue(trx, "user.updated", user);
  return { user, isNewUser: false, revokedSessions: true };
}

/**
 * After the proof's transaction: the revoked sessions are published to the other instances, and the
 * owner gets a session (through the second-factor gate); a guest session in this browser retires.
 */
export async function openMailboxOwnerSession(
  ctx: AuthContext,
  owner: MailboxOwner,
  meta: RequestMeta,
  guest: SessionWithUser | null,
): Promise<SessionWithUser> {
  if (owner.revokedSessions) await ctx.revocations.revokeUser(owner.user.id);
  const session = await createSession(ctx, ctx.db, owner.user.id, meta, { rememberMe: true, knownUser: owner.user });
  const data = { session, user: owner.user };
  await retireAnonymousUser(ctx, guest, data);
  return data;
}

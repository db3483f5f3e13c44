import type { SessionWithUser } from "../../contract/models.js";
import type { AuthContext } from "../context.js";
import { newId } from "../crypto/random.js";
import { AuthError } from "../errors.js";
import type { DB } from "../store/database.js";
import {
  listUserMemberRows,
  reassignMemberRow,
  reassignSentInvitations,
  reassignTeamMemberships,
} from "../store/guest-handover.js";
import { findMember } from "../store/members.js";
import { deleteAccountRows } from "./account-deletion.js";
import { normalizeEmail } from "./credentials.js";
import { createUserRow, deleteUserRows, updateMemberRoleData } from "./hooked-writes.js";
import { createSession, type RequestMeta } from "./sessions.js";

/** The reserved domain of anonymous users' emails (`.invalid` can never receive mail, RFC 2606). */
export const ANONYMOUS_EMAIL_DOMAIN = "anonymous.placeholder.invalid";

/** A user with a generated name and a placeholder email, flagged isAnonymous, and a session; no account row. */
export async function signInAnonymously(
  ctx: AuthContext,
  caller: SessionWithUser | null,
  meta: RequestMeta,
): Promise<SessionWithUser> {
  if (caller?.user.isAnonymous) throw new AuthError("ANONYMOUS_USERS_CANNOT_SIGN_IN_AGAIN_ANONYMOUSLY");
  const id = newId();
  const domain = ctx.options.anonymous.emailDomainName;
  let email: string;
  try {
    email = normalizeEmail(domain ? `temp-${id}@${domain}` : `${id}@${ANONYMOUS_EMAIL_DOMAIN}`);
  } catch {
    throw new AuthError("INVALID_EMAIL_FORMAT");
  }
  const now = ctx.now();
  return ctx.db.transaction().execute(async (trx) => {
    const user = await createUserRow(ctx, trx, {
      id,
      name: "Anonymous",
      email,
      emailVerified: false,
      image: null,
      isAnonymous: true,
      role: ctx.options.admin.defaultRole,
      now,
    });
    await ctx.webhooks.enqueue(trx, "user.created", user);
    const session = await createSession(ctx, trx, user.id, meta, { rememberMe: true, signInMethod: "anonymous" });
    return { session, user };
  });
}

/** Both users' roles in one organization, each once, the account's own first. */
function mergeRoles(accountRoles: string, guestRoles: string): string {
  const roles = [...accountRoles.split(","), ...guestRoles.split(",")].map((role) => role.trim()).filter(Boolean);
  return [...new Set(roles)].join(",");
}

/**
 * The guest's work becomes the account's (the "create an account to keep your work" promise):
 * memberships move, or their roles merge into the account's membership of the same organization,
 * so no organization the guest made is left without members; team memberships and sent
 * invitations move too.
 */
async function handOverGuestWork(ctx: AuthContext, db: DB, guestId: string, accountId: string): Promise<void> {
  for (const guestMember of await listUserMemberRows(db, guestId)) {
    const accountMember = await findMember(db, guestMember.organizationId, accountId);
    // Either way the account's membership is what changed (member.updated); the guest's own merged
    // row goes with the guest, whose user.deleted follows.
    const changed = accountMember
      ? await updateMemberRoleData(ctx, db, accountMember.id, mergeRoles(accountMember.role, guestMember.role))
      : await reassignMemberRow(db, guestMember.id, accountId);
    await ctx.webhooks.enqueue(db, "member.updated", changed);
  }
  await reassignTeamMemberships(db, guestId, accountId);
  await reassignSentInvitations(db, guestId, accountId);
}

/**
 * After a browser that held an anonymous session signs in or up as someone real: the app's
 * onLinkAccount hook moves the app's own data, then, in one transaction, the guest's organizations,
 * teams and invitations move to the account and the anonymous user (sessions and accounts with it)
 * is deleted.
 */
export async function retireAnonymousUser(
  ctx: AuthContext,
  anonymous: SessionWithUser | null,
  next: SessionWithUser,
): Promise<void> {
  if (!anonymous?.user.isAnonymous) return;
  if (next.user.isAnonymous || next.user.id === anonymous.user.id) return;
  await ctx.onLinkAccount?.({ anonymousUser: anonymous, newUser: next });
  await ctx.db.transaction().execute(async (trx) => {
    await handOverGuestWork(ctx, trx, anonymous.user.id, next.user.id);
    await ctx.webhooks.enqueue(trx, "user.deleted", await deleteUserRows(ctx, trx, anonymous.user.id));
  });
  await ctx.revocations.revokeUser(anonymous.user.id);
}

/**
 * A guest leaving for good, under every account deletion's owner rules: organizations only they
 * belong to go with them, then the user with everything they own, in one transaction.
 */
export async function deleteAnonymousUser(ctx: AuthContext, caller: SessionWithUser): Promise<void> {
  if (!caller.user.isAnonymous) throw new AuthError("USER_IS_NOT_ANONYMOUS");
  const guestId = caller.user.id;
  await ctx.db.transaction().execute((trx) => deleteAccountRows(ctx, trx, guestId));
  await ctx.revocations.revokeUser(guestId);
}

import type { SessionWithUser } from "../../contract/models.js";
import type { AuthContext } from "../context.js";
import { newId } from "../crypto/random.js";
import { AuthError } from "../errors.js";
import { insertUser } from "../store/users.js";
import { deleteUserEverywhere } from "./account-deletion.js";
import { normalizeEmail } from "./credentials.js";
import { createSession, type RequestMeta } from "./sessions.js";

/** The reserved domain of anonymous users' emails (`.invalid` can never receive mail, RFC 2606). */
export const ANONYMOUS_EMAIL_DOMAIN = "anonymous.placeholder.invalid";

/** A user with a generated name and a placeholder email, flagged isAnonymous, and a session; no account row. */
export async function signInAnonymously(
  ctx: AuthContext,
  current: SessionWithUser | null,
  meta: RequestMeta,
): Promise<SessionWithUser> {
  if (current?.user.isAnonymous) throw new AuthError("ANONYMOUS_USERS_CANNOT_SIGN_IN_AGAIN_ANONYMOUSLY");
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
    const user = await insertUser(trx, {
      id,
      name: "Anonymous",
      email,
      emailVerified: false,
      image: null,
      isAnonymous: true,
      role: ctx.options.admin.defaultRole,
      now,
    });
    const session = await createSession(ctx, trx, user.id, meta, { rememberMe: true });
    return { session, user };
  });
}

/**
 * After a browser that held an anonymous session signs in or up as someone real: the app's
 * onLinkAccount hook moves the data, then the anonymous user (sessions and accounts with it) is deleted.
 */
export async function retireAnonymousUser(
  ctx: AuthContext,
  anonymous: SessionWithUser | null,
  next: SessionWithUser,
): Promise<void> {
  if (!anonymous?.user.isAnonymous) return;
  if (next.user.isAnonymous || next.user.id === anonymous.user.id) return;
  await ctx.onLinkAccount?.({ anonymousUser: anonymous, newUser: next });
  await deleteUserEverywhere(ctx, anonymous.user.id);
}

export async function deleteAnonymousUser(ctx: AuthContext, current: SessionWithUser): Promise<void> {
  if (!current.user.isAnonymous) throw new AuthError("USER_IS_NOT_ANONYMOUS");
  await deleteUserEverywhere(ctx, current.user.id);
}

import type { Session, SessionWithUser, User } from "../../../contract/models.js";
import type { AuthContext } from "../../context.js";
import { newId } from "../../crypto/random.js";
import { AuthError } from "../../errors.js";
import type { SocialProvider } from "../../providers/social-provider.js";
import type { ProviderProfile, ProviderTokens } from "../../providers/types.js";
import type { DB } from "../../store/database.js";
import { findAccountWithUser, updateAccountTokens } from "../../store/social-accounts.js";
import { findUserByEmail } from "../../store/users.js";
import { retireAnonymousUser } from "../anonymous.js";
import { createSocialAccount, createUserRow } from "../hooked-writes.js";
import { createSession, type RequestMeta, TwoFactorRequired } from "../sessions.js";
import { mergeScopes, sealTokens } from "./tokens.js";

/** Why a provider sign-in or link was refused: the callback's `error=` codes (SPEC 8). */
export type SocialFailure =
  | "email_not_found"
  | "account_not_linked"
  | "signup_disabled"
  | "unable_to_create_user"
  | "unable_to_link_account"
  | "unable_to_create_session"
  | "account_already_linked_to_different_user"
  | "email_does_not_match";

export class SocialSignInError extends Error {
  override name = "SocialSignInError";
  constructor(
    readonly reason: SocialFailure,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
  }
}

/**
 * Runs one write; a database failure becomes the flow's refusal code instead of a 500. A rule's
 * refusal (an AuthError such as BANNED_USER from createSession) passes through unchanged.
 */
async function step<T>(reason: SocialFailure, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    // A rule's refusal (a ban, a second factor owed) passes through as itself.
    if (error instanceof AuthError || error instanceof TwoFactorRequired) throw error;
    throw new SocialSignInError(reason, { cause: error });
  }
}

export interface ProfileInput {
  provider: SocialProvider;
  profile: ProviderProfile;
  tokens: ProviderTokens;
  /** The guest session the browser held, if any: its work moves to this user once they are signed in. */
  guest?: SessionWithUser | null;
}

export interface ProfileSignInResult {
  user: User;
  session: Session;
  isNewUser: boolean;
}

function providerEmail(profile: ProviderProfile): string {
  const email = profile.email?.trim().toLowerCase();
  if (!email) throw new SocialSignInError("email_not_found");
  return email;
}

/**
 * Implicit linking (a user with this email exists, the provider account is new): only when linking
 * is on, the provider is trusted or vouches for the email, and the local email is verified too —
 * otherwise whoever registered the address first, or controls an unverified provider email, would
 * get the other person's account.
 */
function mayLinkImplicitly(ctx: AuthContext, providerId: string, profile: ProviderProfile, user: User): boolean {
  const { enabled, trustedProviders } = ctx.options.account.accountLinking;
  if (!enabled) return false;
  if (!trustedProviders.includes(providerId) && !profile.emailVerified) return false;
  return user.emailVerified;
}

/**
 * Signs in with a provider profile: the linked user, or an existing user linked implicitly, or a new
 * user. User, account and session are written in one transaction; then a guest's work moves over.
 */
export async function signInWithProfile(
  ctx: AuthContext,
  input: ProfileInput,
  meta: RequestMeta,
): Promise<ProfileSignInResult> {
  const { provider, profile, tokens } = input;
  const email = providerEmail(profile);
  const now = ctx.now();
  const sealed = sealTokens(ctx, tokens);
  const openSession = (db: DB, user: User) =>
    step("unable_to_create_session", () =>
      createSession(ctx, db, user.id, meta, {
        rememberMe: true,
        knownUser: user,
        proof: "provider",
        signInMethod: "social",
      }),
    );

  const result = await ctx.db.transaction().execute(async (trx): Promise<ProfileSignInResult> => {
    const linked = await findAccountWithUser(trx, provider.id, profile.id);
    if (linked) {
      // Tokens are refreshed on each sign-in; granted scopes accumulate.
      const scope = mergeScopes(linked.account.scope, tokens.scopes).join(",") || null;
      await updateAccountTokens(trx, linked.account.id, { ...sealed, scope }, now);
      return { user: linked.user, session: await openSession(trx, linked.user), isNewUser: false };
    }

    const existing = await findUserByEmail(trx, email);
    if (existing) {
      if (!mayLinkImplicitly(ctx, provider.id, profile, existing)) throw new SocialSignInError("account_not_linked");
      await step("unable_to_link_account", () =>
        createSocialAccount(ctx, trx, {
          id: newId(),
          userId: existing.id,
          providerId: provider.id,
          accountId: profile.id,
          tokens: sealed,
          now,
        }),
      );
      return { user: existing, session: await openSession(trx, existing), isNewUser: false };
    }

    if (provider.disableSignUp) throw new SocialSignInError("signup_disabled");
    const user = await step("unable_to_create_user", async () => {
      const created = await createUserRow(ctx, trx, {
        id: newId(),
        name: profile.name,
        email,
        emailVerified: profile.emailVerified,
        image: profile.image,
        role: ctx.options.admin.defaultRole,
        now,
      });
      await ctx.webhooks.enqueue(trx, "user.created", created);
      await createSocialAccount(ctx, trx, {
        id: newId(),
        userId: created.id,
        providerId: provider.id,
        accountId: profile.id,
        tokens: sealed,
        now,
      });
      return created;
    });
    return { user, session: await openSession(trx, user), isNewUser: true };
  });
  await retireAnonymousUser(ctx, input.guest ?? null, result);
  return result;
}

/**
 * Links a provider account to a signed-in user (/link-social). Refusals: the provider account belongs
 * to someone else; the provider is untrusted and does not vouch for the email (or linking is off);
 * the emails differ and allowDifferentEmails is off.
 */
export async function linkProfileToUser(
  ctx: AuthContext,
  input: ProfileInput & { user: { id: string; email: string } },
): Promise<{ created: boolean }> {
  const { provider, profile, tokens, user } = input;
  const { enabled, trustedProviders, allowDifferentEmails } = ctx.options.account.accountLinking;
  const now = ctx.now();
  const sealed = sealTokens(ctx, tokens);

  return ctx.db.transaction().execute(async (trx) => {
    const linked = await findAccountWithUser(trx, provider.id, profile.id);
    if (linked && linked.user.id !== user.id) throw new SocialSignInError("account_already_linked_to_different_user");
    if (linked) {
      const scope = mergeScopes(linked.account.scope, tokens.scopes).join(",") || null;
      await updateAccountTokens(trx, linked.account.id, { ...sealed, scope }, now);
      return { created: false };
    }
    if (!enabled || (!trustedProviders.includes(provider.id) && !profile.emailVerified)) {
      throw new SocialSignInError("unable_to_link_account");
    }
    const email = profile.email?.trim().toLowerCase();
    if (email !== user.email.toLowerCase() && !allowDifferentEmails)
      throw new SocialSignInError("email_does_not_match");
    await step("unable_to_link_account", () =>
      createSocialAccount(ctx, trx, {
        id: newId(),
        userId: user.id,
        providerId: provider.id,
        accountId: profile.id,
        tokens: sealed,
        now,
      }),
    );
    return { created: true };
  });
}

import { z } from "zod";
import type { SessionWithUser } from "../../contract/models.js";
import type { Locale } from "../../i18n/index.js";
import type { AuthContext } from "../context.js";
import { sha256Base64Url } from "../crypto/digest.js";
import { randomString } from "../crypto/random.js";
import { magicLinkMail } from "../email/templates.js";
import { AuthError } from "../errors.js";
import { findUserByEmail } from "../store/users.js";
import { consumeVerification } from "../store/verifications.js";
import { normalizeEmail } from "./credentials.js";
import { claimMailboxOwner, openMailboxOwnerSession } from "./mailbox-proof.js";
import { issueMailedToken } from "./mailed-tokens.js";
import type { RequestMeta } from "./sessions.js";
import { atLeast, ENUMERATION_SAFE_ANSWER_MS } from "./timing.js";

/** Only the SHA-256 of a link's token is stored. */
const magicLinkIdentifier = (token: string) => `magic-link:${sha256Base64Url(token)}`;
const linkRecord = z.object({ email: z.string(), name: z.string().optional() });

/**
 * POST /sign-in/magic-link: a single-use link by mail. Known or unknown address, the same answer in
 * the same time. The link opens the application's confirmation page, which consumes nothing: mail
 * scanners fetch links, but only a person presses its button (FIELD-NOTES).
 */
export async function sendMagicLink(
  ctx: AuthContext,
  input: { email: string; name?: string; callbackURL?: string; newUserCallbackURL?: string; errorCallbackURL?: string },
  locale: Locale,
): Promise<void> {
  const email = normalizeEmail(input.email);
  const { expiresIn, disableSignUp } = ctx.options.magicLink;
  await atLeast(ENUMERATION_SAFE_ANSWER_MS, async () => {
    if (disableSignUp && !(await findUserByEmail(ctx.db, email))) return;
    const token = randomString(32);
    const page = new URL("/magic-link", ctx.baseURL);
    page.searchParams.set("token", token);
    page.searchParams.set("callbackURL", input.callbackURL || "/");
    if (input.newUserCallbackURL) page.searchParams.set("newUserCallbackURL", input.newUserCallbackURL);
    if (input.errorCallbackURL) page.searchParams.set("errorCallbackURL", input.errorCallbackURL);
    await issueMailedToken(ctx, {
      identifier: magicLinkIdentifier(token),
      value: JSON.stringify({ email, name: input.name }),
      expiresInSeconds: expiresIn,
      mail: magicLinkMail(locale, email, page.toString(), expiresIn),
    });
  });
}

export interface MagicLinkSignIn {
  data: SessionWithUser;
  isNewUser: boolean;
  /** The account had never proven its address and lost what was set up on it. */
  credentialsRemoved: boolean;
}

/**
 * GET /magic-link/verify: the token is taken (once), the mailbox's owner found or signed up
 * (claimMailboxOwner), and a session opened through the second-factor gate.
 */
export async function signInWithMagicLink(
  ctx: AuthContext,
  token: string,
  meta: RequestMeta,
  guest: SessionWithUser | null,
): Promise<MagicLinkSignIn> {
  const now = ctx.now();
  const claimed = await ctx.db.transaction().execute(async (trx) => {
    const found = await consumeVerification(trx, magicLinkIdentifier(token));
    if (!found || found.expiresAt.getTime() <= now.getTime()) throw new AuthError("INVALID_TOKEN");
    const record = linkRecord.safeParse(JSON.parse(found.value));
    if (!record.success) throw new AuthError("INVALID_TOKEN");
    const { disableSignUp } = ctx.options.magicLink;
    return claimMailboxOwner(ctx, trx, {
      ...record.data,
      disableSignUp,
      refusal: "INVALID_TOKEN",
      proof: "sign-in-link",
      locale: meta.locale,
    });
  });
  // The token is spent even when the second factor is still owed: the challenge carries on from here.
  const data = await openMailboxOwnerSession(ctx, claimed, meta, guest);
  return { data, isNewUser: claimed.isNewUser, credentialsRemoved: claimed.credentialsRemoved };
}

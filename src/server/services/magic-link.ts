import { z } from "zod";
import type { SessionWithUser } from "../../contract/models.js";
import type { Locale } from "../../i18n/index.js";
import type { AuthContext } from "../context.js";
import { safeEqual, sha256Base64Url } from "../crypto/digest.js";
import { randomString } from "../crypto/random.js";
import { magicLinkMail } from "../email/templates.js";
import { AuthError } from "../errors.js";
import { findUserByEmail } from "../store/users.js";
import { consumeVerification, findVerification } from "../store/verifications.js";
import { normalizeEmail } from "./credentials.js";
import { claimMailboxOwner, openMailboxOwnerSession } from "./mailbox-proof.js";
import { issueMailedToken } from "./mailed-tokens.js";
import type { RequestMeta } from "./sessions.js";
import { atLeast } from "./timing.js";

/** Only the SHA-256 of a link's token is stored. */
const magicLinkIdentifier = (token: string) => `magic-link:${sha256Base64Url(token)}`;
/** `requester`: the SHA-256 of the link_requester cookie of the browser that asked for the link. */
const linkRecord = z.object({ email: z.string(), name: z.string().optional(), requester: z.string().optional() });

interface LinkRedirects {
  callbackURL?: string;
  newUserCallbackURL?: string;
  errorCallbackURL?: string;
}

/** The application's confirmation page for a link: where the mail points, and where a navigation goes. */
export function magicLinkPage(ctx: AuthContext, token: string, redirects: LinkRedirects): string {
  return ctx.pages.magicLink({
    token,
    callbackURL: redirects.callbackURL || "/",
    newUserCallbackURL: redirects.newUserCallbackURL || undefined,
    errorCallbackURL: redirects.errorCallbackURL || undefined,
  });
}

/** A fresh value for the link_requester cookie, which binds the links a browser asks for to it. */
export const newLinkRequester = (): string => randomString(32);

/** Whether the link was asked for by the browser holding `requester` (its link_requester cookie). */
function requestedBy(record: { requester?: string }, requester: string | null): boolean {
  return Boolean(record.requester && requester && safeEqual(record.requester, sha256Base64Url(requester)));
}

/**
 * POST /sign-in/magic-link: a single-use link by mail. Known or unknown address, the same answer in
 * the same time. The link opens the application's confirmation page, which consumes nothing: mail
 * scanners fetch links, but only a person presses its button (FIELD-NOTES). The link is bound to
 * the asking browser's `requester` cookie value: there it signs in without the page.
 */
export async function sendMagicLink(
  ctx: AuthContext,
  input: { email: string; name?: string } & LinkRedirects,
  locale: Locale,
  requester: string,
): Promise<void> {
  const email = normalizeEmail(input.email);
  const { expiresIn, disableSignUp } = ctx.options.magicLink;
  await atLeast(ctx.enumerationSafeAnswerMs, async () => {
    if (disableSignUp && !(await findUserByEmail(ctx.db, email))) return;
    const token = randomString(32);
    const page = magicLinkPage(ctx, token, input);
    await issueMailedToken(ctx, {
      identifier: magicLinkIdentifier(token),
      value: JSON.stringify({ email, name: input.name, requester: sha256Base64Url(requester) }),
      expiresInSeconds: expiresIn,
      mail: magicLinkMail(locale, email, page, expiresIn),
    });
  });
}

/**
 * Whether a GET that is no trusted fetch (a link, a redirect) may use the link at once: only in the
 * browser that asked for it. Elsewhere it goes to the confirmation page, and nothing is spent.
 */
export async function isLinkFromThisBrowser(ctx: AuthContext, token: string, requester: string | null) {
  if (!requester) return false;
  const found = await findVerification(ctx.db, magicLinkIdentifier(token));
  const record = found ? linkRecord.safeParse(JSON.parse(found.value)) : null;
  return record?.success === true && requestedBy(record.data, requester);
}

export interface MagicLinkSignIn {
  data: SessionWithUser;
  isNewUser: boolean;
  /** The account had never proven its address and lost what was set up on it. */
  credentialsRemoved: boolean;
}

/**
 * /magic-link/verify: the token is taken (once), the mailbox's owner found or signed up
 * (claimMailboxOwner), and a session opened through the second-factor gate. A guest's work moves to
 * the account only when this browser asked for the link: a link someone else asked for must not
 * carry a guest's organizations into their account, even when the guest confirms it.
 */
export async function signInWithMagicLink(
  ctx: AuthContext,
  token: string,
  meta: RequestMeta,
  browser: { guest: SessionWithUser | null; requester: string | null },
): Promise<MagicLinkSignIn> {
  const now = ctx.now();
  const { claimed, requestedHere } = await ctx.db.transaction().execute(async (trx) => {
    const found = await consumeVerification(trx, magicLinkIdentifier(token));
    if (!found || found.expiresAt.getTime() <= now.getTime()) throw new AuthError("INVALID_TOKEN");
    const record = linkRecord.safeParse(JSON.parse(found.value));
    if (!record.success) throw new AuthError("INVALID_TOKEN");
    const { disableSignUp } = ctx.options.magicLink;
    const { email, name } = record.data;
    const claimed = await claimMailboxOwner(ctx, trx, {
      email,
      name,
      disableSignUp,
      refusal: "INVALID_TOKEN",
      proof: "sign-in-link",
      locale: meta.locale,
    });
    return { claimed, requestedHere: requestedBy(record.data, browser.requester) };
  });
  // The token is spent even when the second factor is still owed: the challenge carries on from here.
  const data = await openMailboxOwnerSession(ctx, claimed, meta, requestedHere ? browser.guest : null, "magic-link");
  return { data, isNewUser: claimed.isNewUser, credentialsRemoved: claimed.credentialsRemoved };
}

import type { AuthContext } from "../context.js";
import { sha256Base64Url } from "../crypto/digest.js";
import { newId, randomString } from "../crypto/random.js";
import { newDeviceMail } from "../email/templates.js";
import type { DB } from "../store/database.js";
import { claimKnownDevice, hasOtherKnownDevice, touchKnownDevice } from "../store/known-devices.js";
import { findUserById } from "../store/users.js";
import { insertVerification } from "../store/verifications.js";
import type { RequestMeta } from "./request-meta.js";
import { describeUserAgent } from "./user-agent.js";

/** Where a new-device mail's "Not you?" token is kept: only its SHA-256, never the token. */
export const SECURE_ACCOUNT_PREFIX = "secure-account:";
export const secureAccountIdentifier = (token: string) => `${SECURE_ACCOUNT_PREFIX}${sha256Base64Url(token)}`;

/**
 * A sign-in's device, in the sign-in's transaction (createSession calls it): a device the account
 * has used is seen again; a new one is claimed, and if the account had used another before, its
 * owner is mailed a one-time link that signs out everywhere and leads to a password reset. The
 * (user, device) key is the claim, so racing sign-ins from one browser mail once; the account's first
 * device is learned without a mail.
 */
export async function noteSignInDevice(
  ctx: AuthContext,
  trx: DB,
  userId: string,
  deviceId: string,
  meta: RequestMeta,
): Promise<void> {
  const now = ctx.now();
  const device = {
    userId,
    deviceHash: sha256Base64Url(deviceId),
    userAgent: meta.userAgent?.slice(0, 512) ?? null,
    ipAddress: meta.ipAddress,
    now,
  };
  if (await touchKnownDevice(trx, device)) return;
  if (!(await claimKnownDevice(trx, { ...device, id: newId() }))) return;
  if (!(await hasOtherKnownDevice(trx, userId, device.deviceHash))) return;
  const user = await findUserById(trx, userId);
  if (!user) return;
  const token = randomString(32);
  const expiresIn = ctx.options.securityActivity.secureLinkExpiresIn;
  await insertVerification(trx, {
    id: newId(),
    identifier: secureAccountIdentifier(token),
    value: userId,
    expiresAt: new Date(now.getTime() + expiresIn * 1000),
    now,
  });
  const url = ctx.pages.secureAccount({ token });
  const named = describeUserAgent(meta.userAgent);
  await ctx.mail.enqueue(
    trx,
    newDeviceMail(meta.locale, user.email, { ...named, ipAddress: meta.ipAddress, at: now }, url, expiresIn),
  );
  // The sign-in's transaction commits after this returns: the request's end wakes the worker.
  ctx.mail.wakeAfterRequest();
}

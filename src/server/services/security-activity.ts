import type { SessionWithUser } from "../../contract/models.js";
import type { SecurityActivity } from "../../contract/security-activity.js";
import { auditChange } from "../audit/trail.service.js";
import { listAuditTrail } from "../audit/trail.store.js";
import type { AuthContext } from "../context.js";
import { newId, randomString } from "../crypto/random.js";
import { AuthError } from "../errors.js";
import { listActiveUserSessions } from "../store/sessions.js";
import { findTwoFactor } from "../store/two-factor.js";
import { toDate } from "../store/values.js";
import { consumeVerification, insertVerification } from "../store/verifications.js";
import { secureAccountIdentifier } from "./known-devices.js";
import { resetIdentifier } from "./password-reset.js";
import { revokeAllSessions } from "./sessions.js";
import { forgetTrustedDevices } from "./trusted-devices.js";
import { describeUserAgent } from "./user-agent.js";

/** How many of the account's sign-ins the activity shows, and refused attempts beside them. */
const RECENT_SIGN_INS = 20;
const RECENT_REFUSALS = 10;

/**
 * GET /security-activity: the account's recent sign-ins (the audit trail's `user.sign_in` entries
 * naming it as subject: successes, second-factor challenges, and wrong passwords for it) and its
 * live sessions, each with the browser and system its user agent names. Refusals are read apart, so
 * someone guessing passwords cannot push the owner's own sign-ins out of the list.
 */
export async function securityActivity(ctx: AuthContext, caller: SessionWithUser): Promise<SecurityActivity> {
  const userId = caller.user.id;
  // Unsealed entries too: the account's own sign-in shows at once, not once the trail seals it.
  const signInsOf = { subjectId: userId, action: "user.sign_in", includeUnsealed: true };
  const [accepted, refused, sessions, twoFactor] = await Promise.all([
    listAuditTrail(ctx.db, { ...signInsOf, outcomeNot: "failure", limit: RECENT_SIGN_INS }),
    listAuditTrail(ctx.db, { ...signInsOf, outcome: "failure", limit: RECENT_REFUSALS }),
    listActiveUserSessions(ctx.db, userId, ctx.now()),
    // The codes' count only: the row is read when two-factor is on, never sent.
    caller.user.twoFactorEnabled ? findTwoFactor(ctx.db, userId) : null,
  ]);
  const entries = [...accepted, ...refused].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  const signIns = entries.map((entry) => ({
    at: entry.createdAt,
    outcome: entry.outcome,
    method: typeof entry.details?.method === "string" ? entry.details.method : null,
    ...describeUserAgent(entry.userAgent),
    ipAddress: entry.ipAddress,
  }));
  const devices = sessions.map((row) => ({
    id: row.id,
    signedInAt: toDate(row.createdAt),
    lastActiveAt: toDate(row.updatedAt),
    current: row.id === caller.session.id,
    ...describeUserAgent(row.userAgent),
    ipAddress: row.ipAddress,
  }));
  const backupCodesRemaining = twoFactor?.verified ? twoFactor.backupCodeHashes.length : null;
  return { signIns, devices, backupCodesRemaining };
}

/**
 * POST /secure-account, the new-device mail's "Not you?" link, in one transaction: take the token
 * (single use, even under races: the delete decides), end every session and trusted device of the
 * account, and issue a password-reset token, which the answer carries to the reset page.
 */
export async function secureAccount(ctx: AuthContext, token: string): Promise<{ status: true; resetToken: string }> {
  const resetToken = randomString(24);
  const now = ctx.now();
  const userId = await ctx.db.transaction().execute(async (trx) => {
    const found = await consumeVerification(trx, secureAccountIdentifier(token));
    if (!found || found.expiresAt.getTime() <= now.getTime()) throw new AuthError("INVALID_TOKEN");
    await revokeAllSessions(ctx, trx, found.value);
    await forgetTrustedDevices(trx, found.value);
    await insertVerification(trx, {
      id: newId(),
      identifier: resetIdentifier(resetToken),
      value: found.value,
      expiresAt: new Date(now.getTime() + ctx.options.emailAndPassword.resetPasswordTokenExpiresIn * 1000),
      now,
    });
    await auditChange(ctx, trx, { subjectId: found.value });
    return found.value;
  });
  await ctx.revocations.revokeUser(userId);
  return { status: true, resetToken };
}

import type { Session } from "../../../contract/models.js";
import { auditChange } from "../../audit/trail.service.js";
import type { AuthContext } from "../../context.js";
import { AuthError } from "../../errors.js";
import type { DB } from "../../store/database.js";
import {
  deleteConsent,
  listConsents,
  liveGrantIds,
  liveGrantIdsOfUser,
  revokeGrants,
} from "../../store/oauth-provider.js";

/**
 * A person the directory took out of an organization: the grants they gave the organization's own
 * clients end with the membership, and every grant once they belong to no organization (as their
 * sessions do; scim-users.ts). In the deprovisioning's transaction; answers how many ended.
 */
export async function revokeGrantsOnLeaving(
  ctx: AuthContext,
  trx: DB,
  userId: string,
  organizationId: string | null,
): Promise<number> {
  if (!ctx.options.oauthProvider.enabled) return 0;
  return revokeGrants(trx, await liveGrantIdsOfUser(trx, userId, organizationId), ctx.now());
}

/** The clients a user consented to (their screen of connected apps). */
export function consentsOf(ctx: AuthContext, session: Session) {
  return listConsents(ctx.db, session.userId);
}

/**
 * Withdraws a consent: the client asks again next time, and what it holds now ends with it (its
 * grants for this user are revoked in the same transaction).
 */
export async function withdrawConsent(ctx: AuthContext, session: Session, id: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const clientId = await deleteConsent(trx, session.userId, id);
    if (!clientId) throw new AuthError("OAUTH_CLIENT_NOT_FOUND", { message: "No such consent" });
    const grants = await liveGrantIds(trx, session.userId, clientId);
    const revoked = await revokeGrants(trx, grants, ctx.now());
    await auditChange(ctx, trx, { subjectId: session.userId, details: { clientId, grantsRevoked: revoked } });
  });
}

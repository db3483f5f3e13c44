import type { Session } from "../../../contract/models.js";
import type { AuthContext } from "../../context.js";
import { AuthError } from "../../errors.js";
import { deleteConsent, listConsents, liveGrantIds, revokeGrants } from "../../store/oauth-provider.js";
import { auditChange } from "../audit-trail.js";

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

import { SCIM_RECENT_ERRORS, type ScimConnectionHealth } from "../../contract/scim.js";
import type { AuthContext } from "../context.js";
import { newSortableId } from "../crypto/random.js";
import type { Caller } from "../services/caller.js";
import { ownedConnection } from "./connections.service.js";
import type { ScimConnectionRow } from "./connections.store.js";
import { countScimProvisioned, insertScimError, listScimErrors } from "./health.store.js";

/**
 * A directory connection's sync health (docs/scim.md, "Sync health"): the last call (the token's
 * lastUsedAt, already kept at a minute's precision), what it provisioned (counted on read), and its
 * latest refused calls. Only a refusal writes: a healthy sync costs nothing here.
 */

/** The longest SCIM message kept: ours are short; the cap guards against a future long one. */
const MAX_DETAIL_LENGTH = 500;

/**
 * Records a refused directory call of an authenticated connection. Best effort: the directory gets
 * its answer whether or not this is written, so a failure here is logged, never thrown.
 */
export async function recordScimRefusal(
  ctx: AuthContext,
  connection: ScimConnectionRow,
  refusal: { method: string; path: string; status: number; scimType: string | null; detail: string },
): Promise<void> {
  try {
    const createdAt = ctx.now();
    // Read newest first, the id breaking ties within a millisecond: it must sort in write order.
    const id = newSortableId(createdAt);
    await insertScimError(
      ctx.db,
      connection,
      { id, ...refusal, detail: refusal.detail.slice(0, MAX_DETAIL_LENGTH), createdAt },
      SCIM_RECENT_ERRORS,
    );
  } catch (error) {
    ctx.logger.warn("scim refusal not recorded", {
      provider: connection.providerId,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

async function healthOf(ctx: AuthContext, connection: ScimConnectionRow): Promise<ScimConnectionHealth> {
  const [counts, errors] = await Promise.all([
    countScimProvisioned(ctx.db, connection),
    listScimErrors(ctx.db, connection, SCIM_RECENT_ERRORS),
  ]);
  return {
    providerId: connection.providerId,
    lastUsedAt: connection.lastUsedAt,
    ...counts,
    recentErrors: errors.map(({ createdAt, ...rest }) => ({ at: createdAt, ...rest })),
  };
}

/**
 * GET /scim/connection-health (an owner of the connection's organization) and
 * /setup/scim/connection-health (a link's own organization's connection, else none at all).
 */
export async function scimConnectionHealth(
  ctx: AuthContext,
  caller: Caller,
  providerId: string,
): Promise<ScimConnectionHealth> {
  return healthOf(ctx, await ownedConnection(ctx, caller, providerId));
}

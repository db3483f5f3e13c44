import type { SessionWithUser } from "../../contract/models.js";
import type { ScimConnection, ScimProvisionedUser } from "../../contract/scim.js";
import { auditChange, auditedChange, noteAudit } from "../audit/trail.service.js";
import type { AuthContext } from "../context.js";
import { sha256Base64Url } from "../crypto/digest.js";
import { newId, randomString } from "../crypto/random.js";
import { AuthError } from "../errors.js";
import { isOwnerRole } from "../services/access-control.js";
import { type Caller, isSetupLinkCaller, setupLinkOrganization } from "../services/caller.js";
import type { DB } from "../store/database.js";
import { isUniqueViolation } from "../store/database.js";
import { findMember } from "../store/members.js";
import {
  deleteScimConnection,
  deleteScimUserLinks,
  findScimConnection,
  findScimConnectionByTokenHash,
  insertScimConnection,
  listScimConnectionsOfMember,
  listScimConnectionsOfOrganization,
  listScimUsers,
  type ScimConnectionRow,
  setScimLinkExistingMembers,
  touchScimConnection,
} from "./connections.store.js";
import { deleteScimGroupsOf } from "./groups.store.js";
import { deleteScimErrors } from "./health.store.js";

export type { ScimConnectionRow };

/**
 * An organization's SCIM connections, managed by its owners (better-auth's /scim management
 * routes). A connection's bearer token is shown once and kept only as its SHA-256 digest.
 */

/** Characters of the token's random part (62^43 > 2^256). */
const TOKEN_SECRET_LENGTH = 43;

async function requireOwner(ctx: AuthContext, db: DB, organizationId: string, userId: string): Promise<void> {
  const member = await findMember(db, organizationId, userId);
  if (!member || !isOwnerRole(ctx, member.role)) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_MANAGE_SCIM");
}

/**
 * The connection named, if the caller owns its organization (or holds a setup link for it, whose
 * route has checked its scope); a stranger cannot tell it exists.
 */
export async function ownedConnection(
  ctx: AuthContext,
  caller: Caller,
  providerId: string,
): Promise<ScimConnectionRow> {
  const connection = await findScimConnection(ctx.db, providerId);
  if (isSetupLinkCaller(caller)) {
    if (connection?.organizationId !== caller.organizationId) throw new AuthError("SCIM_PROVIDER_NOT_FOUND");
    return connection;
  }
  if (!connection || !(await findMember(ctx.db, connection.organizationId, caller.user.id))) {
    throw new AuthError("SCIM_PROVIDER_NOT_FOUND");
  }
  // A member's refused change is its organization's to read in the trail; a stranger's is not.
  noteAudit(ctx, { organizationId: connection.organizationId });
  await requireOwner(ctx, ctx.db, connection.organizationId, caller.user.id);
  return connection;
}

/**
 * Creates the connection, or rotates its token (the old one stops at once; the people it
 * provisioned stay linked). The token has better-auth's shape: base64url of
 * `secret:providerId:organizationId`, opaque to the directory.
 */
export async function generateScimToken(
  ctx: AuthContext,
  caller: Caller,
  input: { providerId: string; organizationId?: string; linkExistingMembers?: boolean },
): Promise<{ scimToken: string }> {
  // A setup link acts for its own organization, its route having checked its scope.
  const link = isSetupLinkCaller(caller) ? caller : null;
  const session = link ? null : (caller as SessionWithUser).session;
  const organizationId = link
    ? setupLinkOrganization(link, input.organizationId)
    : (input.organizationId ?? session?.activeOrganizationId);
  // Taking over existing members is a claim on accounts: an owner's call (update-provider-connection).
  if (link && input.linkExistingMembers === true) {
    throw new AuthError("SETUP_LINK_SCOPE_DENIED", {
      message: "A setup link may not let a directory take over existing members: an owner turns that on",
    });
  }
  if (!organizationId) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  if (input.providerId.includes(":")) throw new AuthError("SCIM_PROVIDER_ID_INVALID");
  const scimToken = Buffer.from(
    `${randomString(TOKEN_SECRET_LENGTH)}:${input.providerId}:${organizationId}`,
    "utf8",
  ).toString("base64url");
  try {
    await ctx.db.transaction().execute(async (trx) => {
      if (session) await requireOwner(ctx, trx, organizationId, session.userId);
      const existing = await findScimConnection(trx, input.providerId);
      if (existing && existing.organizationId !== organizationId) throw new AuthError("SCIM_PROVIDER_ID_TAKEN");
      if (existing) await deleteScimConnection(trx, input.providerId);
      const linkExistingMembers = input.linkExistingMembers ?? existing?.linkExistingMembers ?? false;
      await insertScimConnection(trx, {
        id: newId(),
        providerId: input.providerId,
        organizationId,
        linkExistingMembers,
        tokenHash: sha256Base64Url(scimToken),
        createdBy: session ? session.userId : `setup-link:${link?.id}`,
        createdAt: ctx.now(),
        // A new token has made no call yet: the owner sees when the directory first uses it.
        lastUsedAt: null,
      });
      // Never the token: the entry says whether it replaced one.
      await auditChange(ctx, trx, {
        organizationId,
        details: { providerId: input.providerId, rotated: existing !== null, linkExistingMembers },
      });
    });
  } catch (error) {
    // Another organization's owner took the id at the same moment.
    if (isUniqueViolation(error)) throw new AuthError("SCIM_PROVIDER_ID_TAKEN");
    throw error;
  }
  return { scimToken };
}

/** The connections of the organizations the caller owns (a setup link: its own's); never a token. */
export async function listScimConnections(ctx: AuthContext, caller: Caller): Promise<ScimConnection[]> {
  if (isSetupLinkCaller(caller)) return listScimConnectionsOfOrganization(ctx.db, caller.organizationId);
  const rows = await listScimConnectionsOfMember(ctx.db, caller.user.id);
  return rows.filter((row) => isOwnerRole(ctx, row.role)).map(({ role: _role, ...connection }) => connection);
}

// The calls below are owners' only (their routes take a session): a setup link may not read who a
// directory provisioned, let it take over members, or remove it.
export async function getScimConnection(
  ctx: AuthContext,
  caller: SessionWithUser,
  providerId: string,
): Promise<ScimConnection> {
  return ownedConnection(ctx, caller, providerId);
}

/**
 * Whether the connection may take over people who are already members (matched by email) from now
 * on. Turning it off links nobody back out: members taken over stay the directory's.
 */
export async function updateScimConnection(
  ctx: AuthContext,
  caller: SessionWithUser,
  input: { providerId: string; linkExistingMembers: boolean },
): Promise<ScimConnection> {
  const connection = await ownedConnection(ctx, caller, input.providerId);
  await auditedChange(ctx, (db) => setScimLinkExistingMembers(db, connection.id, input.linkExistingMembers), {
    organizationId: connection.organizationId,
    details: { providerId: input.providerId, linkExistingMembers: input.linkExistingMembers },
  });
  return { ...connection, linkExistingMembers: input.linkExistingMembers };
}

/** Revokes the token: the directory's calls fail from now on; its users and their memberships stay. */
export async function deleteScimConnectionOf(
  ctx: AuthContext,
  caller: SessionWithUser,
  providerId: string,
): Promise<void> {
  const connection = await ownedConnection(ctx, caller, providerId);
  await ctx.db.transaction().execute(async (trx) => {
    // What its groups gave stays, as its users and their memberships do.
    await deleteScimGroupsOf(trx, connection);
    await deleteScimUserLinks(trx, connection);
    await deleteScimErrors(trx, connection);
    await deleteScimConnection(trx, providerId);
    await auditChange(ctx, trx, { organizationId: connection.organizationId, details: { providerId } });
  });
}

/** The people the connection provisioned, a page at a time, oldest link first. */
export async function listProvisionedUsers(
  ctx: AuthContext,
  caller: SessionWithUser,
  query: { providerId: string; limit?: number; offset?: number },
): Promise<{ total: number; users: ScimProvisionedUser[] }> {
  const connection = await ownedConnection(ctx, caller, query.providerId);
  return listScimUsers(ctx.db, connection, {
    filter: null,
    offset: query.offset ?? 0,
    limit: Math.min(query.limit ?? 100, 500),
  });
}

/** How stale the recorded last use may get: a busy directory costs one write a minute, not one a call. */
const LAST_USED_PRECISION_MS = 60_000;

/** The connection a bearer token belongs to, or null: one indexed read of its digest. */
export async function authenticateScimToken(ctx: AuthContext, token: string): Promise<ScimConnectionRow | null> {
  if (token.length === 0 || token.length > 1024) return null;
  const connection = await findScimConnectionByTokenHash(ctx.db, sha256Base64Url(token));
  if (!connection) return null;
  const now = ctx.now();
  if (!connection.lastUsedAt || now.getTime() - connection.lastUsedAt.getTime() >= LAST_USED_PRECISION_MS) {
    await touchScimConnection(ctx.db, connection.id, now);
    connection.lastUsedAt = now;
  }
  return connection;
}

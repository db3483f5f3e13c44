import type { SessionWithUser } from "../../contract/models.js";
import {
  type CreateSetupLinkBody,
  DEFAULT_SETUP_LINK_SECONDS,
  type SetupLinkGrant,
  type SetupLinkView,
  type SetupScope,
} from "../../contract/setup-links.js";
import { auditChange, auditedChange, noteAudit } from "../audit/trail.service.js";
import type { AuthContext } from "../context.js";
import { safeEqual, sha256Base64Url } from "../crypto/digest.js";
import { newId, randomString } from "../crypto/random.js";
import { AuthError } from "../errors.js";
import type { DB } from "../store/db.js";
import { findMember } from "../store/members.js";
import { findOrganization } from "../store/organizations.js";
import {
  findSetupLink,
  insertSetupLink,
  listSetupLinks,
  revokeSetupLinkRow,
  type SetupLinkRow,
  touchSetupLink,
} from "../store/setup-links.js";
import { isOwnerRole } from "./access-control.js";
import type { SetupLinkCaller } from "./caller.js";
import { resolveOrganizationId } from "./organization-access.js";

/**
 * Setup links (docs/sso.md, "Let the customer set it up"; docs/security.md, "Enterprise objects"):
 * an owner lets someone without an account configure some of one organization's enterprise objects
 * until the link expires or is revoked. The secret is shown once and kept as its digest; the link is
 * `<id>.<secret>`, so a request reads one row by its key and compares digests in constant time.
 */

/** Characters of the secret (62^43 > 2^256). */
const SECRET_LENGTH = 43;
/** How stale the recorded last use may get: one write a minute, not one a request. */
const LAST_USED_PRECISION_MS = 60_000;

function statusOf(ctx: AuthContext, row: SetupLinkRow): SetupLinkView["status"] {
  if (row.revokedAt) return "revoked";
  return row.expiresAt <= ctx.now() ? "expired" : "active";
}

export function setupLinkView(ctx: AuthContext, row: SetupLinkRow): SetupLinkView {
  const { secretHash: _secretHash, revokedBy: _revokedBy, ...view } = row;
  return { ...view, status: statusOf(ctx, row) };
}

/** Owners only: a link lets a stranger change who signs in to the organization. */
async function requireOwner(ctx: AuthContext, db: DB, organizationId: string, userId: string): Promise<void> {
  const member = await findMember(db, organizationId, userId);
  if (!member || !isOwnerRole(ctx, member.role)) throw new AuthError("SETUP_LINK_OWNER_REQUIRED");
}

/**
 * POST /organization/create-setup-link: an owner (the route asks for a recent sign-in) makes a link
 * for one organization and the scopes given; `auth.api` without headers (caller null) for the
 * organization it names. The reply carries the token, which nothing keeps.
 */
export async function createSetupLink(
  ctx: AuthContext,
  caller: SessionWithUser | null,
  body: CreateSetupLinkBody,
): Promise<{ link: SetupLinkView; token: string }> {
  const organizationId = caller
    ? resolveOrganizationId(caller.session, body.organizationId, "NO_ACTIVE_ORGANIZATION")
    : body.organizationId;
  if (!organizationId) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  if (caller) await requireOwner(ctx, ctx.db, organizationId, caller.user.id);
  else if (!(await findOrganization(ctx.db, { id: organizationId }))) throw new AuthError("ORGANIZATION_NOT_FOUND");
  const secret = randomString(SECRET_LENGTH);
  const now = ctx.now();
  const row: SetupLinkRow = {
    id: newId(),
    organizationId,
    secretHash: sha256Base64Url(secret),
    scopes: [...body.scopes].sort(),
    label: body.label ?? null,
    createdBy: caller?.user.id ?? null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + (body.expiresIn ?? DEFAULT_SETUP_LINK_SECONDS) * 1000),
    revokedAt: null,
    revokedBy: null,
    lastUsedAt: null,
  };
  await ctx.db.transaction().execute(async (trx) => {
    await insertSetupLink(trx, row);
    await auditChange(ctx, trx, {
      organizationId,
      details: { setupLinkId: row.id, scopes: row.scopes, expiresAt: row.expiresAt.toISOString(), label: row.label },
    });
  });
  return { link: setupLinkView(ctx, row), token: `${row.id}.${secret}` };
}

/** GET /organization/list-setup-links: every link of the organization, never a secret. */
export async function listOrganizationSetupLinks(
  ctx: AuthContext,
  caller: SessionWithUser,
  query: { organizationId?: string },
): Promise<SetupLinkView[]> {
  const organizationId = resolveOrganizationId(caller.session, query.organizationId, "NO_ACTIVE_ORGANIZATION");
  await requireOwner(ctx, ctx.db, organizationId, caller.user.id);
  return (await listSetupLinks(ctx.db, organizationId)).map((row) => setupLinkView(ctx, row));
}

/** POST /organization/revoke-setup-link: the link stops at once. Another organization's link does not exist. */
export async function revokeSetupLink(ctx: AuthContext, caller: SessionWithUser, linkId: string) {
  const row = await findSetupLink(ctx.db, linkId);
  if (!row || !(await findMember(ctx.db, row.organizationId, caller.user.id))) {
    throw new AuthError("SETUP_LINK_NOT_FOUND");
  }
  noteAudit(ctx, { organizationId: row.organizationId });
  await requireOwner(ctx, ctx.db, row.organizationId, caller.user.id);
  const now = ctx.now();
  if (!row.revokedAt) {
    await auditedChange(ctx, (db) => revokeSetupLinkRow(db, row.id, caller.user.id, now), {
      organizationId: row.organizationId,
      details: { setupLinkId: row.id },
    });
  }
  return setupLinkView(ctx, (await findSetupLink(ctx.db, linkId)) ?? row);
}

/**
 * The live link a token names, or SETUP_LINK_INVALID (one answer for unknown, forged, expired and
 * revoked). Read by its id, the secret's digest compared in constant time; its last use is recorded.
 */
export async function authenticateSetupLink(ctx: AuthContext, token: string): Promise<SetupLinkCaller> {
  const dot = token.indexOf(".");
  const id = dot > 0 ? token.slice(0, dot) : "";
  const secret = dot > 0 ? token.slice(dot + 1) : "";
  const row = id && secret ? await findSetupLink(ctx.db, id) : null;
  const now = ctx.now();
  // A digest is compared even without a row, so an unknown id takes the time a known one does.
  const matches = safeEqual(sha256Base64Url(secret), row?.secretHash ?? "");
  if (!row || !matches || row.revokedAt || row.expiresAt <= now) throw new AuthError("SETUP_LINK_INVALID");
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_PRECISION_MS) {
    await touchSetupLink(ctx.db, row.id, now);
  }
  return {
    kind: "setup-link",
    id: row.id,
    organizationId: row.organizationId,
    scopes: row.scopes,
    label: row.label,
    expiresAt: row.expiresAt,
  };
}

/** The link may do one of `wanted`, or SETUP_LINK_SCOPE_DENIED. */
export function requireSetupScope(link: SetupLinkCaller, wanted: readonly SetupScope[]): void {
  if (!wanted.some((scope) => link.scopes.includes(scope))) throw new AuthError("SETUP_LINK_SCOPE_DENIED");
}

/** What the link's holder sees of it. */
export async function setupLinkGrant(ctx: AuthContext, link: SetupLinkCaller): Promise<SetupLinkGrant> {
  const organization = await findOrganization(ctx.db, { id: link.organizationId });
  // The organization's deletion deletes its links: a link read a moment before answers as dead.
  if (!organization) throw new AuthError("SETUP_LINK_INVALID");
  return {
    organization: { id: organization.id, name: organization.name, slug: organization.slug ?? null },
    scopes: [...link.scopes],
    label: link.label,
    expiresAt: link.expiresAt,
  };
}

import type { ErrorCode } from "../../contract/errors/index.js";
import type { Member, Session } from "../../contract/models.js";
import { someGrantAllows } from "../../contract/roles.js";
import type { AuthContext } from "../context.js";
import { AuthError } from "../errors.js";
import type { DB } from "../store/database.js";
import { findMember } from "../store/members.js";
import { roleAllows, type Statements } from "./access-control.js";

/** A change to the caller's own session that the route must also write into the session cookie. */
export interface ActiveChange {
  activeOrganizationId?: string | null;
  activeTeamId?: string | null;
}

type OrgErrorCode =
  | "NO_ACTIVE_ORGANIZATION"
  | "ORGANIZATION_NOT_FOUND"
  | "ORGANIZATION_ID_REQUIRED"
  | "MEMBER_NOT_FOUND";

/**
 * The organization a request is about: the one it names, else the session's active one, so two tabs
 * can work in two organizations. `missing` is the error the route answers with when there is neither.
 */
export function resolveOrganizationId(session: Session, given: string | undefined, missing: OrgErrorCode): string {
  const id = given ?? session.activeOrganizationId;
  if (!id) throw new AuthError(missing);
  return id;
}

/** An organization named by id or slug. */
export type OrganizationRef = { id: string } | { slug: string };

/**
 * The organization a lookup names by id or slug, else the session's active one; null when there is
 * neither (each route decides whether that is an error or an empty answer).
 */
export function organizationRef(
  session: Pick<Session, "activeOrganizationId"> | null,
  named: { organizationId?: string | null; organizationSlug?: string },
): OrganizationRef | null {
  if (named.organizationId) return { id: named.organizationId };
  if (named.organizationSlug) return { slug: named.organizationSlug };
  return session?.activeOrganizationId ? { id: session.activeOrganizationId } : null;
}

/** The caller's member row, read from the database (never from the client), or the given error. */
export async function requireMember(
  db: DB,
  organizationId: string,
  userId: string,
  notMember: ErrorCode | AuthError,
): Promise<Member> {
  const member = await findMember(db, organizationId, userId);
  if (!member) throw notMember instanceof AuthError ? notMember : new AuthError(notMember);
  return member;
}

/**
 * The caller's member row when their roles grant every requested action: `notMember` when they are
 * not a member, `denied` when their roles fall short. The one check organization routes share.
 */
export async function requireOrgPermission(
  ctx: AuthContext,
  access: { organizationId: string; userId: string; notMember: ErrorCode; permissions: Statements; denied: ErrorCode },
): Promise<Member> {
  const member = await requireCaller(ctx, ctx.db, access.organizationId, access.userId, access.notMember);
  requirePermission(ctx, member, access.permissions, access.denied);
  return member;
}

/**
 * The request's caller as a member of the organization: their member row, or, for an organization's
 * API key in its own organization, a member with no role whose permissions are the key's
 * (docs/api-keys.md). Another organization does not know such a key. A user's key is its user.
 */
export async function requireCaller(
  ctx: AuthContext,
  db: DB,
  organizationId: string,
  userId: string,
  notMember: ErrorCode | AuthError,
): Promise<Member> {
  const key = ctx.apiKeyCaller;
  if (!key?.organizationId) return requireMember(db, organizationId, userId, notMember);
  if (key.organizationId !== organizationId) {
    throw notMember instanceof AuthError ? notMember : new AuthError(notMember);
  }
  const id = `apiKey:${key.id}`;
  return { id, organizationId, userId: id, role: "", createdAt: new Date(0) };
}

/**
 * Whether the caller (a member row from requireCaller) may do everything asked: its roles, and the
 * request's API key as well (a key never does more than it was given, nor more than its user may).
 * An organization's key has no role: its permissions alone decide.
 */
export function callerAllows(ctx: AuthContext, member: Member, request: Statements): boolean {
  if (!keyPermits(ctx, request)) return false;
  if (ctx.apiKeyCaller?.organizationId) return true;
  return roleAllows(ctx, member.role, request);
}

/** Whether the request's API key, if it acts with one, was given everything asked. */
export function keyPermits(ctx: AuthContext, request: Statements): boolean {
  const key = ctx.apiKeyCaller;
  return !key || someGrantAllows([key.permissions ?? {}], request);
}

/** Throws the given error unless the caller may do every requested action (callerAllows). */
export function requirePermission(
  ctx: AuthContext,
  member: Member,
  request: Statements,
  denied: ErrorCode,
  status?: number,
): void {
  if (!callerAllows(ctx, member, request)) throw new AuthError(denied, status ? { status } : {});
}

/** Whether the user is a member of the organization (no refusal: for callers that only tell apart). */
export async function isMemberOf(ctx: AuthContext, organizationId: string, userId: string): Promise<boolean> {
  return (await findMember(ctx.db, organizationId, userId)) !== null;
}

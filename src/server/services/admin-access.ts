import type { ErrorCode } from "../../contract/errors/index.js";
import type { User } from "../../contract/models.js";
import { parseRoles, type Statements, someGrantAllows } from "../../contract/roles.js";
import type { AuthContext } from "../context.js";
import { AuthError } from "../errors.js";
import type { RequestMeta } from "./sessions.js";

/** SPEC section 6: the admin permission set; the plain `user` role has none. */
export const ADMIN_STATEMENTS: Statements = {
  user: ["create", "list", "set-role", "ban", "impersonate", "delete", "set-password"],
  session: ["list", "revoke", "delete"],
  // Every OAuth client, whoever registered it (docs/oauth-provider.md, "Admin-managed clients").
  oauthClient: ["create", "list", "update", "delete"],
};

const BUILT_IN_ROLES: Readonly<Record<string, Statements>> = { admin: ADMIN_STATEMENTS, user: {} };

/** The statements a role grants: configured roles first, then the built-in ones, then admin roles. */
function statementsFor(ctx: AuthContext, role: string): Statements | null {
  const { roles, adminRoles } = ctx.options.admin;
  if (Object.hasOwn(roles, role)) return roles[role] ?? null;
  if (Object.hasOwn(BUILT_IN_ROLES, role)) return BUILT_IN_ROLES[role] ?? null;
  return adminRoles.includes(role) ? ADMIN_STATEMENTS : null;
}

export function isKnownAdminRole(ctx: AuthContext, role: string): boolean {
  return statementsFor(ctx, role) !== null;
}

/** Whether a user holds the admin set: by an admin role or by being listed in adminUserIds. */
export function isAdminUser(ctx: AuthContext, user: Pick<User, "id" | "role">): boolean {
  const { adminRoles, adminUserIds } = ctx.options.admin;
  return adminUserIds.includes(user.id) || parseRoles(user.role).some((r) => adminRoles.includes(r));
}

/**
 * Whether one of the user's roles grants every requested action on every requested resource.
 * An empty request, or an unknown resource, is refused.
 */
export function hasAdminPermission(
  ctx: AuthContext,
  user: Pick<User, "id" | "role">,
  requested: Record<string, readonly string[]>,
): boolean {
  const grants = parseRoles(user.role)
    .map((role) => statementsFor(ctx, role))
    .filter((s): s is Statements => s !== null);
  if (ctx.options.admin.adminUserIds.includes(user.id)) grants.push(ADMIN_STATEMENTS);
  return someGrantAllows(grants, requested);
}

/** Who is acting, from where: every admin service takes it, checks it and writes it to the audit log. */
export interface AdminActor {
  user: User;
  meta: RequestMeta;
}

/** Throws `refusal` unless the actor holds every requested permission. */
export function requireAdminPermission(
  ctx: AuthContext,
  actor: AdminActor,
  requested: Record<string, readonly string[]>,
  refusal: ErrorCode,
): void {
  if (!hasAdminPermission(ctx, actor.user, requested)) throw new AuthError(refusal);
}

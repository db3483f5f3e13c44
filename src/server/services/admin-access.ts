import type { ErrorCode } from "../../contract/errors/index.js";
import type { User } from "../../contract/models.js";
import type { AuthContext } from "../context.js";
import { AuthError } from "../errors.js";
import type { RequestMeta } from "./sessions.js";

/** resource -> actions a role may take. */
export type Statements = Readonly<Record<string, readonly string[]>>;

/** SPEC section 6: the admin permission set; the plain `user` role has none. */
export const ADMIN_STATEMENTS: Statements = {
  user: ["create", "list", "set-role", "ban", "impersonate", "delete", "set-password"],
  session: ["list", "revoke", "delete"],
};

const BUILT_IN_ROLES: Readonly<Record<string, Statements>> = { admin: ADMIN_STATEMENTS, user: {} };

export function splitRoles(role: string | readonly string[]): string[] {
  const parts = typeof role === "string" ? role.split(",") : role;
  return parts.map((r) => r.trim()).filter((r) => r.length > 0);
}

/** The statements a role grants: configured roles first, then the built-in ones, then admin roles. */
function statementsFor(ctx: AuthContext, role: string): Statements | null {
  const { roles, adminRoles } = ctx.options.admin;
  return roles[role] ?? BUILT_IN_ROLES[role] ?? (adminRoles.includes(role) ? ADMIN_STATEMENTS : null);
}

export function isKnownAdminRole(ctx: AuthContext, role: string): boolean {
  return statementsFor(ctx, role) !== null;
}

/** Whether a user holds the admin set: by an admin role or by being listed in adminUserIds. */
export function isAdminUser(ctx: AuthContext, user: Pick<User, "id" | "role">): boolean {
  const { adminRoles, adminUserIds } = ctx.options.admin;
  return adminUserIds.includes(user.id) || splitRoles(user.role).some((r) => adminRoles.includes(r));
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
  const entries = Object.entries(requested);
  if (entries.length === 0 || entries.some(([, actions]) => actions.length === 0)) return false;
  const grants: Statements[] = splitRoles(user.role)
    .map((role) => statementsFor(ctx, role))
    .filter((s): s is Statements => s !== null);
  if (ctx.options.admin.adminUserIds.includes(user.id)) grants.push(ADMIN_STATEMENTS);
  return grants.some((statements) =>
    entries.every(([resource, actions]) => actions.every((action) => statements[resource]?.includes(action))),
  );
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

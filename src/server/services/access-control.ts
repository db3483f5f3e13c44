import { BUILT_IN_ROLES } from "../../contract/organization-roles.js";
import type { AuthContext } from "../context.js";
import { AuthError } from "../errors.js";
import { grantsOf, parseRoles, type Statements, someGrantAllows } from "./permissions.js";

export { BUILT_IN_ROLES, parseRoles, type Statements };

/** Built-in roles overlaid with options.organization.roles (a custom role may replace a built-in one). */
export function roleTable(ctx: AuthContext): Readonly<Record<string, Statements>> {
  return { ...BUILT_IN_ROLES, ...ctx.options.organization.roles };
}

/** Roles for storage: validated against the role table; ROLE_NOT_FOUND for none or an unknown one. */
export function normalizeRoles(ctx: AuthContext, input: string | readonly string[]): string {
  const roles = parseRoles(input);
  if (roles.length === 0) throw new AuthError("ROLE_NOT_FOUND");
  const table = roleTable(ctx);
  const unknown = roles.filter((r) => !Object.hasOwn(table, r));
  if (unknown.length > 0) throw new AuthError("ROLE_NOT_FOUND", { message: `Role not found: ${unknown.join(", ")}` });
  return roles.join(",");
}

/**
 * Whether a member holding `role` (comma separated) may do everything asked: some single role must
 * grant every requested action on every requested resource. Nothing asked, or an unknown resource,
 * grants nothing.
 */
export function roleAllows(ctx: AuthContext, role: string, request: Record<string, readonly string[]>): boolean {
  return someGrantAllows(grantsOf(roleTable(ctx), parseRoles(role)), request);
}

/** Whether the role string includes the creator role (owner by default): the role the last-owner rules protect. */
export function isOwnerRole(ctx: AuthContext, role: string): boolean {
  return parseRoles(role).includes(ctx.options.organization.creatorRole);
}

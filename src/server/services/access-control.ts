import { BUILT_IN_ROLES } from "../../contract/organization-roles.js";
import { grantsOf, parseRoles, type Statements, someGrantAllows } from "../../contract/roles.js";
import type { AuthContext } from "../context.js";
import { AuthError } from "../errors.js";

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

/** Team roles (options.organization.teams.roles): none unless the app defines them. */
export function teamRoleTable(ctx: AuthContext): Readonly<Record<string, Statements>> {
  return ctx.options.organization.teams.roles;
}

/** Team roles for storage: validated against the team role table; ROLE_NOT_FOUND for an unknown one. */
export function normalizeTeamRoles(ctx: AuthContext, input: string | readonly string[]): string {
  const roles = parseRoles(input);
  if (roles.length === 0) throw new AuthError("ROLE_NOT_FOUND");
  const table = teamRoleTable(ctx);
  const unknown = roles.filter((r) => !Object.hasOwn(table, r));
  if (unknown.length > 0) {
    throw new AuthError("ROLE_NOT_FOUND", { message: `Team role not found: ${unknown.join(", ")}` });
  }
  return roles.join(",");
}

/**
 * Whether a member may do everything asked within a team: their organization role, or their role
 * in that team (null when they hold none), must grant it. A team role adds to the organization
 * role inside its team only; some single role must still grant every requested action.
 */
export function memberAllowsInTeam(
  ctx: AuthContext,
  roles: { role: string; teamRole: string | null },
  request: Record<string, readonly string[]>,
): boolean {
  const grants = [
    ...grantsOf(roleTable(ctx), parseRoles(roles.role)),
    ...grantsOf(teamRoleTable(ctx), parseRoles(roles.teamRole)),
  ];
  return someGrantAllows(grants, request);
}

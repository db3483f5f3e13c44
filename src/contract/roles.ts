import { BUILT_IN_ROLES, type RoleStatements } from "./organization-roles.js";

/**
 * Organization roles, one way for the server and every screen: a member's role is a comma-separated
 * list of names (`"admin,billing"`), each granting the statements the server's role table gives it.
 * The server sends its table (GET /app-config, `organization.roles`); the screens decide what to show
 * with it, the server decides what to allow with the same functions.
 */

/** resource -> actions (the statement format of organization, team and admin roles). */
export type Statements = RoleStatements;

/** The server's roles: which is the creator's (the owner role by default) and what each may do. */
export interface RoleTable {
  creatorRole: string;
  roles: Readonly<Record<string, Statements>>;
}

/** The built-in table (SPEC section 6), for a server that does not say its own. */
export const DEFAULT_ROLE_TABLE: RoleTable = { creatorRole: "owner", roles: BUILT_IN_ROLES };

/** `"admin, member"` or `["admin","member"]` -> `["admin","member"]`: trimmed, empties and repeats dropped. */
export function parseRoles(input: string | readonly string[] | null | undefined): string[] {
  if (input === null || input === undefined) return [];
  const parts = typeof input === "string" ? input.split(",") : input.flatMap((r) => r.split(","));
  return [...new Set(parts.map((r) => r.trim()).filter((r) => r.length > 0))];
}

/** The stored form of a set of roles: the names joined by commas. */
export const formatRoles = (roles: readonly string[]): string => roles.join(",");

/**
 * Whether some single grant allows every requested action on every requested resource. Nothing
 * asked, or an unknown resource, allows nothing. Own keys only, so `constructor` is not a resource.
 */
export function someGrantAllows(grants: readonly Statements[], request: Record<string, readonly string[]>): boolean {
  const asked = Object.entries(request);
  if (asked.length === 0 || asked.some(([, actions]) => actions.length === 0)) return false;
  return grants.some((statements) =>
    asked.every(([resource, actions]) => {
      const allowed = Object.hasOwn(statements, resource) ? statements[resource] : undefined;
      return allowed !== undefined && actions.every((action) => allowed.includes(action));
    }),
  );
}

/** The statements of each named role that the table defines (own keys only). */
export function grantsOf(table: Readonly<Record<string, Statements>>, roles: readonly string[]): Statements[] {
  return roles.flatMap((name) => (Object.hasOwn(table, name) && table[name] ? [table[name]] : []));
}

/** Whether a member with `role` may do `action` on `resource` by the table. */
export function roleCan(table: RoleTable, role: string | null | undefined, resource: string, action: string): boolean {
  return someGrantAllows(grantsOf(table.roles, parseRoles(role)), { [resource]: [action] });
}

/** Whether `role` includes the creator role (the role the last-owner rules protect). */
export function holdsCreatorRole(table: RoleTable, role: string | null | undefined): boolean {
  return parseRoles(role).includes(table.creatorRole);
}

/** The roles a member with `viewerRole` may hand out: every role, the creator role only by its holders. */
export function assignableRoles(table: RoleTable, viewerRole: string | null | undefined): string[] {
  const creator = holdsCreatorRole(table, viewerRole);
  return Object.keys(table.roles).filter((name) => creator || name !== table.creatorRole);
}

/** The table as plain JSON (GET /app-config's `organization.roles`). */
export function roleTableJson(table: RoleTable): {
  creatorRole: string;
  roles: Record<string, Record<string, string[]>>;
} {
  const roles = Object.fromEntries(
    Object.entries(table.roles).map(([name, statements]) => [
      name,
      Object.fromEntries(Object.entries(statements).map(([resource, actions]) => [resource, [...actions]])),
    ]),
  );
  return { creatorRole: table.creatorRole, roles };
}

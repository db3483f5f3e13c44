import { useMemo } from "react";
import {
  assignableRoles,
  DEFAULT_ROLE_TABLE,
  holdsCreatorRole,
  parseRoles,
  type RoleTable,
  roleCan,
} from "../contract/roles.js";
import { isMessageKey, type Translate } from "../i18n/index.js";
import { useServerOptions } from "./server-options.js";

/**
 * "owner,admin" -> "Owner, Admin": built-in roles from the catalogue, custom ones capitalised.
 *
 * @example
 * const words: Record<string, string> = { "role.owner": "Inhaber", "role.admin": "Administrator" };
 * roleLabel("owner,admin", (key) => words[key] ?? key); // "Inhaber, Administrator"
 * roleLabel("billing", (key) => words[key] ?? key); // "Billing" (a custom role)
 */
export const roleLabel = (role: string, t: Translate) =>
  parseRoles(role)
    .map((name) => {
      const key = `role.${name}`;
      return isMessageKey(key) ? t(key) : name.charAt(0).toUpperCase() + name.slice(1);
    })
    .join(", ");

/**
 * Which of a member's controls the viewer gets (the server's rules, services/members.ts): only a
 * holder of the creator role may touch one or hand that role out; nobody changes or removes themselves.
 */
export function memberControls(
  table: RoleTable,
  viewerRole: string | null | undefined,
  target: { role: string },
  self: boolean,
) {
  const owner = holdsCreatorRole(table, viewerRole);
  const reachable = !self && (owner || !holdsCreatorRole(table, target.role));
  return {
    changeRole: reachable && roleCan(table, viewerRole, "member", "update"),
    remove: reachable && roleCan(table, viewerRole, "member", "delete"),
    roles: assignableRoles(table, viewerRole),
    // Only an owner hands the ownership on, to someone who is not an owner yet.
    transferOwnership: !self && owner && !holdsCreatorRole(table, target.role),
  };
}

/** Whether the user is the organization's only owner (the server refuses their leaving). */
export function isOnlyOwner(table: RoleTable, members: { userId: string; role: string }[], userId: string): boolean {
  const owners = members.filter((m) => holdsCreatorRole(table, m.role));
  return owners.length === 1 && owners[0]?.userId === userId;
}

/**
 * The server's role table (GET /app-config) and what the screens ask of it. The server refuses
 * anything a role may not do; the screens use this only to hide controls a member cannot use. Until
 * the server answers, the built-in table stands in.
 */
export function useRoles() {
  const options = useServerOptions();
  const table: RoleTable = options?.organization.roles ?? DEFAULT_ROLE_TABLE;
  return useMemo(
    () => ({
      table,
      can: (role: string | null | undefined, resource: string, action: string) =>
        roleCan(table, role, resource, action),
      isOwner: (role: string | null | undefined) => holdsCreatorRole(table, role),
      assignable: (viewerRole: string | null | undefined) => assignableRoles(table, viewerRole),
      memberControls: (viewerRole: string | null | undefined, target: { role: string }, self: boolean) =>
        memberControls(table, viewerRole, target, self),
      isOnlyOwner: (members: { userId: string; role: string }[], userId: string) => isOnlyOwner(table, members, userId),
    }),
    [table],
  );
}

/**
 * Whether a role may do something by a role table (the built-in one unless given): for an app's own
 * screens. Inside components, `useRoles().can` reads the server's table.
 *
 * @example
 * can("admin", "invitation", "create"); // true
 * can(member.role, "team", "create", serverOptions.organization.roles);
 */
export function can(
  role: string | null | undefined,
  resource: string,
  action: string,
  table: RoleTable = DEFAULT_ROLE_TABLE,
): boolean {
  return roleCan(table, role, resource, action);
}

import { BUILT_IN_ROLES } from "../contract/organization-roles.js";
import { isMessageKey, type Translate } from "../i18n/index.js";

/**
 * Whether a role may do something, by the server's own table of built-in roles (SPEC section 6).
 * The server refuses anything else; the UI uses this only to hide controls a member cannot use.
 * Roles are stored comma-separated; any role granting the action is enough.
 */
export function can(role: string | null | undefined, resource: string, action: string): boolean {
  if (!role) return false;
  return role.split(",").some((name) => {
    const statements = Object.hasOwn(BUILT_IN_ROLES, name.trim()) ? BUILT_IN_ROLES[name.trim()] : undefined;
    return statements !== undefined && Object.hasOwn(statements, resource) && statements[resource]!.includes(action);
  });
}

/** "owner,admin" -> "Owner, Admin": built-in roles from the catalogue, custom ones capitalised. */
export const roleLabel = (role: string, t: Translate) =>
  role
    .split(",")
    .map((r) => {
      const name = r.trim();
      const key = `role.${name}`;
      return isMessageKey(key) ? t(key) : name.charAt(0).toUpperCase() + name.slice(1);
    })
    .join(", ");

const isOwner = (role: string | null | undefined) => (role ?? "").split(",").some((r) => r.trim() === "owner");

/**
 * Which of a member's controls the viewer gets (the server's rules, services/members.ts): only an
 * owner may touch an owner or hand out the owner role; nobody changes or removes themselves here.
 */
export function memberControls(viewerRole: string | null | undefined, target: { role: string }, self: boolean) {
  const reachable = !self && (isOwner(viewerRole) || !isOwner(target.role));
  return {
    changeRole: reachable && can(viewerRole, "member", "update"),
    remove: reachable && can(viewerRole, "member", "delete"),
    roles: isOwner(viewerRole) ? ["member", "admin", "owner"] : ["member", "admin"],
    // Only an owner hands the ownership on, to someone who is not an owner yet.
    transferOwnership: !self && isOwner(viewerRole) && !isOwner(target.role),
  };
}

/** Whether the role includes owner. */
export { isOwner };

/** Whether the user is the organization's only owner (the server refuses their leaving). */
export function isOnlyOwner(members: { userId: string; role: string }[], userId: string): boolean {
  const owners = members.filter((m) => isOwner(m.role));
  return owners.length === 1 && owners[0]?.userId === userId;
}

import { BUILT_IN_ROLES } from "../../contract/organization-roles.js";

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

// Shared with the components (AcceptInvitation names the role too).
export { roleLabel } from "../../react/role-label.js";

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

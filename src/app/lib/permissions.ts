/**
 * What each built-in role may do (SPEC section 6). The server refuses anything else; the UI uses
 * this only to hide controls a member cannot use.
 */
const permissions: Record<string, Record<string, readonly string[]>> = {
  owner: {
    organization: ["update", "delete"],
    member: ["create", "update", "delete"],
    invitation: ["create", "cancel"],
    team: ["create", "update", "delete"],
  },
  admin: {
    organization: ["update"],
    member: ["create", "update", "delete"],
    invitation: ["create", "cancel"],
    team: ["create", "update", "delete"],
  },
  member: {},
};

/** Roles are stored comma-separated; any role granting the action is enough. */
export function can(role: string | null | undefined, resource: string, action: string): boolean {
  if (!role) return false;
  return role.split(",").some((r) => permissions[r.trim()]?.[resource]?.includes(action) ?? false);
}

export const roleLabel = (role: string) =>
  role
    .split(",")
    .map((r) => r.trim().charAt(0).toUpperCase() + r.trim().slice(1))
    .join(", ");

/** resource -> actions a role may perform on it (the same shape as the server's Statements). */
export type RoleStatements = Readonly<Record<string, readonly string[]>>;

/**
 * The built-in organization roles exactly as SPEC section 6 lists them. The server decides with
 * these (plus configured roles); the application reads them only to hide what a role may not do.
 * `member` has no permissions: what a plain member may do is decided by membership alone.
 */
const ownerStatements: RoleStatements = {
  organization: ["update", "delete"],
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
  team: ["create", "update", "delete"],
};

/** Least to most: the order role choices are offered in. */
export const BUILT_IN_ROLES: Readonly<Record<string, RoleStatements>> = {
  member: {},
  admin: { ...ownerStatements, organization: ["update"] },
  owner: ownerStatements,
};

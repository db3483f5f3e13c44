// One table of who may do what, shared with the exported organization components: the server's
// (GET /app-config), read through useRoles in components, or from the config where none runs.
export { holdsCreatorRole, roleCan } from "../../contract/roles.js";
export { roleLabel, useRoles } from "../../react/organization-roles.js";

// One table of who may do what, shared with the exported organization components.
export { can, isOwner as isOwnerRole, memberControls, roleLabel } from "../../react/organization-roles.js";

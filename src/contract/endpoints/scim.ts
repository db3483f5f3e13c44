import * as scim from "../scim.js";
import { endpoint } from "./define.js";
import { successReply } from "./replies.js";

const OWNER = { session: "required", feature: "scim" } as const;
const MEMBERSHIP = ["NO_ACTIVE_ORGANIZATION", "YOU_ARE_NOT_ALLOWED_TO_MANAGE_SCIM"] as const;

/**
 * An organization's SCIM connections (better-auth's @better-auth/scim management routes). The
 * directory's own calls under /scim/v2 speak SCIM, not this API: docs/scim.md.
 */
export const scimEndpoints = {
  generateSCIMToken: endpoint({
    method: "POST",
    path: "/scim/generate-token",
    summary: "Create or rotate an organization's SCIM connection; its bearer token is shown once",
    body: scim.generateScimTokenBody,
    reply: scim.scimTokenReply,
    errors: [...MEMBERSHIP, "SCIM_PROVIDER_ID_INVALID", "SCIM_PROVIDER_ID_TAKEN"],
    // A token outlives the session that made it: an admin's impersonation session may not make one.
    audit: { action: "organization.scim_token_generated", organization: "organizationId" },
    policy: { ...OWNER, credentials: "manage" },
  }),
  listSCIMProviderConnections: endpoint({
    method: "GET",
    path: "/scim/list-provider-connections",
    summary: "The SCIM connections of the organizations the caller owns (never their tokens)",
    reply: scim.scimConnectionsReply,
    policy: OWNER,
  }),
  getSCIMProviderConnection: endpoint({
    method: "GET",
    path: "/scim/get-provider-connection",
    summary: "One SCIM connection, by provider id",
    query: scim.providerIdQuery,
    reply: scim.scimConnectionModel,
    errors: [...MEMBERSHIP, "SCIM_PROVIDER_NOT_FOUND"],
    policy: OWNER,
  }),
  updateSCIMProviderConnection: endpoint({
    method: "POST",
    path: "/scim/update-provider-connection",
    summary: "Change whether a SCIM connection may take over existing members (its token stays)",
    body: scim.updateScimConnectionBody,
    reply: scim.scimConnectionModel,
    errors: [...MEMBERSHIP, "SCIM_PROVIDER_NOT_FOUND"],
    // It widens what a standing token may do to existing accounts: the owner's call, not an impersonator's.
    audit: { action: "organization.scim_connection_updated" },
    policy: { ...OWNER, credentials: "manage" },
  }),
  deleteSCIMProviderConnection: endpoint({
    method: "POST",
    path: "/scim/delete-provider-connection",
    summary: "Revoke a SCIM connection's token; its users stay, unlinked from the directory",
    body: scim.providerIdBody,
    reply: successReply,
    errors: [...MEMBERSHIP, "SCIM_PROVIDER_NOT_FOUND"],
    audit: { action: "organization.scim_connection_deleted" },
    policy: OWNER,
  }),
  getSCIMConnectionHealth: endpoint({
    method: "GET",
    path: "/scim/connection-health",
    summary: "How a SCIM connection's sync is going: its last call, what it provisioned, its latest refused calls",
    query: scim.providerIdQuery,
    reply: scim.scimConnectionHealthModel,
    errors: [...MEMBERSHIP, "SCIM_PROVIDER_NOT_FOUND"],
    policy: OWNER,
  }),
  listSCIMUsers: endpoint({
    method: "GET",
    path: "/scim/list-users",
    summary: "The people a SCIM connection provisioned, oldest first, a page at a time",
    query: scim.listScimUsersQuery,
    reply: scim.scimUsersReply,
    errors: [...MEMBERSHIP, "SCIM_PROVIDER_NOT_FOUND"],
    policy: OWNER,
  }),
  listSCIMGroups: endpoint({
    method: "GET",
    path: "/scim/list-groups",
    summary: "The groups a SCIM connection pushed, with what each grants",
    query: scim.providerIdQuery,
    reply: scim.scimGroupMappingsReply,
    errors: [...MEMBERSHIP, "SCIM_PROVIDER_NOT_FOUND"],
    policy: OWNER,
  }),
  updateSCIMGroupMapping: endpoint({
    method: "POST",
    path: "/scim/update-group-mapping",
    summary: "Map a directory group to an organization role or a team (or to nothing)",
    body: scim.updateScimGroupMappingBody,
    reply: scim.scimGroupMappingModel,
    errors: [
      ...MEMBERSHIP,
      "SCIM_PROVIDER_NOT_FOUND",
      "SCIM_GROUP_NOT_FOUND",
      "SCIM_GROUP_MAPPING_INVALID",
      "SCIM_GROUP_ROLE_NOT_ALLOWED",
      "SCIM_GROUP_MAPPING_REFUSED",
      "ROLE_NOT_FOUND",
      "TEAM_NOT_FOUND",
    ],
    audit: { action: "organization.scim_group_mapping_updated" },
    policy: OWNER,
  }),
} as const;

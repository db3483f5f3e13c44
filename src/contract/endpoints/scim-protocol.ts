import { z } from "zod";
import { endpoint } from "./define.js";

/**
 * The SCIM 2.0 protocol (RFC 7643, RFC 7644) an organization's directory calls, under /scim/v2
 * (docs/scim.md): by bearer token, in application/scim+json. Bodies are read by the SCIM services
 * themselves, whose refusals are SCIM errors; names follow better-auth's SCIM plugin.
 */
const DIRECTORY = { directory: true, feature: "scim" } as const;
/** A SCIM resource or PatchOp: parsed by scim/*-input.ts, whose refusals name the attribute. */
const resource = z.record(z.string(), z.unknown());
/** List parameters (RFC 7644 section 3.4.2); others a directory sends (attributes, sortBy) are ignored. */
const listQuery = z
  .object({
    filter: z.string().max(1000).optional(),
    startIndex: z.string().max(20).optional(),
    count: z.string().max(20).optional(),
    excludedAttributes: z.string().max(200).optional(),
  })
  .loose();
const readQuery = z.object({ excludedAttributes: z.string().max(200).optional() }).loose();
const scim = { reply: null, answers: "scim", policy: DIRECTORY } as const;

export const scimProtocolEndpoints = {
  getSCIMServiceProviderConfig: endpoint({
    method: "GET",
    path: "/scim/v2/ServiceProviderConfig",
    summary: "SCIM: what this service provider supports",
    ...scim,
  }),
  getSCIMResourceTypes: endpoint({
    method: "GET",
    path: "/scim/v2/ResourceTypes",
    summary: "SCIM: the resource types (User, Group)",
    ...scim,
  }),
  getSCIMResourceType: endpoint({
    method: "GET",
    path: "/scim/v2/ResourceTypes/:id",
    summary: "SCIM: one resource type",
    ...scim,
  }),
  getSCIMSchemas: endpoint({ method: "GET", path: "/scim/v2/Schemas", summary: "SCIM: the schemas", ...scim }),
  getSCIMSchema: endpoint({ method: "GET", path: "/scim/v2/Schemas/:id", summary: "SCIM: one schema", ...scim }),
  // The owners' list of a connection's people is `listSCIMUsers` (/scim/list-users): this is the directory's.
  getSCIMUsers: endpoint({
    method: "GET",
    path: "/scim/v2/Users",
    summary: "SCIM: the users this connection provisioned, filtered and paged",
    query: listQuery,
    ...scim,
  }),
  createSCIMUser: endpoint({
    method: "POST",
    path: "/scim/v2/Users",
    summary: "SCIM: provision a user into the connection's organization",
    body: resource,
    audit: { action: "directory.user_provisioned" },
    ...scim,
  }),
  getSCIMUser: endpoint({
    method: "GET",
    path: "/scim/v2/Users/:id",
    summary: "SCIM: one provisioned user",
    query: readQuery,
    ...scim,
  }),
  updateSCIMUser: endpoint({
    method: "PUT",
    path: "/scim/v2/Users/:id",
    summary: "SCIM: replace a provisioned user",
    body: resource,
    audit: { action: "directory.user_updated" },
    ...scim,
  }),
  patchSCIMUser: endpoint({
    method: "PATCH",
    path: "/scim/v2/Users/:id",
    summary: "SCIM: change a provisioned user (deactivate with active: false)",
    body: resource,
    audit: { action: "directory.user_updated" },
    ...scim,
  }),
  deleteSCIMUser: endpoint({
    method: "DELETE",
    path: "/scim/v2/Users/:id",
    summary: "SCIM: deprovision a user (the membership ends; the account stays)",
    audit: { action: "directory.user_deprovisioned" },
    ...scim,
  }),
  getSCIMGroups: endpoint({
    method: "GET",
    path: "/scim/v2/Groups",
    summary: "SCIM: the groups this connection pushed",
    query: listQuery,
    ...scim,
  }),
  createSCIMGroup: endpoint({
    method: "POST",
    path: "/scim/v2/Groups",
    summary: "SCIM: push a group (it grants nothing until an owner maps it)",
    body: resource,
    audit: { action: "directory.group_created" },
    ...scim,
  }),
  getSCIMGroup: endpoint({
    method: "GET",
    path: "/scim/v2/Groups/:id",
    summary: "SCIM: one group",
    query: readQuery,
    ...scim,
  }),
  updateSCIMGroup: endpoint({
    method: "PUT",
    path: "/scim/v2/Groups/:id",
    summary: "SCIM: replace a group's name and members",
    body: resource,
    audit: { action: "directory.group_updated" },
    ...scim,
  }),
  patchSCIMGroup: endpoint({
    method: "PATCH",
    path: "/scim/v2/Groups/:id",
    summary: "SCIM: change a group's name or members",
    body: resource,
    audit: { action: "directory.group_updated" },
    ...scim,
  }),
  deleteSCIMGroup: endpoint({
    method: "DELETE",
    path: "/scim/v2/Groups/:id",
    summary: "SCIM: remove a group (its members lose what it gave them)",
    audit: { action: "directory.group_deleted" },
    ...scim,
  }),
};

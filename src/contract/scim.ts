import { z } from "zod";
import { queryInt } from "./fields.js";

/**
 * Bodies and replies of the SCIM connection routes (better-auth's @better-auth/scim wire). The SCIM
 * protocol itself (/scim/v2/...) is not part of this API: docs/scim.md.
 */

/** A connection's name within the service; `:` would be ambiguous inside better-auth's token format. */
const providerId = z.string().trim().min(1).max(100);

export const generateScimTokenBody = z.object({
  providerId,
  /** Defaults to the session's active organization. */
  organizationId: z.string().min(1).optional(),
  /**
   * Gatehouse's addition: the directory may take over people who are already members of the
   * organization (matched by email). Off: a token only ever touches the people it provisioned.
   */
  linkExistingMembers: z.boolean().optional(),
});

/** Gatehouse's addition: change an existing connection's linkExistingMembers, its token untouched. */
export const updateScimConnectionBody = z.object({ providerId, linkExistingMembers: z.boolean() });

export const providerIdBody = z.object({ providerId });
export const providerIdQuery = z.object({ providerId });

export const scimTokenReply = z.object({ scimToken: z.string() });

export const scimConnectionModel = z.object({
  id: z.string(),
  providerId: z.string(),
  organizationId: z.string(),
  linkExistingMembers: z.boolean(),
  createdAt: z.date(),
  /** The last directory call its token made (written at most once a minute); null: none yet. */
  lastUsedAt: z.date().nullable(),
});

export type ScimConnection = z.infer<typeof scimConnectionModel>;

export const scimConnectionsReply = z.object({ providers: z.array(scimConnectionModel) });

/** A directory call that was refused, with the SCIM message the directory got (never the request's body). */
export const scimRefusalModel = z.object({
  at: z.date(),
  method: z.string(),
  /** Under the SCIM base URL, without the query: `/Users/<id>`. */
  path: z.string(),
  status: z.number().int(),
  scimType: z.string().nullable(),
  detail: z.string(),
});

/** How a directory connection's sync is going (Gatehouse's addition; docs/scim.md "Sync health"). */
export const scimConnectionHealthModel = z.object({
  providerId: z.string(),
  /** The last directory call (written at most once a minute); null: none yet. */
  lastUsedAt: z.date().nullable(),
  /** The users and groups the connection provisioned and still holds. */
  users: z.number().int(),
  groups: z.number().int(),
  /** Its latest refused calls, newest first: at most SCIM_RECENT_ERRORS of them are kept. */
  recentErrors: z.array(scimRefusalModel),
});

export type ScimConnectionHealth = z.infer<typeof scimConnectionHealthModel>;

/** How many refused calls are kept per connection. */
export const SCIM_RECENT_ERRORS = 20;

/** A role list as the organization routes take it: "admin", "admin,billing" or ["admin","billing"]. */
const roles = z.union([z.string().min(1).max(200), z.array(z.string().min(1).max(100)).min(1).max(20)]);

/**
 * What a directory's group grants (Gatehouse's addition; better-auth configures this in code):
 * an organization role, or a place in a team with an optional team role, or nothing (all null).
 */
export const updateScimGroupMappingBody = z.object({
  providerId,
  groupId: z.string().min(1).max(200),
  role: roles.nullable().optional(),
  teamId: z.string().min(1).max(200).nullable().optional(),
  teamRole: roles.nullable().optional(),
});

export const scimGroupMappingModel = z.object({
  id: z.string(),
  displayName: z.string(),
  externalId: z.string().nullable(),
  role: z.string().nullable(),
  teamId: z.string().nullable(),
  teamRole: z.string().nullable(),
  /** How many of the connection's users the directory put in the group. */
  members: z.number(),
  updatedAt: z.date(),
});

export type ScimGroupMapping = z.infer<typeof scimGroupMappingModel>;

export const scimGroupMappingsReply = z.object({ groups: z.array(scimGroupMappingModel) });

/** The people a connection provisioned, for its owners (Gatehouse's addition): a page at a time. */
export const listScimUsersQuery = z.object({
  providerId,
  limit: queryInt(500).optional(),
  offset: queryInt().optional(),
});

export const scimProvisionedUserModel = z.object({
  /** The user's id. */
  id: z.string(),
  userName: z.string(),
  email: z.string(),
  name: z.string(),
  externalId: z.string().nullable(),
  /** Whether they are a member of the organization now (the directory's `active`). */
  active: z.boolean(),
  /** The directory created the account, rather than taking over an existing member. */
  createdUser: z.boolean(),
  createdAt: z.date(),
  updatedAt: z.date(),
});

export type ScimProvisionedUser = z.infer<typeof scimProvisionedUserModel>;

export const scimUsersReply = z.object({ total: z.number(), users: z.array(scimProvisionedUserModel) });

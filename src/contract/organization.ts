import { z } from "zod";
import { imageUrl, queryInt } from "./fields.js";

/**
 * Request bodies and queries of the organization routes (WIRE section 8.2). Unknown keys are
 * ignored; emails and roles are checked in the services so answers carry catalogue codes.
 */
const id = z.string().min(1);
/** A role or several: `"admin"`, `"admin,member"` or `["admin", "member"]`. */
const roleInput = z.union([z.string(), z.array(z.string())]);
const metadata = z.record(z.string(), z.unknown());
/** An invitation names at most this many teams to join. */
const MAX_TEAMS_PER_INVITATION = 100;

export const createOrganizationBody = z.object({
  name: z.string().trim().min(1).max(200),
  slug: z.string().trim().min(1).max(200),
  logo: imageUrl.nullish(),
  metadata: metadata.nullish(),
  userId: id.optional(),
  keepCurrentActiveOrganization: z.boolean().optional(),
});

export const checkSlugBody = z.object({ slug: z.string().trim().min(1) });

export const updateOrganizationBody = z.object({
  data: z.object({
    name: z.string().trim().min(1).max(200).optional(),
    slug: z.string().trim().min(1).max(200).optional(),
    logo: imageUrl.nullish(),
    metadata: metadata.nullish(),
  }),
  organizationId: id.optional(),
});

export const organizationIdBody = z.object({ organizationId: id });

export const setActiveOrganizationBody = z.object({
  organizationId: id.nullish(),
  organizationSlug: id.optional(),
});

export const getFullOrganizationQuery = z.object({
  organizationId: id.optional(),
  organizationSlug: id.optional(),
  membersLimit: queryInt().optional(),
});

/** get-organization: the organization alone, by id or slug, else the active one. */
export const getOrganizationQuery = z.object({
  organizationId: id.optional(),
  organizationSlug: id.optional(),
});

export const inviteMemberBody = z.object({
  email: z.string(),
  role: roleInput,
  organizationId: id.optional(),
  resend: z.boolean().optional(),
  teamId: z.union([id, z.array(id).max(MAX_TEAMS_PER_INVITATION)]).optional(),
});

export const invitationIdBody = z.object({ invitationId: id });
export const getInvitationQuery = z.object({ id });
export const organizationIdQuery = z.object({ organizationId: id.optional() });

export const removeMemberBody = z.object({ memberIdOrEmail: id, organizationId: id.optional() });

export const updateMemberRoleBody = z.object({
  memberId: id,
  role: roleInput,
  organizationId: id.optional(),
});

/** The member who becomes the owner, named by member id or by user id (exactly one). */
export const transferOwnershipBody = z
  .object({ memberId: id.optional(), userId: id.optional(), organizationId: id.optional() })
  .refine((b) => (b.memberId === undefined) !== (b.userId === undefined), {
    message: "Invalid input: send exactly one of memberId or userId",
  });

export const activeMemberRoleQuery = z.object({
  userId: id.optional(),
  organizationId: id.optional(),
  organizationSlug: id.optional(),
});

export const MEMBER_FILTER_OPERATORS = [
  "eq",
  "ne",
  "lt",
  "lte",
  "gt",
  "gte",
  "in",
  "not_in",
  "contains",
  "starts_with",
  "ends_with",
] as const;
export const MEMBER_FIELDS = ["id", "userId", "role", "createdAt", "name", "email"] as const;

export const listMembersQuery = z.object({
  limit: queryInt().optional(),
  offset: queryInt().optional(),
  sortBy: z.enum(MEMBER_FIELDS).optional(),
  sortDirection: z.enum(["asc", "desc"]).optional(),
  filterField: z.enum(MEMBER_FIELDS).optional(),
  filterOperator: z.enum(MEMBER_FILTER_OPERATORS).optional(),
  filterValue: z.string().optional(),
  organizationId: id.optional(),
  organizationSlug: id.optional(),
});
export type ListMembersQuery = z.infer<typeof listMembersQuery>;

const permissions = z.record(z.string(), z.array(z.string()));
export const hasPermissionBody = z
  .object({
    organizationId: id.optional(),
    /** Gatehouse's addition (team roles): also count the caller's role in this team. */
    teamId: id.optional(),
    permissions: permissions.optional(),
    permission: permissions.optional(),
  })
  .refine((b) => (b.permissions === undefined) !== (b.permission === undefined), {
    message: "Invalid input: send exactly one of permissions or permission",
  });

export const addMemberInput = z.object({
  userId: id,
  role: roleInput,
  organizationId: id,
  teamId: id.optional(),
});
export type AddMemberInput = z.input<typeof addMemberInput>;

// ---- teams ----
export const createTeamBody = z.object({ name: z.string().trim().min(1).max(200), organizationId: id.optional() });
export const updateTeamBody = z.object({
  teamId: id,
  data: z.object({ name: z.string().trim().min(1).max(200).optional(), organizationId: id.optional() }),
});
export const teamIdBody = z.object({ teamId: id, organizationId: id.optional() });
export const setActiveTeamBody = z.object({ teamId: id.nullish() });
export const listUserTeamsQuery = z.object({ userId: id.optional(), organizationId: id.optional() });
export const listTeamMembersQuery = z.object({ teamId: id.optional() });
export const teamMemberBody = z.object({ teamId: id, userId: id, organizationId: id.optional() });
/** add-team-member; `role` is the member's role within the team (team roles, Gatehouse's addition). */
export const addTeamMemberBody = teamMemberBody.extend({ role: roleInput.optional() });
/** A member's role within a team; null clears it. */
export const updateTeamMemberRoleBody = teamMemberBody.extend({ role: roleInput.nullable() });

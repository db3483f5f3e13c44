import { z } from "zod";
import {
  invitationModel,
  memberModel,
  memberWithUserModel,
  organizationModel,
  teamModel,
  timestamp,
} from "./models.js";

/**
 * Reply shapes built from the models (WIRE 5, 8.2) that clients need by name.
 * Dates are Date after the client revives them.
 */
export type { Invitation, Member, MemberUser, MemberWithUser, Organization, Team, TeamMember } from "./models.js";

/** get-full-organization: the organization with its members (and their users), invitations and teams. */
export const fullOrganizationModel = organizationModel.extend({
  members: z.array(memberWithUserModel),
  invitations: z.array(invitationModel),
  teams: z.array(teamModel),
});
export type FullOrganization = z.output<typeof fullOrganizationModel>;

/** get-invitation adds the names the invitee needs to decide. */
export const invitationDetailsModel = invitationModel.extend({
  organizationName: z.string(),
  organizationSlug: z.string(),
  inviterEmail: z.string(),
});
export type InvitationDetails = z.output<typeof invitationDetailsModel>;

/**
 * What an invitation link shows before sign-in (issue 31): enough to decide and to create the
 * account with the invited address. Keyed by the invitation's id, which only its mail carries.
 */
export const invitationPreviewModel = z.object({
  id: z.string(),
  organizationName: z.string(),
  inviterName: z.string(),
  role: z.string(),
  email: z.string(),
  expiresAt: timestamp,
});
export type InvitationPreview = z.output<typeof invitationPreviewModel>;

/** create replies with the organization and its first member. */
export const createdOrganizationModel = organizationModel.extend({ members: z.array(memberModel) });
export type CreatedOrganization = z.output<typeof createdOrganizationModel>;

/** A row of list-accounts. */
export const linkedAccountModel = z.object({
  id: z.string(),
  providerId: z.string(),
  accountId: z.string(),
  userId: z.string(),
  scopes: z.array(z.string()),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type LinkedAccount = z.output<typeof linkedAccountModel>;

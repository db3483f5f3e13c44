import type { Invitation, Member, MemberWithUser, Organization, Team } from "./models.js";

/**
 * Reply shapes built from the models (WIRE 5, 8.2) that clients need by name.
 * Dates are Date after the client revives them.
 */
export type { Invitation, Member, MemberUser, MemberWithUser, Organization, Team, TeamMember } from "./models.js";

/** get-full-organization: the organization with its members (and their users), invitations and teams. */
export interface FullOrganization extends Organization {
  members: MemberWithUser[];
  invitations: Invitation[];
  teams: Team[];
}

/** get-invitation adds the names the invitee needs to decide. */
export interface InvitationDetails extends Invitation {
  organizationName: string;
  organizationSlug: string;
  inviterEmail: string;
}

/** create replies with the organization and its first member. */
export interface CreatedOrganization extends Organization {
  members: Member[];
}

/** A row of list-accounts. */
export interface LinkedAccount {
  id: string;
  providerId: string;
  accountId: string;
  userId: string;
  scopes: string[];
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Objects of the account-linking and organization routes as the API returns them (WIRE 5, 8.1),
 * spelled out for clients. Dates are Date after the client revives them.
 */
export interface Organization {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  metadata: Record<string, unknown> | string | null;
  createdAt: Date;
}

export interface MemberUser {
  id: string;
  name: string;
  email: string;
  image: string | null;
}

export interface Member {
  id: string;
  organizationId: string;
  userId: string;
  /** Comma-separated when a member holds several roles. */
  role: string;
  createdAt: Date;
  user?: MemberUser;
}

export type InvitationStatus = "pending" | "accepted" | "rejected" | "canceled";

export interface Invitation {
  id: string;
  organizationId: string;
  email: string;
  role: string;
  /** Comma-separated team ids, or null. */
  teamId: string | null;
  status: InvitationStatus;
  expiresAt: Date;
  createdAt: Date;
  inviterId: string;
}

/** get-invitation adds the names the invitee needs to decide. */
export interface InvitationDetails extends Invitation {
  organizationName: string;
  organizationSlug: string;
  inviterEmail: string;
}

export interface Team {
  id: string;
  name: string;
  organizationId: string;
  createdAt: Date;
  updatedAt: Date | null;
}

export interface TeamMember {
  id: string;
  teamId: string;
  userId: string;
  createdAt: Date;
}

export interface FullOrganization extends Organization {
  members: Member[];
  invitations: Invitation[];
  teams: Team[];
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

import { defineErrors } from "./define.js";

/** Organizations, members, invitations and teams (SPEC section 8, WIRE section 8). */
export const organizationErrors = defineErrors({
  YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION: {
    message: "You are not allowed to create a new organization",
    status: 403,
  },
  YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS: {
    message: "You have reached the maximum number of organizations",
    status: 403,
  },
  ORGANIZATION_ALREADY_EXISTS: { message: "Organization already exists", status: 400 },
  ORGANIZATION_SLUG_ALREADY_TAKEN: { message: "slug is taken", status: 400 },
  ORGANIZATION_NOT_FOUND: { message: "Organization not found", status: 400 },
  ORGANIZATION_ID_REQUIRED: { message: "Organization ID is required", status: 400 },
  USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION: { message: "User is not a member of the organization", status: 400 },
  YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION: { message: "You are not a member of this organization", status: 403 },
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION: {
    message: "You are not allowed to update or delete this organization",
    status: 403,
  },
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION: {
    message: "You are not allowed to update or delete this organization",
    status: 403,
  },
  YOU_ARE_NOT_ALLOWED_TO_ACCESS_THIS_ORGANIZATION: {
    message: "You are not allowed to access this organization",
    status: 403,
  },
  NO_ACTIVE_ORGANIZATION: { message: "No active organization", status: 400 },
  USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: {
    message: "User is already a member of this organization",
    status: 400,
  },
  MEMBER_NOT_FOUND: { message: "Member not found", status: 400 },
  ROLE_NOT_FOUND: { message: "Role not found", status: 400 },
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER: {
    message: "You cannot leave the organization as the only owner",
    status: 400,
  },
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER: {
    message: "You cannot leave the organization without an owner",
    status: 400,
  },
  USER_IS_THE_ONLY_OWNER_OF_AN_ORGANIZATION: {
    message:
      "The account is the only owner of an organization that has other members: transfer the ownership to another member or delete the organization first",
    status: 400,
  },
  YOU_ARE_NOT_ALLOWED_TO_READ_THE_AUDIT_TRAIL: {
    message: "Only an owner of the organization can read its audit trail",
    status: 403,
  },
  YOU_ARE_NOT_ALLOWED_TO_MANAGE_WEBHOOKS: {
    message: "Only an owner of the organization can manage its webhooks",
    status: 403,
  },
  WEBHOOK_NOT_FOUND: { message: "Webhook not found", status: 404 },
  WEBHOOK_DISABLED: { message: "The webhook is disabled: enable it to send it a test", status: 400 },
  INVALID_WEBHOOK_URL: {
    message: "The webhook URL must be https and reach a public address",
    status: 400,
  },
  WEBHOOK_URL_ALREADY_EXISTS: { message: "The organization already has a webhook for this URL", status: 400 },
  TOO_MANY_WEBHOOKS: { message: "The organization has reached the maximum number of webhooks", status: 403 },
  YOU_ARE_NOT_ALLOWED_TO_TRANSFER_OWNERSHIP: {
    message: "Only an owner of the organization can transfer its ownership",
    status: 403,
  },
  YOU_CANNOT_TRANSFER_OWNERSHIP_TO_YOURSELF: { message: "You cannot transfer the ownership to yourself", status: 400 },
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER: { message: "You are not allowed to delete this member", status: 403 },
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER: { message: "You are not allowed to update this member", status: 403 },
  YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION: {
    message: "You are not allowed to invite users to this organization",
    status: 403,
  },
  YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE: {
    message: "You are not allowed to invite a user with this role",
    status: 403,
  },
  USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION: {
    message: "User is already invited to this organization",
    status: 400,
  },
  INVITATION_NOT_FOUND: { message: "Invitation not found", status: 400 },
  INVITATION_NOT_FOUND_FOR_RESPONSE: { message: "Invitation not found!", status: 400 },
  YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION: { message: "You are not the recipient of the invitation", status: 403 },
  EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION: {
    message: "Email verification required before accepting or rejecting invitation",
    status: 403,
  },
  EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION: {
    message: "Email verification required to view or list invitations for the session email",
    status: 403,
  },
  YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION: {
    message: "You are not allowed to cancel this invitation",
    status: 403,
  },
  YOU_ARE_NOT_ALLOWED_TO_LIST_INVITATIONS: { message: "You are not allowed to list invitations", status: 403 },
  INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION: {
    message: "Inviter is no longer a member of the organization",
    status: 400,
  },
  FAILED_TO_RETRIEVE_INVITATION: { message: "Failed to retrieve invitation", status: 400 },
  INVITATION_LIMIT_REACHED: { message: "Invitation limit reached", status: 403 },
  EMAIL_VERIFICATION_REQUIRED_TO_INVITE: {
    message: "Verify your email address before inviting anyone",
    status: 403,
  },
  INVITATION_RESEND_TOO_SOON: {
    message: "This invitation was sent a moment ago; wait a minute before sending it again",
    status: 429,
  },
  INVITATION_RECIPIENT_LIMIT_REACHED: {
    message: "This address has received as many invitations as it may today; try again tomorrow",
    status: 429,
  },
  ORGANIZATION_MEMBERSHIP_LIMIT_REACHED: { message: "Organization membership limit reached", status: 403 },
  TEAM_ALREADY_EXISTS: { message: "Team already exists", status: 400 },
  TEAM_NOT_FOUND: { message: "Team not found", status: 400 },
  YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM: { message: "You are not allowed to create a new team", status: 403 },
  YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION: {
    message: "You are not allowed to create teams in this organization",
    status: 403,
  },
  YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION: {
    message: "not allowed to update or delete teams",
    status: 403,
  },
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM: { message: "not allowed to update or delete teams", status: 403 },
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM: { message: "not allowed to update or delete teams", status: 403 },
  YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS: {
    message: "You have reached the maximum number of teams",
    status: 400,
  },
  UNABLE_TO_REMOVE_LAST_TEAM: { message: "Unable to remove last team", status: 400 },
  TEAM_MEMBER_LIMIT_REACHED: { message: "Team member limit reached", status: 403 },
  USER_IS_NOT_A_MEMBER_OF_THE_TEAM: { message: "User is not a member of the team", status: 400 },
  YOU_CAN_NOT_ACCESS_THE_MEMBERS_OF_THIS_TEAM: { message: "You can not access the members of this team", status: 403 },
  YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM: { message: "You do not have an active team", status: 400 },
  YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER: {
    message: "You are not allowed to create a new team member",
    status: 403,
  },
  YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER: { message: "You are not allowed to remove a team member", status: 403 },
  INVALID_TEAM_ID: { message: "Invalid team id", status: 400 },
  // Organization policy (docs/organization-policy.md): what a member's session owes to act in it.
  TWO_FACTOR_REQUIRED_BY_ORGANIZATION: {
    message: "This organization requires two-factor authentication: turn it on to continue",
    status: 403,
  },
  SIGN_IN_METHOD_NOT_ALLOWED_BY_ORGANIZATION: {
    message: "This organization does not allow the way this session signed in: sign in another way",
    status: 403,
  },
  SESSION_TOO_OLD_FOR_ORGANIZATION: {
    message: "This organization requires a more recent sign-in: sign in again",
    status: 403,
  },
  SESSION_IDLE_FOR_ORGANIZATION: {
    message: "This session was idle longer than this organization allows: sign in again",
    status: 403,
  },
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THE_ORGANIZATION_POLICY: {
    message: "Only an owner of the organization can change its policy",
    status: 403,
  },
  POLICY_WOULD_LOCK_YOU_OUT: {
    message: "This policy would refuse your own session: meet it first",
    status: 400,
  },
  BREAK_GLASS_USER_MUST_BE_AN_OWNER: {
    message: "Break-glass users must be owners of the organization",
    status: 400,
  },
  SSO_CONNECTION_REQUIRED: {
    message: "Requiring single sign-on needs a connection with a verified domain",
    status: 400,
  },
});

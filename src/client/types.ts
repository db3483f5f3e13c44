import type { z } from "zod";
import type { signInEmailBody, signUpEmailBody, updateSessionBody, updateUserBody } from "../contract/account.js";
import type * as flows from "../contract/account-flows.js";
import type * as admin from "../contract/admin.js";
import type { AuditPage, UserAccountSummary, UserMembership, UserPage } from "../contract/admin-models.js";
import type {
  CreatedOrganization,
  FullOrganization,
  Invitation,
  InvitationDetails,
  LinkedAccount,
  Member,
  MemberWithUser,
  Organization,
  Team,
  TeamMember,
} from "../contract/api-models.js";
import type { ListedSession, Session, SessionWithUser, User } from "../contract/models.js";
import type * as org from "../contract/organization.js";
import type {
  accountSelector,
  idTokenInput,
  linkSocialBody,
  oneTapBody,
  signInSocialBody,
} from "../contract/social.js";
import type { FetchOptions, Result } from "./request.js";

/**
 * The client's calls, spelled out: argument and reply of each, no inference from server options.
 * Each call is `fn(arg?, fetchOptions?)`: `arg.query` becomes the query string, the other keys the
 * JSON body. Bodies come from the zod schemas in src/contract where the server has them.
 */
type Call<Arg, Reply> = (arg: Arg, options?: FetchOptions) => Promise<Result<Reply>>;
type OptionalCall<Arg, Reply> = (arg?: Arg, options?: FetchOptions) => Promise<Result<Reply>>;
type Query<Q> = { query: Q };

export interface Status {
  status: boolean;
  message?: string;
}
export interface SignInReply {
  redirect: boolean;
  token: string;
  url?: string;
  user: User;
}
export interface TokenAndUser {
  token: string | null;
  user: User;
}
export interface RedirectReply {
  url: string;
  redirect: boolean;
}
export type IdTokenInput = z.input<typeof idTokenInput>;
export type SocialSignInBody = z.input<typeof signInSocialBody>;

export interface AccountCalls {
  signUp: { email: Call<z.input<typeof signUpEmailBody>, TokenAndUser> };
  signIn: {
    email: Call<z.input<typeof signInEmailBody>, SignInReply>;
    social: Call<SocialSignInBody, RedirectReply | (TokenAndUser & { redirect: false })>;
    anonymous: OptionalCall<Record<string, never>, TokenAndUser>;
  };
  signOut: OptionalCall<{ callbackURL?: string; disableRedirect?: boolean }, { success: boolean; url?: string }>;
  getSession: OptionalCall<Query<{ disableCookieCache?: boolean; disableRefresh?: boolean }>, SessionWithUser | null>;
  updateUser: Call<z.input<typeof updateUserBody>, Status>;
  /** Additional session fields (input:true only); the active organization and team are not among them. */
  updateSession: Call<z.input<typeof updateSessionBody>, { session: Session }>;
  changeEmail: Call<z.input<typeof flows.changeEmailBody>, Status>;
  changePassword: Call<z.input<typeof flows.changePasswordBody>, TokenAndUser>;
  deleteUser: OptionalCall<z.input<typeof flows.deleteUserBody>, { success: boolean; message: string }>;
  sendVerificationEmail: Call<z.input<typeof flows.sendVerificationEmailBody>, Status>;
  verifyEmail: Call<Query<z.input<typeof flows.verifyEmailQuery>>, Status & { user?: User | null }>;
  requestPasswordReset: Call<z.input<typeof flows.requestPasswordResetBody>, Status>;
  resetPassword: Call<z.input<typeof flows.resetPasswordBody>, Status>;
  listSessions: OptionalCall<undefined, ListedSession[]>;
  revokeSession: Call<{ token: string }, Status>;
  revokeSessions: OptionalCall<undefined, Status>;
  revokeOtherSessions: OptionalCall<undefined, Status>;
  listAccounts: OptionalCall<undefined, LinkedAccount[]>;
  linkSocial: Call<z.input<typeof linkSocialBody>, RedirectReply & { status?: boolean }>;
  unlinkAccount: Call<z.input<typeof accountSelector>, Status>;
  getAccessToken: Call<
    z.input<typeof accountSelector>,
    { accessToken: string; accessTokenExpiresAt: Date | null; scopes: string[]; idToken: string | null }
  >;
  deleteAnonymousUser: OptionalCall<undefined, { success: boolean }>;
  oneTap: { callback: Call<z.input<typeof oneTapBody>, TokenAndUser> };
}

type In<T extends z.ZodType> = z.input<T>;

/** Organization calls (WIRE 8.2); bodies and queries from src/contract/organization.ts. */
export interface OrganizationCalls {
  create: Call<In<typeof org.createOrganizationBody>, CreatedOrganization>;
  checkSlug: Call<In<typeof org.checkSlugBody>, { status: boolean }>;
  update: Call<In<typeof org.updateOrganizationBody>, Organization>;
  delete: Call<In<typeof org.organizationIdBody>, Organization>;
  list: OptionalCall<undefined, Organization[]>;
  /** The organization alone, without members (by id or slug, else the active one). */
  getOrganization: OptionalCall<Query<In<typeof org.getOrganizationQuery>>, Organization | null>;
  getFullOrganization: OptionalCall<Query<In<typeof org.getFullOrganizationQuery>>, FullOrganization | null>;
  setActive: Call<In<typeof org.setActiveOrganizationBody>, Organization | null>;
  inviteMember: Call<In<typeof org.inviteMemberBody>, Invitation>;
  acceptInvitation: Call<In<typeof org.invitationIdBody>, { invitation: Invitation; member: Member }>;
  rejectInvitation: Call<In<typeof org.invitationIdBody>, { invitation: Invitation; member: null }>;
  cancelInvitation: Call<In<typeof org.invitationIdBody>, Invitation>;
  getInvitation: Call<Query<In<typeof org.getInvitationQuery>>, InvitationDetails>;
  listInvitations: OptionalCall<Query<In<typeof org.organizationIdQuery>>, Invitation[]>;
  listUserInvitations: OptionalCall<undefined, (Invitation & { organizationName: string })[]>;
  removeMember: Call<In<typeof org.removeMemberBody>, { member: Member }>;
  updateMemberRole: Call<In<typeof org.updateMemberRoleBody>, Member>;
  getActiveMember: OptionalCall<undefined, MemberWithUser>;
  getActiveMemberRole: OptionalCall<Query<In<typeof org.activeMemberRoleQuery>>, { role: string }>;
  leave: Call<In<typeof org.organizationIdBody>, MemberWithUser>;
  listMembers: OptionalCall<Query<In<typeof org.listMembersQuery>>, { members: MemberWithUser[]; total: number }>;
  hasPermission: Call<In<typeof org.hasPermissionBody>, { success: boolean; error: null }>;
  createTeam: Call<In<typeof org.createTeamBody>, Team>;
  updateTeam: Call<In<typeof org.updateTeamBody>, Team>;
  removeTeam: Call<In<typeof org.teamIdBody>, { message: string }>;
  listTeams: OptionalCall<Query<In<typeof org.organizationIdQuery>>, Team[]>;
  setActiveTeam: Call<In<typeof org.setActiveTeamBody>, Team | null>;
  listUserTeams: OptionalCall<Query<In<typeof org.listUserTeamsQuery>>, Team[]>;
  listTeamMembers: OptionalCall<Query<In<typeof org.listTeamMembersQuery>>, TeamMember[]>;
  addTeamMember: Call<In<typeof org.teamMemberBody>, TeamMember>;
  removeTeamMember: Call<In<typeof org.teamMemberBody>, { message: string }>;
}

/** Administration calls (`/admin/...`); bodies and queries from src/contract/admin.ts. */
export interface AdminCalls {
  createUser: Call<In<typeof admin.createUserBody>, { user: User }>;
  listUsers: OptionalCall<Query<In<typeof admin.listUsersQuery>>, UserPage>;
  getUser: Call<Query<In<typeof admin.getUserQuery>>, User>;
  updateUser: Call<In<typeof admin.updateUserAsAdminBody>, User>;
  setRole: Call<In<typeof admin.setRoleBody>, { user: User }>;
  banUser: Call<In<typeof admin.banUserBody>, { user: User }>;
  unbanUser: Call<In<typeof admin.userIdBody>, { user: User }>;
  removeUser: Call<In<typeof admin.userIdBody>, { success: boolean }>;
  setUserPassword: Call<In<typeof admin.setUserPasswordBody>, { status: boolean }>;
  listUserSessions: Call<In<typeof admin.userIdBody>, { sessions: ListedSession[] }>;
  revokeUserSession: Call<In<typeof admin.revokeUserSessionBody>, { success: boolean }>;
  revokeUserSessions: Call<In<typeof admin.userIdBody>, { success: boolean }>;
  impersonateUser: Call<In<typeof admin.userIdBody>, { session: Session; user: User }>;
  stopImpersonating: OptionalCall<undefined, { session: Session; user: User }>;
  hasPermission: Call<In<typeof admin.adminHasPermissionBody>, { success: boolean; error: null }>;
  listAuditLog: OptionalCall<Query<In<typeof admin.listAuditLogQuery>>, AuditPage>;
  listUserMemberships: Call<Query<In<typeof admin.userIdQuery>>, { memberships: UserMembership[] }>;
  listUserAccounts: Call<Query<In<typeof admin.userIdQuery>>, { accounts: UserAccountSummary[] }>;
}

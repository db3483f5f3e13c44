import type { z } from "zod";
import type { signInEmailBody, signUpEmailBody, updateUserBody } from "../contract/account.js";
import type {
  FullOrganization,
  Invitation,
  InvitationDetails,
  LinkedAccount,
  Member,
  Organization,
  Team,
  TeamMember,
} from "../contract/api-models.js";
import type { ListedSession, SessionWithUser, User } from "../contract/models.js";
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
export type Role = "owner" | "admin" | "member" | (string & {});

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
  changeEmail: Call<{ newEmail: string; callbackURL?: string }, Status>;
  changePassword: Call<{ newPassword: string; currentPassword: string; revokeOtherSessions?: boolean }, TokenAndUser>;
  deleteUser: OptionalCall<
    { callbackURL?: string; password?: string; token?: string },
    { success: boolean; message: string }
  >;
  sendVerificationEmail: Call<{ email: string; callbackURL?: string }, Status>;
  verifyEmail: Call<Query<{ token: string; callbackURL?: string }>, Status & { user?: User | null }>;
  requestPasswordReset: Call<{ email: string; redirectTo?: string }, Status>;
  resetPassword: Call<{ newPassword: string; token?: string }, Status>;
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

export interface OrganizationCalls {
  create: Call<
    {
      name: string;
      slug: string;
      logo?: string | null;
      metadata?: Record<string, unknown>;
      keepCurrentActiveOrganization?: boolean;
    },
    Organization & { members: Member[] }
  >;
  checkSlug: Call<{ slug: string }, { status: boolean }>;
  update: Call<
    {
      data: { name?: string; slug?: string; logo?: string | null; metadata?: Record<string, unknown> };
      organizationId?: string;
    },
    Organization
  >;
  delete: Call<{ organizationId: string }, Organization>;
  list: OptionalCall<undefined, Organization[]>;
  getFullOrganization: OptionalCall<
    Query<{ organizationId?: string; organizationSlug?: string; membersLimit?: number }>,
    FullOrganization | null
  >;
  setActive: Call<{ organizationId?: string | null; organizationSlug?: string }, Organization | null>;
  inviteMember: Call<
    { email: string; role: Role | Role[]; organizationId?: string; resend?: boolean; teamId?: string | string[] },
    Invitation
  >;
  acceptInvitation: Call<{ invitationId: string }, { invitation: Invitation; member: Member }>;
  rejectInvitation: Call<{ invitationId: string }, { invitation: Invitation; member: null }>;
  cancelInvitation: Call<{ invitationId: string }, Invitation>;
  getInvitation: Call<Query<{ id: string }>, InvitationDetails>;
  listInvitations: OptionalCall<Query<{ organizationId?: string }>, Invitation[]>;
  listUserInvitations: OptionalCall<undefined, (Invitation & { organizationName: string })[]>;
  removeMember: Call<{ memberIdOrEmail: string; organizationId?: string }, { member: Member }>;
  updateMemberRole: Call<{ memberId: string; role: Role | Role[]; organizationId?: string }, Member>;
  getActiveMember: OptionalCall<undefined, Member>;
  getActiveMemberRole: OptionalCall<Query<{ organizationId?: string; userId?: string }>, { role: string }>;
  leave: Call<{ organizationId: string }, Member>;
  listMembers: OptionalCall<
    Query<{ organizationId?: string; limit?: number; offset?: number }>,
    { members: Member[]; total: number }
  >;
  hasPermission: Call<
    { organizationId?: string; permissions: Record<string, string[]> },
    { success: boolean; error: null }
  >;
  createTeam: Call<{ name: string; organizationId?: string }, Team>;
  updateTeam: Call<{ teamId: string; data: { name?: string; organizationId?: string } }, Team>;
  removeTeam: Call<{ teamId: string; organizationId?: string }, { message: string }>;
  listTeams: OptionalCall<Query<{ organizationId?: string }>, Team[]>;
  setActiveTeam: Call<{ teamId?: string | null }, Team | null>;
  listUserTeams: OptionalCall<Query<{ organizationId?: string; userId?: string }>, Team[]>;
  listTeamMembers: OptionalCall<Query<{ teamId?: string }>, TeamMember[]>;
  addTeamMember: Call<{ teamId: string; userId: string; organizationId?: string }, TeamMember>;
  removeTeamMember: Call<{ teamId: string; userId: string; organizationId?: string }, { message: string }>;
}

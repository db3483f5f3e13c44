import type { Invitation, Member, Session, User } from "../../contract/models.js";
import type { Locale } from "../../i18n/index.js";
import type { AuthContext } from "../context.js";
import { newId } from "../crypto/random.js";
import { invitationMail } from "../email/templates.js";
import { AuthError } from "../errors.js";
import { claimAttempt } from "../store/attempt-counters.js";
import { type DB, isUniqueViolation } from "../store/database.js";
import {
  claimInvitationResend,
  countPendingInvitations,
  findInvitation,
  findInvitationDetails,
  findPendingInvitation,
  insertInvitation,
  listInvitationsForMember,
  listOrganizationInvitations,
  listPendingInvitationsForEmail,
  transitionPendingInvitation,
} from "../store/invitations.js";
import { findMember } from "../store/members.js";
import { findOrganization, lockOrganization, setSessionActive } from "../store/organizations.js";
import { countTeamMembers, findOrganizationTeams } from "../store/teams.js";
import { findUserByEmail, findUserById } from "../store/users.js";
import { isOwnerRole, normalizeRoles, roleAllows } from "./access-control.js";
import type { KeyCaller } from "./api-key-verification.js";
import { normalizeEmail } from "./credentials.js";
import { insertMemberUnderLimit } from "./members.js";
import {
  type ActiveChange,
  keyPermits,
  requireCaller,
  requireMember,
  requireOrgPermission,
  resolveOrganizationId,
} from "./organization-access.js";

export interface InviteInput {
  email: string;
  role: string | string[];
  organizationId?: string;
  resend?: boolean;
  teamId?: string | string[];
}

/** How soon one invitation may be mailed again. */
export const INVITATION_RESEND_COOLDOWN_SECONDS = 60;
/** Invitation mails one address may receive in a day, across every organization and inviter. */
export const INVITATION_MAILS_PER_RECIPIENT_PER_DAY = 10;

const isExpired = (ctx: AuthContext, invitation: Invitation) => invitation.expiresAt.getTime() <= ctx.now().getTime();

/** Team ids of an invitation: each must be a team of the organization with room left. */
async function checkInvitationTeams(ctx: AuthContext, organizationId: string, input: string | string[] | undefined) {
  if (input === undefined) return null;
  const ids = [...new Set(typeof input === "string" ? [input] : input)];
  if (ids.length === 0) return null;
  if (ids.some((id) => id.includes(","))) throw new AuthError("INVALID_TEAM_ID");
  const teams = await findOrganizationTeams(ctx.db, organizationId, ids);
  if (teams.length !== ids.length) throw new AuthError("TEAM_NOT_FOUND");
  const max = ctx.options.organization.teams.maximumMembersPerTeam;
  if (max !== undefined) {
    for (const id of ids) {
      if ((await countTeamMembers(ctx.db, id)) >= max) throw new AuthError("TEAM_MEMBER_LIMIT_REACHED");
    }
  }
  return ids.join(",");
}

async function enqueueInvitationMail(
  ctx: AuthContext,
  trx: DB,
  invitation: Invitation,
  inviter: User,
  organizationName: string,
  locale: Locale,
): Promise<boolean> {
  if (!ctx.options.organization.sendInvitationEmail) return false;
  // Claimed before the mail is written, in the invitation's transaction: a refusal undoes the change.
  const now = ctx.now();
  const claimed = await claimAttempt(trx, `invitations-to:${invitation.email}`, now, {
    limit: INVITATION_MAILS_PER_RECIPIENT_PER_DAY,
    expiresAt: new Date(now.getTime() + 86_400_000),
  });
  if (claimed === null) throw new AuthError("INVITATION_RECIPIENT_LIMIT_REACHED");
  const url = ctx.pages.acceptInvitation({ id: invitation.id });
  await ctx.mail.enqueue(
    trx,
    invitationMail(
      locale,
      invitation.email,
      {
        // Only the address names the inviter (proven with requireVerifiedInviter): their name is free text.
        inviterEmail: inviter.email,
        organizationName,
        role: invitation.role ?? "member",
        expiresAt: invitation.expiresAt,
      },
      url,
    ),
  );
  return true;
}

/**
 * Invites an address. A pending invitation of the same address is resent (new expiry, mail again)
 * with `resend`, refused otherwise; the partial unique index keeps it to one pending invitation
 * even under parallel requests. Mail is written in the invitation's transaction.
 */
export async function inviteMember(
  ctx: AuthContext,
  session: Session,
  user: User,
  input: InviteInput,
  locale: Locale,
): Promise<Invitation> {
  const options = ctx.options.organization;
  // A guest can be made by anyone in one request: they may not make our mail server send anything.
  if (user.isAnonymous) {
    throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION", {
      message: "Guests cannot send invitations; sign up first",
    });
  }
  const organizationId = resolveOrganizationId(session, input.organizationId, "ORGANIZATION_NOT_FOUND");
  const email = normalizeEmail(input.email);
  const inviter = await requireOrgPermission(ctx, {
    organizationId,
    userId: session.userId,
    notMember: "MEMBER_NOT_FOUND",
    permissions: { invitation: ["create"] },
    denied: "YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION",
  });
  // An organization's key invites in its creator's name: an invitation names a person who is a member.
  if (ctx.apiKeyCaller?.organizationId) await requireMember(ctx.db, organizationId, user.id, "MEMBER_NOT_FOUND");
  // Anyone can sign up with any address: with the option, our mail server sends nothing for them until
  // they prove theirs (otherwise the invitation caps are the guard).
  if (options.requireVerifiedInviter && !user.emailVerified) {
    throw new AuthError("EMAIL_VERIFICATION_REQUIRED_TO_INVITE");
  }
  const role = normalizeRoles(ctx, input.role);
  if (isOwnerRole(ctx, role) && !isOwnerRole(ctx, inviter.role)) {
    throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE");
  }
  const organization = await findOrganization(ctx.db, { id: organizationId });
  if (!organization) throw new AuthError("ORGANIZATION_NOT_FOUND");
  const invitee = await findUserByEmail(ctx.db, email);
  if (invitee && (await findMember(ctx.db, organizationId, invitee.id))) {
    throw new AuthError("USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION");
  }
  const teamId = await checkInvitationTeams(ctx, organizationId, input.teamId);
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + options.invitationExpiresIn * 1000);

  let sent = false;
  try {
    const invitation = await ctx.db.transaction().execute(async (trx) => {
      const pending = await findPendingInvitation(trx, organizationId, email);
      if (pending && !isExpired(ctx, pending)) {
        if (!input.resend) throw new AuthError("USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION");
        // Whoever resends becomes the inviter (the first one may have left).
        const lastSentBy = new Date(now.getTime() - INVITATION_RESEND_COOLDOWN_SECONDS * 1000);
        const renewed = await claimInvitationResend(trx, pending.id, lastSentBy, now, {
          expiresAt,
          role,
          teamId,
          inviterId: user.id,
        });
        if (!renewed) {
          throw new AuthError("INVITATION_RESEND_TOO_SOON", { retryAfterSeconds: INVITATION_RESEND_COOLDOWN_SECONDS });
        }
        sent = await enqueueInvitationMail(ctx, trx, renewed, user, organization.name, locale);
        return renewed;
      }
      // An expired pending invitation is superseded, so the address can be invited again.
      if (pending) {
        await ctx.webhooks.enqueue(
          trx,
          "invitation.canceled",
          await transitionPendingInvitation(trx, pending.id, "canceled"),
        );
      }
      if ((await countPendingInvitations(trx, organizationId, now)) >= options.invitationLimit) {
        throw new AuthError("INVITATION_LIMIT_REACHED");
      }
      // Claimed, not counted: invitations in other organizations are not serialised by this one's lock.
      const claimed = await claimAttempt(trx, `invitations-by:${session.userId}`, now, {
        limit: options.invitationsPerInviterPerDay,
        expiresAt: new Date(now.getTime() + 86_400_000),
      });
      if (claimed === null) {
        throw new AuthError("INVITATION_LIMIT_REACHED", {
          message: `You can send at most ${options.invitationsPerInviterPerDay} invitations a day`,
        });
      }
      const created = await insertInvitation(trx, {
        id: newId(),
        organizationId,
        email,
        role,
        teamId,
        inviterId: user.id,
        expiresAt,
        now,
      });
      await ctx.webhooks.enqueue(trx, "invitation.created", created);
      sent = await enqueueInvitationMail(ctx, trx, created, user, organization.name, locale);
      return created;
    });
    if (sent) ctx.mail.wake();
    return invitation;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AuthError("USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION");
    throw error;
  }
}

/** The invitation a recipient may act on: pending, unexpired and addressed to them (case-insensitive). */
async function recipientInvitation(ctx: AuthContext, user: User, invitationId: string, notFound: string) {
  const invitation = await findInvitation(ctx.db, invitationId);
  if (invitation?.status !== "pending" || isExpired(ctx, invitation)) {
    throw new AuthError("INVITATION_NOT_FOUND", { message: notFound });
  }
  if (invitation.email.toLowerCase() !== user.email.toLowerCase()) {
    throw new AuthError("YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION");
  }
  if (ctx.options.organization.requireEmailVerificationOnInvitation && !user.emailVerified) {
    throw new AuthError("EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION");
  }
  return invitation;
}

/**
 * Accepts: marks the invitation accepted (only one of many parallel accepts gets the pending row),
 * creates the member under the membership limit, adds the invited teams and makes the organization
 * (and a single invited team) active on this session. One transaction under the organization lock.
 */
export async function acceptInvitation(
  ctx: AuthContext,
  session: Session,
  user: User,
  invitationId: string,
): Promise<{ invitation: Invitation; member: Member; active: ActiveChange }> {
  const found = await recipientInvitation(ctx, user, invitationId, "Invitation not found");
  return ctx.db.transaction().execute(async (trx) => {
    if (!(await lockOrganization(trx, ctx.dialect, found.organizationId)))
      throw new AuthError("ORGANIZATION_NOT_FOUND");
    const invitation = await transitionPendingInvitation(trx, found.id, "accepted");
    if (!invitation) throw new AuthError("INVITATION_NOT_FOUND");
    await ctx.webhooks.enqueue(trx, "invitation.accepted", invitation);
    if (!(await findMember(trx, invitation.organizationId, invitation.inviterId))) {
      throw new AuthError("INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION");
    }
    const teamIds = (invitation.teamId ?? "").split(",").filter((t) => t !== "");
    const member = await insertMemberUnderLimit(ctx, trx, {
      organizationId: invitation.organizationId,
      userId: user.id,
      role: invitation.role ?? "member",
      teamIds,
      invitedBy: invitation.inviterId,
    });
    const active: ActiveChange = {
      activeOrganizationId: invitation.organizationId,
      activeTeamId: teamIds.length === 1 ? teamIds[0] : null,
    };
    await setSessionActive(trx, session.id, active, ctx.now());
    return { invitation, member, active };
  });
}

export async function rejectInvitation(ctx: AuthContext, user: User, invitationId: string): Promise<Invitation> {
  const message = "Invitation not found!";
  const found = await recipientInvitation(ctx, user, invitationId, message);
  const invitation = await endPendingInvitation(ctx, found, "rejected");
  if (!invitation) throw new AuthError("INVITATION_NOT_FOUND", { message });
  return invitation;
}

export async function cancelInvitation(ctx: AuthContext, session: Session, invitationId: string): Promise<Invitation> {
  const found = await findInvitation(ctx.db, invitationId);
  if (!found) throw new AuthError("INVITATION_NOT_FOUND");
  await requireOrgPermission(ctx, {
    organizationId: found.organizationId,
    userId: session.userId,
    notMember: "MEMBER_NOT_FOUND",
    permissions: { invitation: ["cancel"] },
    denied: "YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION",
  });
  const invitation = await endPendingInvitation(ctx, found, "canceled");
  if (!invitation) throw new AuthError("INVITATION_NOT_FOUND");
  return invitation;
}

/** Rejects or cancels a pending invitation and queues its event; null if it was no longer pending. */
function endPendingInvitation(
  ctx: AuthContext,
  invitation: { id: string; organizationId: string },
  status: "rejected" | "canceled",
): Promise<Invitation | null> {
  const event = status === "rejected" ? "invitation.rejected" : "invitation.canceled";
  return ctx.webhooks.atomic(
    ctx.db,
    event,
    async (db) => {
      const ended = await transitionPendingInvitation(db, invitation.id, status);
      await ctx.webhooks.enqueue(db, event, ended);
      return ended;
    },
    { organizationId: invitation.organizationId },
  );
}

/**
 * One invitation with its organization's name and slug and the inviter's email: for its recipient,
 * and for the organization's members who may invite.
 */
export async function getInvitation(ctx: AuthContext, user: User, id: string) {
  const details = await findInvitationDetails(ctx.db, id);
  if (details?.invitation.status !== "pending" || isExpired(ctx, details.invitation)) {
    throw new AuthError("INVITATION_NOT_FOUND");
  }
  const { invitation } = details;
  if (invitation.email.toLowerCase() !== user.email.toLowerCase()) {
    const member = await findMember(ctx.db, invitation.organizationId, user.id);
    if (!member || !roleAllows(ctx, member.role, { invitation: ["create"] })) {
      throw new AuthError("YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION");
    }
  } else if (ctx.options.organization.requireEmailVerificationOnInvitation && !user.emailVerified) {
    throw new AuthError("EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION");
  }
  if (!details.inviterIsMember) throw new AuthError("INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION");
  return {
    ...invitation,
    organizationName: details.organizationName,
    organizationSlug: details.organizationSlug,
    inviterEmail: details.inviterEmail,
  };
}

/**
 * What the invitation link shows signed out: the organization, who invited, the role and the
 * invited address (for the sign-up form). Only pending, unexpired invitations whose inviter is still
 * a member; every other id gets the same INVITATION_NOT_FOUND, so the answer tells nothing about ids
 * beyond the one in the mail (32 random characters).
 */
export async function previewInvitation(ctx: AuthContext, id: string) {
  const details = await findInvitationDetails(ctx.db, id);
  if (details?.invitation.status !== "pending" || isExpired(ctx, details.invitation) || !details.inviterIsMember) {
    throw new AuthError("INVITATION_NOT_FOUND");
  }
  const { invitation } = details;
  return {
    id: invitation.id,
    organizationName: details.organizationName,
    inviterName: details.inviterName || details.inviterEmail,
    role: invitation.role ?? "member",
    email: invitation.email,
    expiresAt: invitation.expiresAt,
  };
}

/** Every invitation of the organization (all statuses), for members who may invite: one query. */
export async function listInvitations(
  ctx: AuthContext,
  session: Session,
  organizationId: string | undefined,
): Promise<Invitation[]> {
  const id = resolveOrganizationId(session, organizationId, "ORGANIZATION_ID_REQUIRED");
  if (!keyPermits(ctx, { invitation: ["create"] })) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_LIST_INVITATIONS");
  if (ctx.apiKeyCaller?.organizationId) {
    // An organization's key has no role: it sees what a non-owner who may invite sees.
    await requireCaller(ctx, ctx.db, id, session.userId, "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
    return (await listOrganizationInvitations(ctx.db, id)).filter((i) => !isOwnerRole(ctx, i.role ?? ""));
  }
  const found = await listInvitationsForMember(ctx.db, id, session.userId);
  if (!found) throw new AuthError("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
  if (!roleAllows(ctx, found.callerRole, { invitation: ["create"] })) {
    throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_LIST_INVITATIONS");
  }
  if (isOwnerRole(ctx, found.callerRole)) return found.invitations;
  return found.invitations.filter((i) => !isOwnerRole(ctx, i.role ?? ""));
}

/** The caller's own pending invitations; their email must be verified (anyone could sign up with it). */
export async function listUserInvitations(ctx: AuthContext, user: User) {
  if (!user.emailVerified) throw new AuthError("EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION");
  return listPendingInvitationsForEmail(ctx.db, user.email.toLowerCase(), ctx.now());
}

/**
 * The person an invitation sent with an API key names as its inviter: a user's key, its user; an
 * organization's key, its creator (who must still be a member). Gone: the key cannot invite.
 */
export async function keyInviter(ctx: AuthContext, key: KeyCaller): Promise<User> {
  const id = key.userId ?? key.createdBy;
  const user = id ? await findUserById(ctx.db, id) : null;
  if (!user) {
    throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION", {
      message: "An invitation names a person: this key's creator no longer has an account",
    });
  }
  return user;
}

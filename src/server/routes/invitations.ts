import { organizationEndpoints } from "../../contract/endpoints/index.js";
import { AuthError } from "../errors.js";
import { applyActiveChange } from "../http/active-organization.js";
import type { Route } from "../http/route.js";
import { getRequestSession, requestLocale, requireSession } from "../http/session.js";
import {
  acceptInvitation,
  cancelInvitation,
  getInvitation,
  inviteMember,
  keyInviter,
  listInvitations,
  listUserInvitations,
  previewInvitation,
  rejectInvitation,
} from "../services/invitations.js";
import { invalidInput } from "../validation.js";

/** Invitations: invite, the recipient's accept/reject/get, and the organization's cancel/list. */
export function invitationRoutes(route: Route): void {
  route(organizationEndpoints.inviteMember, async (c, { body, caller: { session, user } }) => {
    const key = c.get("apiKey");
    const inviter = key ? await keyInviter(c.get("auth"), key) : user;
    return inviteMember(c.get("auth"), session, inviter, body, requestLocale(c));
  });

  route(organizationEndpoints.acceptInvitation, async (c, { body: { invitationId }, caller }) => {
    const result = await acceptInvitation(c.get("auth"), caller.session, caller.user, invitationId);
    applyActiveChange(c, caller, result.active);
    return { invitation: result.invitation, member: result.member };
  });

  route(organizationEndpoints.rejectInvitation, async (c, { body: { invitationId }, caller: { user } }) => {
    return { invitation: await rejectInvitation(c.get("auth"), user, invitationId), member: null };
  });

  route(organizationEndpoints.cancelInvitation, async (c, { body: { invitationId }, caller: { session } }) => {
    return cancelInvitation(c.get("auth"), session, invitationId);
  });

  route(organizationEndpoints.getInvitation, async (c, { query: { id } }) => {
    const data = await getRequestSession(c);
    if (!data) throw new AuthError("NOT_AUTHENTICATED");
    return getInvitation(c.get("auth"), data.user, id);
  });

  route(organizationEndpoints.invitationPreview, async (c, { query: { id } }) => {
    return previewInvitation(c.get("auth"), id);
  });

  route(organizationEndpoints.listInvitations, async (c, { query: { organizationId }, caller: { session } }) => {
    return listInvitations(c.get("auth"), session, organizationId);
  });

  route(organizationEndpoints.listUserInvitations, async (c) => {
    if (c.req.query("email") !== undefined) {
      throw invalidInput([{ where: "query.email", message: "User email cannot be passed for client side API calls." }]);
    }
    const { user } = await requireSession(c);
    return listUserInvitations(c.get("auth"), user);
  });
}

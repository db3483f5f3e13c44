import type { Hono } from "hono";
import {
  getInvitationQuery,
  invitationIdBody,
  inviteMemberBody,
  organizationIdQuery,
} from "../../contract/organization.js";
import { AuthError } from "../errors.js";
import { applyActiveChange } from "../http/active-organization.js";
import type { AuthEnv } from "../http/env.js";
import { readBody, readQuery } from "../http/input.js";
import { getRequestSession, requireSession } from "../http/session.js";
import {
  acceptInvitation,
  cancelInvitation,
  getInvitation,
  inviteMember,
  listInvitations,
  listUserInvitations,
  rejectInvitation,
} from "../services/invitations.js";

/** Invitations: invite, the recipient's accept/reject/get, and the organization's cancel/list. */
export function invitationRoutes(app: Hono<AuthEnv>): void {
  app.post("/organization/invite-member", async (c) => {
    const body = readBody(c, inviteMemberBody);
    const { session, user } = await requireSession(c);
    return c.json(await inviteMember(c.get("auth"), session, user, body));
  });

  app.post("/organization/accept-invitation", async (c) => {
    const { invitationId } = readBody(c, invitationIdBody);
    const data = await requireSession(c);
    const result = await acceptInvitation(c.get("auth"), data.session, data.user, invitationId);
    applyActiveChange(c, data, result.active);
    return c.json({ invitation: result.invitation, member: result.member });
  });

  app.post("/organization/reject-invitation", async (c) => {
    const { invitationId } = readBody(c, invitationIdBody);
    const { user } = await requireSession(c);
    return c.json({ invitation: await rejectInvitation(c.get("auth"), user, invitationId), member: null });
  });

  app.post("/organization/cancel-invitation", async (c) => {
    const { invitationId } = readBody(c, invitationIdBody);
    const { session } = await requireSession(c);
    return c.json(await cancelInvitation(c.get("auth"), session, invitationId));
  });

  app.get("/organization/get-invitation", async (c) => {
    const { id } = readQuery(c, getInvitationQuery);
    const data = await getRequestSession(c);
    if (!data) throw new AuthError("NOT_AUTHENTICATED");
    return c.json(await getInvitation(c.get("auth"), data.user, id));
  });

  app.get("/organization/list-invitations", async (c) => {
    const { organizationId } = readQuery(c, organizationIdQuery);
    const { session } = await requireSession(c);
    return c.json(await listInvitations(c.get("auth"), session, organizationId));
  });

  app.get("/organization/list-user-invitations", async (c) => {
    if (c.req.query("email") !== undefined) {
      throw new AuthError("VALIDATION_ERROR", { message: "User email cannot be passed for client side API calls." });
    }
    const { user } = await requireSession(c);
    return c.json(await listUserInvitations(c.get("auth"), user));
  });
}

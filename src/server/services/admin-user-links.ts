import type { UserAccountSummary, UserMembership } from "../../contract/admin-models.js";
import type { AuthContext } from "../context.js";
import { listAccountSummaries, listMembershipsWithOrganizations } from "../store/admin-user-links.js";
import { type AdminActor, requireAdminPermission } from "./admin-access.js";

/*
 * What an admin sees of a user beyond the profile: organizations and sign-in methods. Reading them
 * needs user:list, as get-user does. An unknown user simply has none (one query, no existence probe).
 */

export async function listUserMembershipsAsAdmin(
  ctx: AuthContext,
  actor: AdminActor,
  userId: string,
): Promise<UserMembership[]> {
  requireAdminPermission(ctx, actor, { user: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_GET_USER");
  return listMembershipsWithOrganizations(ctx.db, userId);
}

export async function listUserAccountsAsAdmin(
  ctx: AuthContext,
  actor: AdminActor,
  userId: string,
): Promise<UserAccountSummary[]> {
  requireAdminPermission(ctx, actor, { user: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_GET_USER");
  return listAccountSummaries(ctx.db, userId);
}

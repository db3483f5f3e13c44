import type { z } from "zod";
import type {
  adminCreateOAuthClientBody,
  adminListOAuthClientsQuery,
  updateOAuthClientBody,
} from "../../../contract/oauth-provider.js";
import { auditChange, noteAudit } from "../../audit/trail.service.js";
import type { AuthContext } from "../../context.js";
import { AuthError } from "../../errors.js";
import { deleteClient, findClient, listAllClients } from "../../store/oauth-provider.js";
import { type AdminActor, requireAdminPermission } from "../admin-access.js";
import { applyClientUpdate, clientReply, createClient } from "./clients.js";

/**
 * Every OAuth client as the admins see it (better-auth's /admin/oauth2/*, plus a list and a delete):
 * the `oauthClient` admin permission, whoever registered the client. An admin's own clients belong
 * to no one; `skip_consent` stays a server call's alone.
 */

const REFUSAL = "YOU_ARE_NOT_ALLOWED_TO_MANAGE_OAUTH_CLIENTS" as const;
const DEFAULT_PAGE = 50;

function allow(ctx: AuthContext, actor: AdminActor, action: "create" | "list" | "update" | "delete"): void {
  requireAdminPermission(ctx, actor, { oauthClient: [action] }, REFUSAL);
}

async function existingClient(ctx: AuthContext, clientId: string) {
  const client = await findClient(ctx.db, clientId);
  if (!client) throw new AuthError("OAUTH_CLIENT_NOT_FOUND");
  noteAudit(ctx, { organizationId: client.organizationId ?? undefined, details: { clientId } });
  return client;
}

export async function adminCreateClient(
  ctx: AuthContext,
  actor: AdminActor,
  input: z.output<typeof adminCreateOAuthClientBody>,
  by: { server: boolean },
) {
  allow(ctx, actor, "create");
  return createClient(ctx, actor.user.id, input, { server: by.server, admin: true });
}

export async function adminListClients(
  ctx: AuthContext,
  actor: AdminActor,
  query: z.output<typeof adminListOAuthClientsQuery>,
) {
  allow(ctx, actor, "list");
  const limit = query.limit ?? DEFAULT_PAGE;
  const offset = query.offset ?? 0;
  const { clients, total } = await listAllClients(ctx.db, { limit, offset });
  return { clients: clients.map((client) => clientReply(client)), total, limit, offset };
}

export async function adminUpdateClient(
  ctx: AuthContext,
  actor: AdminActor,
  input: z.output<typeof updateOAuthClientBody>,
) {
  allow(ctx, actor, "update");
  return applyClientUpdate(ctx, await existingClient(ctx, input.client_id), input.update);
}

/** As an owner's delete: grants, codes, refresh tokens and consents go with it. */
export async function adminDeleteClient(ctx: AuthContext, actor: AdminActor, clientId: string): Promise<void> {
  allow(ctx, actor, "delete");
  await existingClient(ctx, clientId);
  await ctx.db.transaction().execute(async (trx) => {
    if (await deleteClient(trx, clientId)) await auditChange(ctx, trx);
  });
}

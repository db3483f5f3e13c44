import { auditChange, noteAudit } from "../../audit/trail.service.js";
import type { AuthContext } from "../../context.js";
import { safeEqual, sha256Base64Url } from "../../crypto/digest.js";
import { deleteClient, findClient, type OAuthClient } from "../../store/oauth-provider.js";
import {
  applyClientUpdate,
  clientReply,
  inRegistrationErrors,
  parseRegistrationMetadata,
  registrationUri,
} from "./clients.js";
import { oauthError } from "./errors.js";

/**
 * RFC 7592 client management: a client registered through /oauth2/register reads, replaces or
 * deletes its registration at `registration_client_uri` with the registration access token it was
 * given (kept as a digest). Any failure is the same 401, so the endpoint tells a stranger nothing,
 * whether the client exists or not (RFC 7592 2).
 */

/** The client the bearer registration access token stands for, or 401 invalid_token. */
export async function registeredClient(
  ctx: AuthContext,
  clientId: string,
  authorization: string | undefined,
): Promise<OAuthClient> {
  const token = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
  const client = await findClient(ctx.db, clientId);
  const expected = client?.registrationAccessTokenHash ?? sha256Base64Url("no-registration");
  // Compared whatever is missing, so the answer takes as long either way.
  const matches = safeEqual(sha256Base64Url(token ?? ""), expected);
  if (!token || !client?.registrationAccessTokenHash || !matches || client.disabled) {
    throw oauthError("OAUTH_INVALID_TOKEN", "The registration access token is invalid");
  }
  noteAudit(ctx, { subjectId: client.userId ?? undefined, details: { clientId, via: "registration-token" } });
  return client;
}

export function readRegistration(ctx: AuthContext, client: OAuthClient) {
  return { ...clientReply(client), ...registrationUri(ctx, client) };
}

/** Fields a client sends back from its registration answer, which are not metadata to change. */
const ISSUED_FIELDS = [
  "client_secret",
  "client_secret_expires_at",
  "client_id_issued_at",
  "registration_access_token",
  "registration_client_uri",
];

/**
 * PUT replaces the metadata (RFC 7592 2.2): what is left out returns to its default. The client
 * may not change its id, its authentication method, or claim a secret other than its own.
 */
export async function replaceRegistration(ctx: AuthContext, client: OAuthClient, body: Record<string, unknown>) {
  if (body.client_id !== client.clientId) {
    throw oauthError("OAUTH_INVALID_CLIENT_METADATA", "client_id must be the client's own");
  }
  if (body.client_secret !== undefined) {
    const presented = typeof body.client_secret === "string" ? body.client_secret : "";
    if (!client.clientSecretHash || !safeEqual(sha256Base64Url(presented), client.clientSecretHash)) {
      throw oauthError("OAUTH_INVALID_CLIENT_METADATA", "client_secret is not the client's own");
    }
  }
  const metadata = Object.fromEntries(
    Object.entries(body).filter(([key]) => key !== "client_id" && !ISSUED_FIELDS.includes(key)),
  );
  const input = parseRegistrationMetadata({ token_endpoint_auth_method: client.tokenEndpointAuthMethod, ...metadata });
  if (input.token_endpoint_auth_method !== client.tokenEndpointAuthMethod) {
    throw oauthError("OAUTH_INVALID_CLIENT_METADATA", "token_endpoint_auth_method cannot change");
  }
  return inRegistrationErrors(async () => {
    const reply = await applyClientUpdate(ctx, client, {
      client_name: input.client_name,
      redirect_uris: input.redirect_uris,
      post_logout_redirect_uris: input.post_logout_redirect_uris ?? [],
      grant_types: input.grant_types,
      scope: input.scope ?? ctx.options.oauthProvider.scopes.join(" "),
      client_uri: input.client_uri ?? null,
      logo_uri: input.logo_uri ?? null,
      backchannel_logout_uri: input.backchannel_logout_uri ?? null,
      frontchannel_logout_uri: input.frontchannel_logout_uri ?? null,
      access_token_format: input.access_token_format ?? "jwt",
    });
    return { ...reply, ...registrationUri(ctx, client) };
  });
}

/** DELETE (RFC 7592 2.3): the client and everything it was granted; the token ends with it. */
export async function deleteRegistration(ctx: AuthContext, client: OAuthClient): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    if (await deleteClient(trx, client.clientId)) await auditChange(ctx, trx);
  });
}

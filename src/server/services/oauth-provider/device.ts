import type { SessionWithUser } from "../../../contract/models.js";
import { auditChange, noteAudit } from "../../audit/trail.service.js";
import type { AuthContext } from "../../context.js";
import { sha256Base64Url } from "../../crypto/digest.js";
import { newId, randomString } from "../../crypto/random.js";
import { AuthError } from "../../errors.js";
import { isUniqueViolation } from "../../store/database.js";
import {
  answerDeviceCode,
  type DeviceCode,
  findClient,
  findConsent,
  findDeviceCode,
  insertDeviceCode,
  type OAuthClient,
  saveConsent,
} from "../../store/oauth-provider.js";
import { checkResource } from "./authorize.js";
import { oauthError } from "./errors.js";

/**
 * The device authorization grant (RFC 8628): a device without a browser (a TV, a CLI) asks for a
 * code pair, shows the user code, and polls the token endpoint while the user approves on the app's
 * device page. better-auth's paths: POST /device/code, GET /device, POST /device/approve and /deny.
 */

export const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
/** RFC 8628 6.1: consonants only (no vowels, so no words), case-insensitive, 20^8 codes. */
const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";

/** The code as typed, reduced to its letters in upper case (dashes and spaces are only for reading). */
function normalizeUserCode(typed: string): string {
  return typed.toUpperCase().replace(/[^A-Z]/g, "");
}

export const userCodeHash = (typed: string) => sha256Base64Url(`user-code:${normalizeUserCode(typed)}`);

export async function requestDeviceAuthorization(
  ctx: AuthContext,
  client: OAuthClient,
  params: Record<string, unknown>,
): Promise<{
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}> {
  if (!client.grantTypes.includes(DEVICE_GRANT)) throw oauthError("OAUTH_UNAUTHORIZED_CLIENT");
  const text = (key: string) => (typeof params[key] === "string" ? (params[key] as string) : undefined);
  const allowed = client.scopes.filter((scope) => ctx.options.oauthProvider.scopes.includes(scope));
  const asked = text("scope");
  const scopes = asked === undefined ? allowed : [...new Set(asked.split(" ").filter(Boolean))];
  if (scopes.length === 0 || scopes.some((scope) => !allowed.includes(scope))) throw oauthError("OAUTH_INVALID_SCOPE");
  let resource: string | null;
  try {
    resource = checkResource(ctx, text("resource"));
  } catch {
    throw oauthError("OAUTH_INVALID_TARGET");
  }
  const { deviceCodeExpiresIn, devicePollingInterval, deviceVerificationPage } = ctx.options.oauthProvider;
  const deviceCode = randomString(43);
  const now = ctx.now();
  let userCode = "";
  // A user code is short: one may repeat a live one, rarely; the unique index tells, and another is drawn.
  for (let attempt = 1; ; attempt++) {
    userCode = randomString(8, USER_CODE_ALPHABET);
    try {
      await insertDeviceCode(ctx.db, {
        id: newId(),
        deviceCodeHash: sha256Base64Url(deviceCode),
        userCodeHash: userCodeHash(userCode),
        clientId: client.clientId,
        scopes,
        resource,
        status: "pending",
        userId: null,
        authTime: null,
        intervalSeconds: devicePollingInterval,
        lastPolledAt: null,
        usedAt: null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + deviceCodeExpiresIn * 1000),
      });
      break;
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 5) throw error;
    }
  }
  const page = new URL(deviceVerificationPage, ctx.baseURL);
  const complete = new URL(page);
  const shown = `${userCode.slice(0, 4)}-${userCode.slice(4)}`;
  complete.searchParams.set("user_code", shown);
  return {
    device_code: deviceCode,
    user_code: shown,
    verification_uri: page.toString(),
    verification_uri_complete: complete.toString(),
    expires_in: deviceCodeExpiresIn,
    interval: devicePollingInterval,
  };
}

/** A pending, unexpired request by its user code, with its client; OAUTH_USER_CODE_INVALID otherwise. */
async function pendingRequest(ctx: AuthContext, typed: string): Promise<{ code: DeviceCode; client: OAuthClient }> {
  const code = await findDeviceCode(ctx.db, { userCodeHash: userCodeHash(typed) });
  const client = code ? await findClient(ctx.db, code.clientId) : null;
  if (!code || !client || client.disabled || code.expiresAt.getTime() <= ctx.now().getTime()) {
    throw new AuthError("OAUTH_USER_CODE_INVALID");
  }
  return { code, client };
}

/** GET /device?user_code=: what the device page shows (which client asks for which scopes). */
export async function deviceRequestStatus(ctx: AuthContext, typed: string) {
  const { code, client } = await pendingRequest(ctx, typed);
  return {
    user_code: typed,
    status: code.status,
    client_id: client.clientId,
    client_name: client.name,
    scope: code.scopes.join(" "),
  };
}

/**
 * The signed-in user approves or denies. Approval is consent to the scopes for this client
 * (remembered, as on the consent page) and ties the request to the user and their sign-in time.
 */
export async function answerDeviceRequest(
  ctx: AuthContext,
  caller: SessionWithUser,
  typed: string,
  approve: boolean,
): Promise<void> {
  const { code, client } = await pendingRequest(ctx, typed);
  noteAudit(ctx, {
    subjectId: caller.user.id,
    organizationId: client.organizationId ?? undefined,
    details: { clientId: client.clientId, device: true, scopes: code.scopes.join(" ") },
  });
  if (code.status !== "pending") throw new AuthError("OAUTH_USER_CODE_INVALID");
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    const answer = approve
      ? ({ status: "approved", userId: caller.user.id, authTime: caller.session.createdAt } as const)
      : ({ status: "denied", userId: caller.user.id } as const);
    if (!(await answerDeviceCode(trx, code.id, answer))) throw new AuthError("OAUTH_USER_CODE_INVALID");
    // A denial is the user's answer too: it is recorded with it (oauth.device_denied).
    if (!approve) return auditChange(ctx, trx);
    const before = await findConsent(trx, caller.user.id, client.clientId);
    await saveConsent(trx, {
      id: before?.id ?? newId(),
      userId: caller.user.id,
      clientId: client.clientId,
      scopes: [...new Set([...(before?.scopes ?? []), ...code.scopes])],
      createdAt: before?.createdAt ?? now,
      updatedAt: now,
    });
    await auditChange(ctx, trx);
  });
}

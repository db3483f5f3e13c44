import type { Context } from "hono";
import { apiKeyEndpoints as k } from "../../contract/endpoints/index.js";
import { AuthError } from "../errors.js";
import type { AuthEnv } from "../http/env.js";
import type { Route } from "../http/route.js";
import { isServerCall } from "../http/server-call.js";
import { getRequestSession } from "../http/session.js";
import { authenticateApiKey } from "../services/api-key-verification.js";
import {
  createApiKey,
  deleteApiKey,
  getApiKey,
  type KeyManager,
  keyView,
  listApiKeys,
  rotateApiKey,
  updateApiKey,
} from "../services/api-keys.js";
import { guardCredentialChange } from "../services/credential-guard.js";

/** Who manages: the session's user (not an admin impersonating), or a server call naming one. */
async function managerOf(c: Context<AuthEnv>): Promise<KeyManager> {
  const session = await getRequestSession(c);
  if (session) await guardCredentialChange(c.get("auth"), session, "manage", undefined);
  return { userId: session?.user.id, server: isServerCall(c) };
}

/** API keys (apiKey.enabled; docs/api-keys.md). */
export function apiKeyRoutes(route: Route): void {
  route(k.createApiKey, async (c, { body }) => createApiKey(c.get("auth"), await managerOf(c), body));

  route(k.getApiKey, (c, { query, caller }) => getApiKey(c.get("auth"), caller.user.id, query.id));

  route(k.listApiKeys, (c, { query, caller }) => listApiKeys(c.get("auth"), caller.user.id, query));

  route(k.updateApiKey, async (c, { body }) => updateApiKey(c.get("auth"), await managerOf(c), body));

  route(k.rotateApiKey, (c, { body, caller }) => rotateApiKey(c.get("auth"), caller.user.id, body));

  route(k.deleteApiKey, async (c, { body, caller }) => {
    await deleteApiKey(c.get("auth"), caller.user.id, body.keyId);
    return { success: true };
  });

  // Server only, as better-auth's: over HTTP it does not exist.
  route(k.verifyApiKey, async (c, { body }) => {
    if (!isServerCall(c)) throw new AuthError("NOT_FOUND");
    try {
      const row = await authenticateApiKey(c.get("auth"), body.key, body.permissions);
      return { valid: true, error: null, key: keyView(row) };
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      return { valid: false, error: { code: error.code, message: error.message, ...error.details }, key: null };
    }
  });
}

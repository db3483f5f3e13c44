import type { Context } from "hono";
import { socialEndpoints } from "../../contract/endpoints/index.js";
import type { AccountSelector } from "../../contract/social.js";
import { AuthError } from "../errors.js";
import type { AuthEnv } from "../http/env.js";
import type { Route } from "../http/route.js";
import { getRequestSession } from "../http/session.js";
import {
  accountInfo,
  accountList,
  callerAccountsRead,
  getAccessToken,
  refreshToken,
  unlinkAccount,
} from "../services/social/account-tokens.js";

/**
 * Over HTTP the caller's own session names the user: a userId in the body never reaches another
 * user's tokens. Neither a session nor a userId: "Either userId or session is required".
 */
async function callerId(c: Context<AuthEnv>, selector: AccountSelector): Promise<string> {
  const data = await getRequestSession(c);
  if (data) return data.user.id;
  if (!selector.userId) throw new AuthError("USER_ID_OR_SESSION_REQUIRED");
  throw new AuthError("UNAUTHORIZED");
}

export function accountRoutes(route: Route): void {
  route(socialEndpoints.listAccounts, (_c, { rows }) => accountList(rows), { reads: callerAccountsRead });

  route(socialEndpoints.unlinkAccount, async (c, { body, caller: { user } }) => {
    await unlinkAccount(c.get("auth"), user.id, body);
    return { status: true };
  });

  route(socialEndpoints.getAccessToken, async (c, { body }) =>
    getAccessToken(c.get("auth"), await callerId(c, body), body),
  );

  route(socialEndpoints.refreshToken, async (c, { body }) =>
    refreshToken(c.get("auth"), await callerId(c, body), body),
  );

  route(socialEndpoints.accountInfoPost, async (c, { body }) =>
    accountInfo(c.get("auth"), await callerId(c, body), body),
  );

  route(socialEndpoints.accountInfo, async (c, { query }) =>
    accountInfo(c.get("auth"), await callerId(c, query), query),
  );
}

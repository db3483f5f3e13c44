import type { Context, Hono } from "hono";
import { type AccountSelector, accountSelector } from "../../contract/social.js";
import { AuthError } from "../errors.js";
import type { AuthEnv } from "../http/env.js";
import { readBody, readQuery } from "../http/input.js";
import { getRequestSession, requireSession } from "../http/session.js";
import {
  accountInfo,
  getAccessToken,
  listAccounts,
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

export function accountRoutes(app: Hono<AuthEnv>): void {
  app.get("/list-accounts", async (c) => {
    const { user } = await requireSession(c);
    return c.json(await listAccounts(c.get("auth"), user.id));
  });

  app.post("/unlink-account", async (c) => {
    const body = readBody(c, accountSelector);
    const { user } = await requireSession(c, { fresh: true });
    await unlinkAccount(c.get("auth"), user.id, body);
    return c.json({ status: true });
  });

  app.post("/get-access-token", async (c) => {
    const body = readBody(c, accountSelector);
    return c.json(await getAccessToken(c.get("auth"), await callerId(c, body), body));
  });

  app.post("/refresh-token", async (c) => {
    const body = readBody(c, accountSelector);
    return c.json(await refreshToken(c.get("auth"), await callerId(c, body), body));
  });

  app.post("/account-info", async (c) => {
    const body = readBody(c, accountSelector);
    return c.json(await accountInfo(c.get("auth"), await callerId(c, body), body));
  });

  app.get("/account-info", async (c) => {
    const query = readQuery(c, accountSelector);
    return c.json(await accountInfo(c.get("auth"), await callerId(c, query), query));
  });
}

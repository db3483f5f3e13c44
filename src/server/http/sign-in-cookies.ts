import type { Context } from "hono";
import type { SessionWithUser } from "../../contract/models.js";
import { retireAnonymousUser } from "../services/anonymous.js";
import { readSignedCookie, writeSessionCookies } from "./cookies.js";
import type { AuthEnv } from "./env.js";
import { getRequestSession } from "./session.js";

/**
 * Every sign-in and sign-up ends here: the new session's cookies are set, and when the browser held
 * an anonymous session the anonymous user is handed to onLinkAccount and deleted (SPEC: anonymous
 * work moves to the real user). The old session is read before the new cookies are written, so
 * clearing a stale cookie can never override them.
 */
export async function writeSignInCookies(
  c: Context<AuthEnv>,
  data: SessionWithUser,
  options: { rememberMe: boolean },
): Promise<void> {
  const previous = readSignedCookie(c, "session_token") ? await getRequestSession(c) : null;
  writeSessionCookies(c, data, options);
  await retireAnonymousUser(c.get("auth"), previous, data);
}

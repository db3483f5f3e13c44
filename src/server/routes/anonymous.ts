import { socialEndpoints } from "../../contract/endpoints/index.js";
import { clearSessionCookies, writeSessionCookies } from "../http/cookies.js";
import type { Route } from "../http/route.js";
import { getRequestSession, requestMeta } from "../http/session.js";
import { deleteAnonymousUser, signInAnonymously } from "../services/anonymous.js";

/** Routed only while anonymous is on (the endpoints' feature switch). */
export function anonymousRoutes(route: Route): void {
  route(socialEndpoints.signInAnonymous, async (c) => {
    const ctx = c.get("auth");
    const data = await signInAnonymously(ctx, await getRequestSession(c), requestMeta(c));
    writeSessionCookies(c, data, { rememberMe: true });
    return { token: data.session.token, user: data.user };
  });

  route(socialEndpoints.deleteAnonymousUser, async (c, { caller }) => {
    await deleteAnonymousUser(c.get("auth"), caller);
    clearSessionCookies(c);
    return { success: true };
  });
}

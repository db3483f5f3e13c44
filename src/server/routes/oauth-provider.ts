import { oauthProviderEndpoints as e } from "../../contract/endpoints/index.js";
import { refusingStep } from "../audit/request.http.js";
import { isAuthError } from "../errors.js";
import { clearSessionCookies, readSignedCookie } from "../http/cookies.js";
import { formPostPage } from "../http/form-post-page.js";
import { logoutFramesPage } from "../http/logout-frames-page.js";
import type { Route } from "../http/route.js";
import { isServerCall } from "../http/server-call.js";
import { getRequestSession, requestMeta } from "../http/session.js";
import {
  adminCreateClient,
  adminDeleteClient,
  adminListClients,
  adminUpdateClient,
} from "../services/oauth-provider/admin-clients.js";
import { answerConsent, authorizeFromBrowser, continueAuthorization } from "../services/oauth-provider/authorize.js";
import {
  deleteRegistration,
  readRegistration,
  registeredClient,
  replaceRegistration,
} from "../services/oauth-provider/client-configuration.js";
import {
  authenticateClient,
  changeClient,
  clientReply,
  createClient,
  listManagedClients,
  managedClient,
  publicClient,
  registerClient,
  removeClient,
  rotateSecret,
} from "../services/oauth-provider/clients.js";
import { consentsOf, withdrawConsent } from "../services/oauth-provider/consents.js";
import {
  answerDeviceRequest,
  deviceRequestStatus,
  requestDeviceAuthorization,
} from "../services/oauth-provider/device.js";
import { endSession } from "../services/oauth-provider/logout.js";
import { protectedResourceMetadata, serverMetadata } from "../services/oauth-provider/metadata.js";
import { verifySignedQuery } from "../services/oauth-provider/signed-query.js";
import { exchangeToken, introspect, revoke, userInfo } from "../services/oauth-provider/tokens.js";
import { signOut } from "../services/sessions.js";

const DEVICE_POLL_ANSWERS = new Set(["OAUTH_AUTHORIZATION_PENDING", "OAUTH_SLOW_DOWN"]);
const asPollRefusal = (error: unknown) =>
  refusingStep(() => {
    throw error;
  }, "rate-limit");

/** The OAuth 2.1 and OpenID provider (registered when oauthProvider.enabled; docs/oauth-provider.md). */
export function oauthProviderRoutes(route: Route): void {
  for (const endpoint of [e.getOpenIdConfig, e.getOAuthServerConfig]) {
    route(endpoint, (c) => {
      c.header("Cache-Control", "public, max-age=300");
      return serverMetadata(c.get("auth"));
    });
  }

  route(e.getOAuthProtectedResource, (c) => {
    c.header("Cache-Control", "public, max-age=300");
    return protectedResourceMetadata(c.get("auth"));
  });

  route(e.oauth2Authorize, async (c) => {
    const ctx = c.get("auth");
    // The raw query: a parameter given twice must be seen (RFC 6749 3.1), not its first value only.
    const query = new URL(c.req.url).searchParams;
    // The app sends the user back with the signed query after signing in: it carries when it was signed.
    const signed = query.has("sig") ? verifySignedQuery(ctx, query) : null;
    const next = await authorizeFromBrowser(ctx, {
      params: signed?.request ?? query,
      session: await getRequestSession(c),
      signedAt: signed?.signedAt ?? null,
    });
    if (next.post) return formPostPage(next.url, next.post);
    c.header("Cache-Control", "no-store");
    return c.redirect(next.url, 302);
  });

  route(e.oauth2Consent, async (c, { body, caller }) => {
    return { redirect: true as const, url: await answerConsent(c.get("auth"), caller, body) };
  });

  route(e.oauth2Continue, async (c, { body, caller }) => {
    return { redirect: true as const, url: await continueAuthorization(c.get("auth"), caller, body.oauth_query) };
  });

  route(e.oauth2Token, async (c, { body }) => {
    const ctx = c.get("auth");
    const client = await authenticateClient(ctx, c.req.header("authorization"), body, { allowPublic: true });
    c.header("Cache-Control", "no-store");
    c.header("Pragma", "no-cache");
    try {
      return await exchangeToken(ctx, client, body);
    } catch (error) {
      // A device's polls are audited as the rate limiter's refusals are: once per client a window.
      if (isAuthError(error) && DEVICE_POLL_ANSWERS.has(error.code)) await asPollRefusal(error)(c);
      throw error;
    }
  });

  route(e.deviceCode, async (c, { body }) => {
    const ctx = c.get("auth");
    const client = await authenticateClient(ctx, c.req.header("authorization"), body, { allowPublic: true });
    c.header("Cache-Control", "no-store");
    return requestDeviceAuthorization(ctx, client, body);
  });

  route(e.deviceVerify, async (c, { query }) => {
    return deviceRequestStatus(c.get("auth"), query.user_code);
  });

  route(e.deviceApprove, async (c, { body, caller }) => {
    await answerDeviceRequest(c.get("auth"), caller, body.userCode, true);
    return { success: true };
  });

  route(e.deviceDeny, async (c, { body, caller }) => {
    await answerDeviceRequest(c.get("auth"), caller, body.userCode, false);
    return { success: true };
  });

  route(e.oauth2Introspect, async (c, { body }) => {
    const ctx = c.get("auth");
    const client = await authenticateClient(ctx, c.req.header("authorization"), body, { allowPublic: false });
    c.header("Cache-Control", "no-store");
    return introspect(ctx, client, body) as never;
  });

  route(e.oauth2Revoke, async (c, { body }) => {
    const ctx = c.get("auth");
    const client = await authenticateClient(ctx, c.req.header("authorization"), body, { allowPublic: true });
    await revoke(ctx, client, body);
    return {};
  });

  for (const endpoint of [e.oauth2UserInfo, e.oauth2UserInfoPost]) {
    route(endpoint, async (c) => {
      c.header("Cache-Control", "no-store");
      try {
        return (await userInfo(c.get("auth"), c.req.header("authorization"))) as never;
      } catch (error) {
        // RFC 6750 3: the challenge says why.
        c.header("WWW-Authenticate", 'Bearer error="invalid_token"');
        throw error;
      }
    });
  }

  route(e.updateOAuthClient, async (c, { body, caller: { session } }) => {
    return changeClient(c.get("auth"), session, body);
  });

  route(e.oauth2EndSession, async (c) => {
    const ctx = c.get("auth");
    const session = await getRequestSession(c);
    const signedIn = session ? { userId: session.user.id, sessionId: session.session.id } : null;
    const outcome = await endSession(ctx, new URL(c.req.url).searchParams, signedIn);
    if (outcome.signOut) {
      const token = readSignedCookie(c, "session_token");
      if (token) await signOut(ctx, token);
      clearSessionCookies(c);
    }
    if (outcome.frames.length > 0) {
      // The session cookies' deletion rides on the page, as on the redirect.
      const page = logoutFramesPage(outcome.frames, outcome.url);
      for (const cookie of c.res.headers.getSetCookie()) page.headers.append("set-cookie", cookie);
      return page;
    }
    c.header("Cache-Control", "no-store");
    return c.redirect(outcome.url, 302);
  });

  route(e.registerOAuthClient, async (c, { body }) => {
    const session = await getRequestSession(c);
    c.header("Cache-Control", "no-store");
    return c.json(await registerClient(c.get("auth"), session?.user.id ?? null, body), 201);
  });

  route(e.createOAuthClient, async (c, { body, caller: { session } }) => {
    return c.json(await createClient(c.get("auth"), session.userId, body, { server: isServerCall(c) }), 201);
  });

  route(e.getOAuthClients, async (c, { query, caller: { session } }) => {
    return listManagedClients(c.get("auth"), session, query.organizationId);
  });

  route(e.getOAuthClient, async (c, { query, caller: { session } }) => {
    return clientReply(await managedClient(c.get("auth"), session, query.client_id));
  });

  route(e.getOAuthClientPublic, async (c, { query }) => {
    return publicClient(c.get("auth"), query.client_id);
  });

  route(e.rotateClientSecret, async (c, { body, caller: { session } }) => {
    return rotateSecret(c.get("auth"), session, body.client_id);
  });

  route(e.deleteOAuthClient, async (c, { body, caller: { session } }) => {
    await removeClient(c.get("auth"), session, body.client_id);
    return { success: true };
  });

  route(e.getOAuthConsents, async (c, { caller: { session } }) => {
    return consentsOf(c.get("auth"), session);
  });

  route(e.deleteOAuthConsent, async (c, { body, caller: { session } }) => {
    await withdrawConsent(c.get("auth"), session, body.id);
    return { success: true };
  });

  route(e.adminCreateOAuthClient, async (c, { body, caller: { user } }) => {
    const actor = { user, meta: requestMeta(c) };
    return c.json(await adminCreateClient(c.get("auth"), actor, body, { server: isServerCall(c) }), 201);
  });

  route(e.adminUpdateOAuthClient, async (c, { body, caller: { user } }) => {
    return adminUpdateClient(c.get("auth"), { user, meta: requestMeta(c) }, body);
  });

  route(e.adminListOAuthClients, async (c, { query, caller: { user } }) => {
    return adminListClients(c.get("auth"), { user, meta: requestMeta(c) }, query);
  });

  route(e.adminDeleteOAuthClient, async (c, { body, caller: { user } }) => {
    await adminDeleteClient(c.get("auth"), { user, meta: requestMeta(c) }, body.client_id);
    return { success: true };
  });

  // RFC 7592: the bearer registration access token, never a session, names the caller.
  const registration = async (c: Parameters<Parameters<Route>[1]>[0]) => {
    try {
      return await registeredClient(c.get("auth"), c.req.param("client_id") ?? "", c.req.header("authorization"));
    } catch (error) {
      c.header("WWW-Authenticate", 'Bearer error="invalid_token"');
      throw error;
    }
  };

  route(e.readRegisteredClient, async (c) => {
    c.header("Cache-Control", "no-store");
    return readRegistration(c.get("auth"), await registration(c));
  });

  route(e.replaceRegisteredClient, async (c, { body }) => {
    const ctx = c.get("auth");
    c.header("Cache-Control", "no-store");
    return replaceRegistration(ctx, await registration(c), body);
  });

  route(e.deleteRegisteredClient, async (c) => {
    await deleteRegistration(c.get("auth"), await registration(c));
    return c.body(null, 204);
  });
}

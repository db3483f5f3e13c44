import { ssoEndpoints } from "../../contract/endpoints/index.js";
import { writeSignedCookie } from "../http/cookies.js";
import type { Route } from "../http/route.js";
import { STATE_COOKIE_MAX_AGE } from "../services/social/state.js";
import {
  deleteProvider,
  findManagedProvider,
  listProviders,
  providerView,
  registerProvider,
  updateProvider,
} from "../services/sso/connections.js";
import { requestDomainVerification, verifyDomains } from "../services/sso/domains.js";
import { completeSSOCallback, startSSOSignIn } from "../services/sso/sign-in.js";
import { answerOAuthCallback } from "./oauth-callback.js";

export function ssoRoutes(route: Route): void {
  route(ssoEndpoints.registerSSOProvider, (c, { body, caller }) => registerProvider(c.get("auth"), caller, body));

  route(ssoEndpoints.listSSOProviders, async (c, { caller }) => ({
    providers: await listProviders(c.get("auth"), caller.user.id),
  }));

  route(ssoEndpoints.getSSOProvider, async (c, { query, caller }) => {
    const ctx = c.get("auth");
    return providerView(ctx, await findManagedProvider(ctx, caller.user.id, query.providerId));
  });

  route(ssoEndpoints.updateSSOProvider, (c, { body, caller }) => updateProvider(c.get("auth"), caller.user.id, body));

  route(ssoEndpoints.deleteSSOProvider, async (c, { body, caller }) => {
    await deleteProvider(c.get("auth"), caller.user.id, body.providerId);
    return { success: true };
  });

  route(ssoEndpoints.requestDomainVerification, (c, { body, caller }) =>
    requestDomainVerification(c.get("auth"), caller.user.id, body.providerId),
  );

  route(ssoEndpoints.verifyDomain, (c, { body, caller }) =>
    verifyDomains(c.get("auth"), caller.user.id, body.providerId),
  );

  route(ssoEndpoints.signInSSO, async (c, { body }) => {
    const { url, state } = await startSSOSignIn(c.get("auth"), body);
    writeSignedCookie(c, "state", state, STATE_COOKIE_MAX_AGE);
    c.header("Location", url);
    return { url, redirect: true };
  });

  route(ssoEndpoints.callbackSSO, (c) =>
    answerOAuthCallback(c, { providerId: c.req.param("providerId") ?? "", logLabel: "sso" }, completeSSOCallback),
  );
}

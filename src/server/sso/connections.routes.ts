import { ssoEndpoints } from "../../contract/endpoints/index.js";
import { expireSamlFlowCookie, readSignedCookie, samlFlowBinding, writeFlowCookies } from "../http/cookies.js";
import type { Route } from "../http/route.js";
import { getRequestSession, requestMeta } from "../http/session.js";
import { answerOAuthCallback, answerSignInOutcome } from "../routes/oauth-callback.js";
import { STATE_COOKIE_MAX_AGE } from "../services/social/state.js";
import {
  cancelProviderChange,
  confirmProviderChange,
  deleteProvider,
  findManagedProvider,
  listProviders,
  providerView,
  registerProvider,
  testConnection,
  updateProvider,
} from "./connections.service.js";
import { requestDomainVerification, verifyDomains } from "./domains.service.js";
import { spMetadataOf } from "./saml.service.js";
import { completeSAMLResponse } from "./saml-sign-in.service.js";
import { completeSSOCallback, startSSOSignIn } from "./sign-in.service.js";
import { readSSOTestResult, startSSOTestSignIn } from "./test-sign-in.service.js";

export function ssoRoutes(route: Route): void {
  route(ssoEndpoints.registerSSOProvider, (c, { body, caller }) => registerProvider(c.get("auth"), caller, body));

  route(ssoEndpoints.listSSOProviders, async (c, { caller }) => ({
    providers: await listProviders(c.get("auth"), caller.user.id),
  }));

  route(ssoEndpoints.getSSOProvider, async (c, { query, caller }) => {
    const ctx = c.get("auth");
    return providerView(ctx, await findManagedProvider(ctx, caller, query.providerId));
  });

  route(ssoEndpoints.updateSSOProvider, (c, { body, caller }) => updateProvider(c.get("auth"), caller, body));

  route(ssoEndpoints.confirmSSOProviderChange, (c, { body, caller }) =>
    confirmProviderChange(c.get("auth"), caller, body.providerId),
  );

  route(ssoEndpoints.cancelSSOProviderChange, (c, { body, caller }) =>
    cancelProviderChange(c.get("auth"), caller, body.providerId),
  );

  route(ssoEndpoints.deleteSSOProvider, async (c, { body, caller }) => {
    await deleteProvider(c.get("auth"), caller, body.providerId);
    return { success: true };
  });

  route(ssoEndpoints.requestDomainVerification, (c, { body, caller }) =>
    requestDomainVerification(c.get("auth"), caller, body.providerId),
  );

  route(ssoEndpoints.verifyDomain, (c, { body, caller }) => verifyDomains(c.get("auth"), caller, body.providerId));

  route(ssoEndpoints.testSSOConnection, (c, { body, caller }) =>
    testConnection(c.get("auth"), caller, body.providerId),
  );

  route(ssoEndpoints.startSSOTestSignIn, async (c, { body, caller }) => {
    const flow = await startSSOTestSignIn(c.get("auth"), caller, body.providerId, body.callbackURL);
    writeFlowCookies(c, flow, STATE_COOKIE_MAX_AGE);
    return { url: flow.url, redirect: true };
  });

  route(ssoEndpoints.getSSOTestResult, (c, { query, caller }) =>
    readSSOTestResult(c.get("auth"), caller, query.testId),
  );

  route(ssoEndpoints.signInSSO, async (c, { body }) => {
    const ctx = c.get("auth");
    const flow = await startSSOSignIn(ctx, body);
    writeFlowCookies(c, flow, STATE_COOKIE_MAX_AGE);
    c.header("Location", flow.url);
    return { url: flow.url, redirect: true };
  });

  route(ssoEndpoints.callbackSSO, (c) =>
    answerOAuthCallback(c, { providerId: c.req.param("providerId") ?? "", logLabel: "sso" }, completeSSOCallback),
  );

  // Public, like better-auth's: the IdP's admin (or the IdP itself) reads it without a session.
  route(ssoEndpoints.spMetadata, async (c, { query }) => {
    const metadata = await spMetadataOf(c.get("auth"), query.providerId);
    if (query.format === "json") return c.json({ providerId: query.providerId, metadata });
    return c.body(metadata, 200, { "Content-Type": "application/samlmetadata+xml; charset=utf-8" });
  });

  for (const acs of [ssoEndpoints.callbackSSOSAML, ssoEndpoints.acsEndpoint]) {
    route(acs, (c, { body }) => {
      const ctx = c.get("auth");
      const flowCookie = samlFlowBinding(ctx) ? readSignedCookie(c, "saml_flow") : undefined;
      if (flowCookie !== undefined) expireSamlFlowCookie(c);
      return answerSignInOutcome(c, "saml", () =>
        completeSAMLResponse(ctx, {
          providerId: c.req.param("providerId") ?? "",
          SAMLResponse: body.SAMLResponse,
          RelayState: body.RelayState,
          stateCookie: readSignedCookie(c, "state"),
          flowCookie,
          currentSession: () => getRequestSession(c),
          meta: requestMeta(c),
        }),
      );
    });
  }
}

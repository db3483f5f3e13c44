import { setupLinkEndpoints as setup } from "../../contract/endpoints/index.js";
import { apiURL } from "../context.js";
import { writeFlowCookies } from "../http/cookies.js";
import type { Route } from "../http/route.js";
import { auditAsSetupLink, expireSetupLinkCookie, writeSetupLinkCookie } from "../http/setup-link.js";
import { generateScimToken, listScimConnections } from "../scim/connections.service.js";
import { scimConnectionHealth } from "../scim/health.service.js";
import { createWebhook, listLinkWebhooks, testLinkWebhook } from "../services/organization-webhooks.js";
import {
  authenticateSetupLink,
  createSetupLink,
  listOrganizationSetupLinks,
  revokeSetupLink,
  setupLinkGrant,
} from "../services/setup-links.js";
import { STATE_COOKIE_MAX_AGE } from "../services/social/state.js";
import {
  listOrganizationProviders,
  registerProvider,
  testConnection,
  updateProvider,
} from "../sso/connections.service.js";
import { requestDomainVerification, verifyDomains } from "../sso/domains.service.js";
import { readSSOTestResult, startSSOTestSignIn } from "../sso/test-sign-in.service.js";

/**
 * Setup links (docs/sso.md, "Let the customer set it up"): owners' routes to hand them out, and the
 * `/setup/` routes their holders call, each with the link its policy checked (http/setup-link.ts),
 * through the same services as the owners' own routes.
 */
export function setupLinkRoutes(route: Route): void {
  route(setup.createSetupLink, (c, { body, caller }) => createSetupLink(c.get("auth"), caller, body));

  route(setup.listSetupLinks, async (c, { query, caller }) => ({
    links: await listOrganizationSetupLinks(c.get("auth"), caller, query),
  }));

  route(setup.revokeSetupLink, (c, { body, caller }) => revokeSetupLink(c.get("auth"), caller, body.linkId));

  route(setup.openSetupLink, async (c, { body }) => {
    const ctx = c.get("auth");
    const link = await authenticateSetupLink(ctx, body.token);
    auditAsSetupLink(c, link);
    const grant = await setupLinkGrant(ctx, link);
    writeSetupLinkCookie(c, body.token, link);
    return grant;
  });

  route(setup.setupLinkGrant, (c, { caller: link }) => setupLinkGrant(c.get("auth"), link));

  route(setup.closeSetupLink, (c) => {
    expireSetupLinkCookie(c);
    return { success: true };
  });

  route(setup.setupListSSOProviders, async (c, { caller: link }) => ({
    providers: await listOrganizationProviders(c.get("auth"), link.organizationId),
  }));

  route(setup.setupRegisterSSOProvider, (c, { body, caller: link }) => registerProvider(c.get("auth"), link, body));

  route(setup.setupUpdateSSOProvider, (c, { body, caller: link }) => updateProvider(c.get("auth"), link, body));

  route(setup.setupTestSSOConnection, (c, { body, caller: link }) =>
    testConnection(c.get("auth"), link, body.providerId),
  );

  route(setup.setupStartSSOTestSignIn, async (c, { body, caller: link }) => {
    const flow = await startSSOTestSignIn(c.get("auth"), link, body.providerId, body.callbackURL);
    writeFlowCookies(c, flow, STATE_COOKIE_MAX_AGE);
    return { url: flow.url, redirect: true };
  });

  route(setup.setupGetSSOTestResult, (c, { query, caller: link }) =>
    readSSOTestResult(c.get("auth"), link, query.testId),
  );

  route(setup.setupRequestDomainVerification, (c, { body, caller: link }) =>
    requestDomainVerification(c.get("auth"), link, body.providerId),
  );

  route(setup.setupVerifyDomain, (c, { body, caller: link }) => verifyDomains(c.get("auth"), link, body.providerId));

  route(setup.setupListSCIMConnections, async (c, { caller: link }) => {
    const ctx = c.get("auth");
    return {
      baseURL: apiURL(ctx, "/scim/v2"),
      providers: await listScimConnections(ctx, link),
    };
  });

  route(setup.setupCreateAuditStream, (c, { body, caller: link }) =>
    createWebhook(c.get("auth"), link, { url: body.url, events: ["audit.entry"] }),
  );

  route(setup.setupListAuditStreams, async (c, { caller: link }) => ({
    webhooks: await listLinkWebhooks(c.get("auth"), link),
  }));

  route(setup.setupTestAuditStream, (c, { body, caller: link }) =>
    testLinkWebhook(c.get("auth"), link, body.webhookId),
  );

  route(setup.setupGetSCIMConnectionHealth, (c, { query, caller: link }) =>
    scimConnectionHealth(c.get("auth"), link, query.providerId),
  );

  route(setup.setupGenerateSCIMToken, async (c, { body, caller: link }) => {
    // 201, as the owners' route answers: a connection (or a new token for it) was created.
    return c.json(await generateScimToken(c.get("auth"), link, body), 201);
  });
}

import { z } from "zod";
import {
  organizationWebhookModel,
  testWebhookReply,
  webhookIdBody,
  webhookWithSecretModel,
} from "../organization-webhooks.js";
import * as scim from "../scim.js";
import * as setup from "../setup-links.js";
import * as sso from "../sso.js";
import { endpoint } from "./define.js";
import { redirectReply, successReply } from "./replies.js";
import {
  SSO_REGISTER_ERRORS,
  SSO_REQUEST_DOMAIN_ERRORS,
  SSO_TEST_RESULT_ERRORS,
  SSO_TEST_SIGN_IN_ERRORS,
  SSO_UPDATE_ERRORS,
  SSO_VERIFY_DOMAIN_ERRORS,
} from "./sso.js";

/**
 * Owners hand out links; an owner's act of trust, so a recent sign-in and never an impersonator's.
 * Reads too are owners' only: a link's label and scopes say what a customer's admin is doing.
 */
const OWNER = { session: "required", feature: "setupLinks" } as const;
const OWNER_CHANGE = { session: "fresh", feature: "setupLinks", credentials: "manage" } as const;
const OWNER_ERRORS = ["NO_ACTIVE_ORGANIZATION", "SETUP_LINK_OWNER_REQUIRED"] as const;
/** What a link-holder's request may be refused with beyond its own codes. */
const LINK_ERRORS = ["SETUP_LINK_INVALID", "SETUP_LINK_SCOPE_DENIED"] as const;
const PROVIDER_ERRORS = [...LINK_ERRORS, "SSO_PROVIDER_NOT_FOUND"] as const;

/**
 * Setup links (docs/sso.md, "Let the customer set it up"): owners create, list and revoke them; the
 * person holding one opens it (its secret for a cookie scoped to the link, not a session) and may
 * then call only the `/setup/` routes its scopes grant, for its organization only.
 */
export const setupLinkEndpoints = {
  createSetupLink: endpoint({
    method: "POST",
    path: "/organization/create-setup-link",
    summary:
      "Create a link that lets someone without an account configure the organization's SSO, domains or directory",
    body: setup.createSetupLinkBody,
    reply: setup.createSetupLinkReply,
    errors: [...OWNER_ERRORS, "ORGANIZATION_NOT_FOUND"],
    audit: { action: "organization.setup_link_created", organization: "organizationId" },
    policy: OWNER_CHANGE,
  }),
  listSetupLinks: endpoint({
    method: "GET",
    path: "/organization/list-setup-links",
    summary: "The organization's setup links, newest first, expired and revoked ones included (never a secret)",
    query: setup.listSetupLinksQuery,
    reply: setup.setupLinksReply,
    errors: OWNER_ERRORS,
    policy: OWNER,
  }),
  revokeSetupLink: endpoint({
    method: "POST",
    path: "/organization/revoke-setup-link",
    summary: "Stop a setup link at once",
    body: setup.setupLinkIdBody,
    reply: setup.setupLinkModel,
    errors: ["SETUP_LINK_OWNER_REQUIRED", "SETUP_LINK_NOT_FOUND"],
    audit: { action: "organization.setup_link_revoked" },
    policy: { ...OWNER, credentials: "manage" },
  }),
  openSetupLink: endpoint({
    method: "POST",
    path: "/setup/open",
    summary: "Exchange a setup link's secret for the link's cookie; answers what the link grants",
    body: setup.openSetupLinkBody,
    reply: setup.setupLinkGrantReply,
    errors: ["SETUP_LINK_INVALID"],
    // Its secret is guessed here: the credential class. Login-CSRF checked like a sign-in.
    audit: { action: "organization.setup_link_opened" },
    policy: { feature: "setupLinks", rateLimit: "credential", origin: "login" },
  }),
  setupLinkGrant: endpoint({
    method: "GET",
    path: "/setup/grant",
    summary: "What the open setup link grants: its organization, scopes and expiry",
    reply: setup.setupLinkGrantReply,
    errors: LINK_ERRORS,
    policy: { feature: "setupLinks", setupLink: setup.SETUP_SCOPES },
  }),
  closeSetupLink: endpoint({
    method: "POST",
    path: "/setup/close",
    summary: "Forget the setup link in this browser (the link itself stays valid)",
    reply: successReply,
    policy: { feature: "setupLinks" },
  }),
  setupListSSOProviders: endpoint({
    method: "GET",
    path: "/setup/sso/providers",
    summary: "The link's organization's connections, with their domains and what to paste into the provider",
    reply: z.object({ providers: z.array(sso.ssoProviderModel) }),
    errors: LINK_ERRORS,
    policy: { feature: "sso", setupLink: ["sso", "domains"] },
  }),
  setupRegisterSSOProvider: endpoint({
    method: "POST",
    path: "/setup/sso/register",
    summary: "Register an OpenID Connect or SAML connection for the link's organization",
    body: sso.registerSSOProviderBody,
    reply: sso.ssoProviderModel,
    errors: [...LINK_ERRORS, "SETUP_LINK_OTHER_ORGANIZATION", ...SSO_REGISTER_ERRORS],
    audit: { action: "organization.sso_connection_created", organization: "organizationId" },
    policy: { feature: "sso", setupLink: ["sso"] },
  }),
  setupUpdateSSOProvider: endpoint({
    method: "POST",
    path: "/setup/sso/update-provider",
    summary:
      "Change a connection of the link's organization; who asserts identity changes at once only while no domain is verified",
    body: sso.updateSSOProviderBody,
    reply: sso.ssoProviderModel,
    errors: [...PROVIDER_ERRORS, ...SSO_UPDATE_ERRORS],
    audit: { action: "organization.sso_connection_updated" },
    policy: { feature: "sso", setupLink: ["sso"] },
  }),
  setupTestSSOConnection: endpoint({
    method: "POST",
    path: "/setup/sso/test-connection",
    summary: "Check a connection of the link's organization: discovery loads, SAML settings parse",
    body: sso.ssoProviderIdBody,
    reply: sso.testConnectionReply,
    errors: PROVIDER_ERRORS,
    policy: { feature: "sso", setupLink: ["sso"] },
  }),
  setupStartSSOTestSignIn: endpoint({
    method: "POST",
    path: "/setup/sso/test-sign-in",
    summary: "Start a test sign-in through a connection of the link's organization; signs nobody in",
    body: sso.ssoTestSignInBody,
    reply: redirectReply,
    errors: [...PROVIDER_ERRORS, ...SSO_TEST_SIGN_IN_ERRORS],
    audit: { action: "organization.sso_connection_tested" },
    policy: { feature: "sso", setupLink: ["sso"] },
  }),
  setupGetSSOTestResult: endpoint({
    method: "GET",
    path: "/setup/sso/test-sign-in/result",
    summary: "A test sign-in's result, to the setup link that started it",
    query: sso.ssoTestIdQuery,
    reply: sso.ssoTestResultReply,
    errors: [...LINK_ERRORS, ...SSO_TEST_RESULT_ERRORS],
    policy: { feature: "sso", setupLink: ["sso"] },
  }),
  setupRequestDomainVerification: endpoint({
    method: "POST",
    path: "/setup/sso/request-domain-verification",
    summary: "The DNS TXT record that proves a connection's domains",
    body: sso.ssoProviderIdBody,
    reply: sso.domainVerificationReply,
    errors: [...PROVIDER_ERRORS, ...SSO_REQUEST_DOMAIN_ERRORS],
    policy: { feature: "sso", setupLink: ["domains"] },
  }),
  setupVerifyDomain: endpoint({
    method: "POST",
    path: "/setup/sso/verify-domain",
    summary: "Look the TXT record up now and mark the connection's domains verified",
    body: sso.ssoProviderIdBody,
    reply: sso.verifyDomainReply,
    errors: [...PROVIDER_ERRORS, ...SSO_VERIFY_DOMAIN_ERRORS],
    audit: { action: "organization.sso_domain_verified" },
    policy: { feature: "sso", setupLink: ["domains"] },
  }),
  setupListSCIMConnections: endpoint({
    method: "GET",
    path: "/setup/scim/connections",
    summary: "The link's organization's directory connections and the base URL a directory calls",
    reply: setup.setupScimReply,
    errors: LINK_ERRORS,
    policy: { feature: "scim", setupLink: ["directory"] },
  }),
  setupGetSCIMConnectionHealth: endpoint({
    method: "GET",
    path: "/setup/scim/connection-health",
    summary:
      "How a directory connection of the link's organization is syncing: last call, counts, latest refused calls",
    query: scim.providerIdQuery,
    reply: scim.scimConnectionHealthModel,
    errors: [...LINK_ERRORS, "SCIM_PROVIDER_NOT_FOUND"],
    policy: { feature: "scim", setupLink: ["directory"] },
  }),
  setupGenerateSCIMToken: endpoint({
    method: "POST",
    path: "/setup/scim/generate-token",
    summary: "Create or rotate a directory connection of the link's organization; its token is shown once",
    body: scim.generateScimTokenBody,
    reply: scim.scimTokenReply,
    errors: [...LINK_ERRORS, "SETUP_LINK_OTHER_ORGANIZATION", "SCIM_PROVIDER_ID_INVALID", "SCIM_PROVIDER_ID_TAKEN"],
    audit: { action: "organization.scim_token_generated", organization: "organizationId" },
    policy: { feature: "scim", setupLink: ["directory"] },
  }),
  setupCreateAuditStream: endpoint({
    method: "POST",
    path: "/setup/audit-stream/create",
    summary: "Stream the link's organization's audit trail to a webhook; its secret is in this reply only",
    body: setup.setupAuditStreamBody,
    reply: webhookWithSecretModel,
    errors: [...LINK_ERRORS, "INVALID_WEBHOOK_URL", "WEBHOOK_URL_ALREADY_EXISTS", "TOO_MANY_WEBHOOKS"],
    audit: { action: "organization.webhook_created" },
    policy: { feature: "organizationWebhooks", setupLink: ["auditStream"] },
  }),
  setupListAuditStreams: endpoint({
    method: "GET",
    path: "/setup/audit-stream/list",
    summary: "The audit streams this link set up (never a secret), with their last delivery",
    reply: z.object({ webhooks: z.array(organizationWebhookModel) }),
    errors: LINK_ERRORS,
    policy: { feature: "organizationWebhooks", setupLink: ["auditStream"] },
  }),
  setupTestAuditStream: endpoint({
    method: "POST",
    path: "/setup/audit-stream/test",
    summary: "Send an audit stream this link set up one signed `webhook.test` delivery",
    body: webhookIdBody,
    reply: testWebhookReply,
    errors: [...LINK_ERRORS, "WEBHOOK_NOT_FOUND", "WEBHOOK_DISABLED"],
    // Each call makes the service dial the URL: paced like a mail.
    policy: { feature: "organizationWebhooks", setupLink: ["auditStream"], rateLimit: "mail" },
  }),
} as const;

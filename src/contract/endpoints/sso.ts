import { z } from "zod";
import * as sso from "../sso.js";
import { endpoint } from "./define.js";
import { redirectReply, successReply } from "./replies.js";

const OWNER = { session: "required", feature: "sso" } as const;
/**
 * A connection is a way in for every address of its domains: changing one is a credential change,
 * which an admin's impersonation session may not make (services/credential-guard.ts).
 */
const OWNER_CHANGE = { ...OWNER, credentials: "manage" } as const;
const PROVIDER_ERRORS = ["SSO_PROVIDER_NOT_FOUND", "SSO_INSUFFICIENT_ACCESS"] as const;

/*
 * What a connection's step may be refused with, whoever takes it: owners here, a setup link's holder
 * at /setup/ (endpoints/setup.ts adds the link's own codes). One list each, so the two cannot drift.
 */
const SETTINGS_ERRORS = [
  "INVALID_ISSUER",
  "ISSUER_NOT_PUBLIC",
  "DISCOVERY_FAILED",
  "ROLE_NOT_FOUND",
  "SSO_ROLE_NOT_ALLOWED",
] as const;
export const SSO_REGISTER_ERRORS = [
  "SSO_PROVIDER_ID_TAKEN",
  "SAML_CONFIG_INVALID",
  "OIDC_CONFIG_REQUIRED",
  ...SETTINGS_ERRORS,
] as const;
export const SSO_UPDATE_ERRORS = ["SAML_CONFIG_INVALID", ...SETTINGS_ERRORS] as const;
export const SSO_REQUEST_DOMAIN_ERRORS = ["DOMAIN_VERIFIED"] as const;
export const SSO_VERIFY_DOMAIN_ERRORS = [
  "DOMAIN_VERIFIED",
  "NO_PENDING_VERIFICATION",
  "DOMAIN_VERIFICATION_FAILED",
  "DOMAIN_VERIFIED_ELSEWHERE",
] as const;
export const SSO_TEST_SIGN_IN_ERRORS = [
  "PROVIDER_NOT_CONFIGURED",
  "PROVIDER_UNAVAILABLE",
  "INVALID_CALLBACK_URL",
] as const;
export const SSO_TEST_RESULT_ERRORS = ["SSO_TEST_NOT_FOUND"] as const;

/** Enterprise single sign-on: connections per organization, verified domains, sign-in (docs/sso.md). */
export const ssoEndpoints = {
  registerSSOProvider: endpoint({
    method: "POST",
    path: "/sso/register",
    summary: "Register an OpenID Connect or SAML connection for an organization (owners and admins)",
    body: sso.registerSSOProviderBody,
    reply: sso.ssoProviderModel,
    errors: [...PROVIDER_ERRORS, ...SSO_REGISTER_ERRORS, "NO_ACTIVE_ORGANIZATION"],
    audit: { action: "organization.sso_connection_created", organization: "organizationId" },
    policy: OWNER_CHANGE,
  }),
  listSSOProviders: endpoint({
    method: "GET",
    path: "/sso/providers",
    summary: "The connections of the organizations the caller owns or administers",
    reply: z.object({ providers: z.array(sso.ssoProviderModel) }),
    policy: OWNER,
  }),
  getSSOProvider: endpoint({
    method: "GET",
    path: "/sso/get-provider",
    summary: "One connection of an organization the caller owns or administers",
    query: sso.ssoProviderIdQuery,
    reply: sso.ssoProviderModel,
    errors: PROVIDER_ERRORS,
    policy: OWNER,
  }),
  updateSSOProvider: endpoint({
    method: "POST",
    path: "/sso/update-provider",
    summary: "Change a connection (its issuer, client, scopes, mapping, domains or roles)",
    body: sso.updateSSOProviderBody,
    reply: sso.ssoProviderModel,
    errors: [...PROVIDER_ERRORS, ...SSO_UPDATE_ERRORS, "SSO_OWNER_REQUIRED", "SESSION_NOT_FRESH"],
    audit: { action: "organization.sso_connection_updated" },
    policy: OWNER_CHANGE,
  }),
  confirmSSOProviderChange: endpoint({
    method: "POST",
    path: "/sso/confirm-provider-change",
    summary: "Apply a connection's staged change of who asserts identity (owners, recent sign-in)",
    body: sso.ssoProviderIdBody,
    reply: sso.ssoProviderModel,
    errors: [...PROVIDER_ERRORS, "SSO_OWNER_REQUIRED", "SESSION_NOT_FRESH", "NO_PENDING_CONNECTION_CHANGE"],
    audit: { action: "organization.sso_connection_updated" },
    policy: OWNER_CHANGE,
  }),
  cancelSSOProviderChange: endpoint({
    method: "POST",
    path: "/sso/cancel-provider-change",
    summary: "Drop a connection's staged change of who asserts identity (owners)",
    body: sso.ssoProviderIdBody,
    reply: sso.ssoProviderModel,
    errors: [...PROVIDER_ERRORS, "SSO_OWNER_REQUIRED", "NO_PENDING_CONNECTION_CHANGE"],
    audit: { action: "organization.sso_connection_updated" },
    policy: OWNER_CHANGE,
  }),
  deleteSSOProvider: endpoint({
    method: "POST",
    path: "/sso/delete-provider",
    summary: "Remove a connection and its domains",
    body: sso.ssoProviderIdBody,
    reply: successReply,
    errors: [...PROVIDER_ERRORS, "SSO_OWNER_REQUIRED", "SESSION_NOT_FRESH"],
    audit: { action: "organization.sso_connection_deleted" },
    policy: OWNER_CHANGE,
  }),
  requestDomainVerification: endpoint({
    method: "POST",
    path: "/sso/request-domain-verification",
    summary: "The DNS TXT record that proves a connection's domains",
    body: sso.ssoProviderIdBody,
    reply: sso.domainVerificationReply,
    errors: [...PROVIDER_ERRORS, ...SSO_REQUEST_DOMAIN_ERRORS],
    policy: OWNER_CHANGE,
  }),
  verifyDomain: endpoint({
    method: "POST",
    path: "/sso/verify-domain",
    summary: "Look the TXT record up and mark the connection's domains verified",
    body: sso.ssoProviderIdBody,
    reply: sso.verifyDomainReply,
    errors: [...PROVIDER_ERRORS, ...SSO_VERIFY_DOMAIN_ERRORS],
    audit: { action: "organization.sso_domain_verified" },
    policy: OWNER_CHANGE,
  }),
  testSSOConnection: endpoint({
    method: "POST",
    path: "/sso/test-connection",
    summary: "Check a connection's configuration: the OIDC discovery document loads, the SAML settings parse",
    body: sso.ssoProviderIdBody,
    reply: sso.testConnectionReply,
    errors: PROVIDER_ERRORS,
    policy: OWNER,
  }),
  startSSOTestSignIn: endpoint({
    method: "POST",
    path: "/sso/test-sign-in",
    summary: "Start a test sign-in through a connection: shows what the provider sends, signs nobody in",
    body: sso.ssoTestSignInBody,
    reply: redirectReply,
    errors: [...PROVIDER_ERRORS, ...SSO_TEST_SIGN_IN_ERRORS],
    audit: { action: "organization.sso_connection_tested" },
    policy: OWNER,
  }),
  getSSOTestResult: endpoint({
    method: "GET",
    path: "/sso/test-sign-in/result",
    summary: "A test sign-in's result (claims, mapped email and role, refusal), to the owner who started it",
    query: sso.ssoTestIdQuery,
    reply: sso.ssoTestResultReply,
    errors: SSO_TEST_RESULT_ERRORS,
    policy: OWNER,
  }),
  signInSSO: endpoint({
    method: "POST",
    path: "/sign-in/sso",
    summary: "Start a single sign-on by work email, domain, organization slug or provider id",
    body: sso.signInSSOBody,
    reply: redirectReply,
    errors: ["SSO_PROVIDER_NOT_FOUND", "SSO_IDENTIFIER_REQUIRED", "DOMAIN_NOT_VERIFIED"],
    policy: { origin: "login", rateLimit: "credential", feature: "sso" },
  }),
  callbackSSO: endpoint({
    method: "GET",
    path: "/sso/callback/:providerId",
    summary: "The identity provider's redirect back: signs in, joins the organization, redirects to the app",
    reply: null,
    answers: "redirect",
    audit: { action: "user.sign_in", details: { method: "sso" }, whenChanged: true },
    policy: { feature: "sso" },
  }),
  spMetadata: endpoint({
    method: "GET",
    path: "/sso/saml2/sp/metadata",
    summary: "A SAML connection's service provider metadata (XML, or JSON with format=json)",
    query: sso.spMetadataQuery,
    reply: null,
    answers: "file",
    errors: ["SSO_PROVIDER_NOT_FOUND"],
    policy: { feature: "sso" },
  }),
  callbackSSOSAML: endpoint({
    method: "POST",
    path: "/sso/saml2/callback/:providerId",
    summary: "The SAML Assertion Consumer Service (HTTP-POST): signs in, joins the organization, redirects to the app",
    body: sso.samlResponseBody,
    reply: null,
    answers: "redirect",
    audit: { action: "user.sign_in", details: { method: "sso" }, whenChanged: true },
    policy: { form: true, origin: "provider", feature: "sso" },
  }),
  acsEndpoint: endpoint({
    method: "POST",
    path: "/sso/saml2/sp/acs/:providerId",
    summary: "The same Assertion Consumer Service at better-auth's second path",
    body: sso.samlResponseBody,
    reply: null,
    answers: "redirect",
    audit: { action: "user.sign_in", details: { method: "sso" }, whenChanged: true },
    policy: { form: true, origin: "provider", feature: "sso" },
  }),
};

import type { SSOTestResult } from "../../contract/sso.js";
import { type AuthContext, apiURL } from "../context.js";
import { newId } from "../crypto/random.js";
import { AuthError } from "../errors.js";
import type { Claims } from "../providers/types.js";
import { type Caller, isSetupLinkCaller } from "../services/caller.js";
import { emailDomain } from "../services/email-domain.js";
import type { CallbackOutcome } from "../services/social/callback.js";
import { startAuthorization } from "../services/social/start.js";
import type { OAuthStateData, SSOTestRequester } from "../services/social/state.js";
import { findVerification, insertVerification } from "../store/verifications.js";
import { findManagedProvider, redirectURIOf } from "./connections.service.js";
import { ssoClient } from "./oidc-client.service.js";
import type { SsoProviderRecord } from "./providers.store.js";
import { startSAMLFlow } from "./saml-start.service.js";

/** A test's result is kept as long as a sign-in's state: long enough to read, short enough to forget. */
const RESULT_LIFETIME_SECONDS = 600;

const identifierOf = (testId: string) => `sso-test:${testId}`;

function requesterOf(caller: Caller): SSOTestRequester {
  return isSetupLinkCaller(caller) ? { type: "setup-link", id: caller.id } : { type: "user", id: caller.user.id };
}

/**
 * Where the browser lands once the provider answered: the starter's page with `ssoTestId` (its
 * origin checked as every callbackURL is, http/origin-check.ts), else the result route itself.
 */
function landingURL(ctx: AuthContext, requester: SSOTestRequester, testId: string, callbackURL?: string): string {
  if (!callbackURL) return resultURL(ctx, requester, testId);
  const [path = "", hash] = callbackURL.split("#", 2);
  const joined = `${path}${path.includes("?") ? "&" : "?"}ssoTestId=${encodeURIComponent(testId)}`;
  return hash === undefined ? joined : `${joined}#${hash}`;
}

function resultURL(ctx: AuthContext, requester: SSOTestRequester, testId: string): string {
  const path = requester.type === "setup-link" ? "/setup/sso/test-sign-in/result" : "/sso/test-sign-in/result";
  return `${apiURL(ctx, path)}?testId=${encodeURIComponent(testId)}`;
}

/**
 * POST /sso/test-sign-in and /setup/sso/test-sign-in: a sign-in through the connection whose state
 * says it is a test, so the callback records what came back instead of signing anyone in. No verified
 * domain is needed: testing before going live is the point, and the result says whether it is.
 */
export async function startSSOTestSignIn(
  ctx: AuthContext,
  caller: Caller,
  providerId: string,
  callbackURL?: string,
): Promise<{ url: string; state: string; saml?: true }> {
  const provider = await findManagedProvider(ctx, caller, providerId);
  const requester = requesterOf(caller);
  const testId = newId();
  const location = landingURL(ctx, requester, testId, callbackURL);
  const test = { id: testId, requester, location };
  if (provider.type === "saml")
    return startSAMLFlow(ctx, provider, { callbackURL: location, errorURL: location, test });
  const client = ssoClient(ctx, provider, redirectURIOf(ctx, provider.providerId));
  if (!client) throw new AuthError("PROVIDER_NOT_CONFIGURED");
  return startAuthorization(ctx, client, {
    callbackURL: location,
    errorCallbackURL: location,
    test,
  });
}

/**
 * The callback's end for a test: the answer recorded for its starter, and the browser sent to the
 * result. Nothing else is written: no user, account, membership or session. The request's audit
 * entry becomes the test's, by the test's starter.
 */
export async function recordSSOTestResult(
  ctx: AuthContext,
  provider: SsoProviderRecord,
  test: NonNullable<OAuthStateData["test"]>,
  answer: {
    claims: Claims | null;
    email: string | null;
    name: string | null;
    role: string | null;
    refusal: string | null;
  },
): Promise<CallbackOutcome> {
  const now = ctx.now();
  const domain = answer.email ? emailDomain(answer.email) : null;
  const result: SSOTestResult = {
    testId: test.id,
    providerId: provider.providerId,
    claims: answer.claims,
    email: answer.email,
    name: answer.name,
    role: answer.role,
    domainVerified: provider.domains.some((d) => d.verified && d.domain === domain),
    refusal: answer.refusal,
    createdAt: now.toISOString(),
  };
  await insertVerification(ctx.db, {
    id: newId(),
    identifier: identifierOf(test.id),
    value: JSON.stringify({ requester: test.requester, result }),
    expiresAt: new Date(now.getTime() + RESULT_LIFETIME_SECONDS * 1000),
    now,
  });
  const scope = ctx.audit;
  if (scope) {
    scope.action = "organization.sso_connection_tested";
    scope.whenChanged = false;
    scope.actorType = test.requester.type;
    scope.actorId = test.requester.id;
    scope.organizationId = provider.organizationId;
    scope.details = { providerId: provider.providerId, refusal: answer.refusal };
  }
  // A state stored before tests carried their landing goes to the result route.
  return { kind: "redirect", location: test.location ?? resultURL(ctx, test.requester, test.id) };
}

/** GET .../test-sign-in/result: only to whoever started the test (the same owner, the same link). */
export async function readSSOTestResult(ctx: AuthContext, caller: Caller, testId: string): Promise<SSOTestResult> {
  const row = await findVerification(ctx.db, identifierOf(testId));
  if (!row || row.expiresAt.getTime() <= ctx.now().getTime()) throw new AuthError("SSO_TEST_NOT_FOUND");
  const stored = JSON.parse(row.value) as { requester: SSOTestRequester; result: SSOTestResult };
  const asker = requesterOf(caller);
  // Someone else's test reads as no test at all.
  if (stored.requester.type !== asker.type || stored.requester.id !== asker.id)
    throw new AuthError("SSO_TEST_NOT_FOUND");
  return stored.result;
}

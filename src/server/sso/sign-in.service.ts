import type { Session, SessionWithUser, User } from "../../contract/models.js";
import type { SignInSSOBody } from "../../contract/sso.js";
import { auditDirectoryEvent } from "../audit/trail.service.js";
import type { AuthContext } from "../context.js";
import { newId } from "../crypto/random.js";
import { AuthError } from "../errors.js";
import type { Claims, ProviderTokens } from "../providers/types.js";
import { isOwnerRole, parseRoles } from "../services/access-control.js";
import { retireAnonymousUser } from "../services/anonymous.js";
import { emailDomain } from "../services/email-domain.js";
import { createSocialAccount, createUserRow, updateMemberRoleData } from "../services/hooked-writes.js";
import { insertMemberUnderLimit } from "../services/members.js";
import { createSession, TwoFactorRequired } from "../services/sessions.js";
import {
  type CallbackInput,
  type CallbackOutcome,
  describe,
  openCallback,
  redeemCode,
} from "../services/social/callback.js";
import { startAuthorization } from "../services/social/start.js";
import type { OAuthStateData } from "../services/social/state.js";
import { mergeScopes, sealTokens } from "../services/social/tokens.js";
import { type DB, isUniqueViolation } from "../store/database.js";
import { countMembersWithRole } from "../store/members.js";
import { findOrganization, lockOrganization } from "../store/organizations.js";
import { findAccountWithUser, updateAccountTokens } from "../store/social-accounts.js";
import { findUserByEmail } from "../store/users.js";
import { isSafeRedirectTarget } from "../trusted-origins.js";
import { redirectURIOf } from "./connections.service.js";
import { needsProof } from "./domains.service.js";
import { type ClaimMapping, SSO_STATE_PREFIX, ssoClient } from "./oidc-client.service.js";
import {
  findConnectionMembership,
  findOrganizationSsoProvider,
  findProviderByVerifiedDomain,
  findSsoProvider,
  type SsoProviderRecord,
} from "./providers.store.js";
import { readSamlSettings } from "./saml.service.js";
import { startSAMLFlow } from "./saml-start.service.js";
import { recordSSOTestResult } from "./test-sign-in.service.js";

/**
 * The connection a sign-in names: by provider id, by organization slug (its first connection), or
 * by a work email's (or a bare) domain, which only a verified domain routes.
 */
async function resolveConnection(ctx: AuthContext, body: SignInSSOBody): Promise<SsoProviderRecord> {
  let provider: SsoProviderRecord | null;
  if (body.providerId) provider = await findSsoProvider(ctx.db, body.providerId);
  else if (body.organizationSlug) {
    const organization = await findOrganization(ctx.db, { slug: body.organizationSlug });
    provider = organization ? await findOrganizationSsoProvider(ctx.db, organization.id) : null;
  } else if (body.domain || body.email?.includes("@")) {
    const domain = body.domain ?? emailDomain(body.email as string);
    provider = await findProviderByVerifiedDomain(ctx.db, domain);
  } else throw new AuthError("SSO_IDENTIFIER_REQUIRED");
  if (!provider) throw new AuthError("SSO_PROVIDER_NOT_FOUND");
  return provider;
}

/** POST /sign-in/sso: the identity provider's authorization URL, with state, PKCE and nonce stored. */
export async function startSSOSignIn(
  ctx: AuthContext,
  body: SignInSSOBody,
): Promise<{ url: string; state: string; saml?: true }> {
  const provider = await resolveConnection(ctx, body);
  if (body.providerType && body.providerType !== provider.type) throw new AuthError("SSO_PROVIDER_NOT_FOUND");
  // Until a domain is proven, the connection could speak for addresses its organization does not own.
  if (!provider.domains.some((d) => d.verified)) throw new AuthError("DOMAIN_NOT_VERIFIED");
  if (provider.type === "saml")
    return startSAMLFlow(ctx, provider, {
      callbackURL: body.callbackURL || ctx.baseURL,
      ...(body.errorCallbackURL ? { errorURL: body.errorCallbackURL } : {}),
      ...(body.newUserCallbackURL ? { newUserURL: body.newUserCallbackURL } : {}),
    });
  const client = ssoClient(ctx, provider, redirectURIOf(ctx, provider.providerId));
  if (!client) throw new AuthError("PROVIDER_NOT_CONFIGURED");
  return startAuthorization(ctx, client, {
    callbackURL: body.callbackURL,
    errorCallbackURL: body.errorCallbackURL,
    newUserCallbackURL: body.newUserCallbackURL,
    scopes: body.scopes,
    loginHint: body.loginHint ?? (body.email?.includes("@") ? body.email : undefined),
  });
}

/**
 * The role a sign-in joins with (or, with a mapping, is given again): the first mapped value the
 * claim holds, else the default. Never the owner role: a connection's settings refuse it
 * (connections.service.ts), and one saved before they did gives the rest of its roles, else "member".
 */
export function roleFromClaims(ctx: AuthContext, provider: SsoProviderRecord, claims: Claims): string {
  return withoutOwner(ctx, mappedRole(provider, claims));
}

function mappedRole(provider: SsoProviderRecord, claims: Claims): string {
  if (!provider.roleMapping) return provider.defaultRole;
  const { claim, values } = JSON.parse(provider.roleMapping) as { claim: string; values: Record<string, string> };
  const raw = claims[claim];
  const held = new Set((Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === "string"));
  for (const [value, role] of Object.entries(values)) if (held.has(value)) return role;
  return provider.defaultRole;
}

function withoutOwner(ctx: AuthContext, role: string): string {
  if (!isOwnerRole(ctx, role)) return role;
  const rest = parseRoles(role).filter((name) => name !== ctx.options.organization.creatorRole);
  return rest.length > 0 ? rest.join(",") : "member";
}

/**
 * Whether the provider's answer says it did not verify the address: `email_verified` (or the claim the
 * connection maps instead) false. Absent says nothing: many IdPs never send it, and the verified
 * domain speaks for the address then.
 */
function providerDeniesEmail(provider: SsoProviderRecord, claims: Claims): boolean {
  const mapping: ClaimMapping =
    provider.type === "saml" ? readSamlSettings(provider).mapping : (JSON.parse(provider.mapping) as ClaimMapping);
  const raw = claims[mapping.emailVerified ?? "email_verified"];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value === false || value === "false";
}

/** Why an SSO sign-in was refused after the provider answered: the callback's `error=` code. */
class SSORefusal extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

interface SSOUser {
  user: User;
  isNewUser: boolean;
}

type SignedIn = { provisioned: SSOUser; session: Session };
type OwesSecondFactor = { provisioned: SSOUser; twoFactor: TwoFactorRequired };

/**
 * Inside the sign-in's transaction: the user the provider account is linked to, else the user with
 * that email (linked now: the domain is verified, so the organization speaks for the address), else a
 * new user; then membership of the connection's organization (joining with the mapped role), or, for
 * a member the connection brought in, the role the provider's answer maps to now.
 */
async function provisionUser(
  ctx: AuthContext,
  trx: DB,
  provider: SsoProviderRecord,
  input: {
    profileId: string;
    email: string;
    name: string;
    image: string | null;
    tokens: ProviderTokens;
    role: string;
    emailDenied: boolean;
  },
): Promise<SSOUser> {
  const now = ctx.now();
  const sealed = sealTokens(ctx, input.tokens);
  let result: SSOUser;
  // A connection whose issuer changed since its domain was proven may make new users, but speaks
  // for nobody who exists until the domain is proven again for it.
  const domain = provider.domains.find((d) => d.domain === emailDomain(input.email));
  const provenForIssuer = domain !== undefined && !needsProof(provider, domain);
  const linked = await findAccountWithUser(trx, provider.providerId, input.profileId);
  if (linked && !provenForIssuer) throw new SSORefusal("domain_not_proven_for_issuer");
  if (linked) {
    const scope = mergeScopes(linked.account.scope, input.tokens.scopes).join(",") || null;
    await updateAccountTokens(trx, linked.account.id, { ...sealed, scope }, now);
    result = { user: linked.user, isNewUser: false };
  } else {
    const existing = await findUserByEmail(trx, input.email);
    // An account nobody proved the address of may be a squatter's: it is not handed over here; nor
    // is any account to an answer whose provider says it did not verify the address.
    if (existing && (!existing.emailVerified || input.emailDenied)) throw new SSORefusal("account_not_linked");
    if (existing && !provenForIssuer) throw new SSORefusal("domain_not_proven_for_issuer");
    const user =
      existing ??
      (await createUserRow(ctx, trx, {
        id: newId(),
        name: input.name,
        email: input.email,
        emailVerified: !input.emailDenied,
        image: input.image,
        role: ctx.options.admin.defaultRole,
        now,
      }));
    if (!existing) await ctx.webhooks.enqueue(trx, "user.created", user);
    await auditDirectoryEvent(ctx, trx, existing ? "directory.account_linked" : "directory.user_created", {
      providerId: provider.providerId,
      organizationId: provider.organizationId,
      subjectId: user.id,
      details: { email: user.email },
    });
    await createSocialAccount(ctx, trx, {
      id: newId(),
      userId: user.id,
      providerId: provider.providerId,
      accountId: input.profileId,
      tokens: sealed,
      now,
    });
    result = { user, isNewUser: !existing };
  }
  if (!(await lockOrganization(trx, ctx.dialect, provider.organizationId))) {
    throw new SSORefusal("organization_not_found");
  }
  const membership = await findConnectionMembership(trx, {
    organizationId: provider.organizationId,
    userId: result.user.id,
    providerId: provider.providerId,
  });
  if (!membership) {
    await insertMemberUnderLimit(ctx, trx, {
      organizationId: provider.organizationId,
      userId: result.user.id,
      role: input.role,
      teamIds: [],
    });
    await auditDirectoryEvent(ctx, trx, "directory.member_added", {
      providerId: provider.providerId,
      organizationId: provider.organizationId,
      subjectId: result.user.id,
      details: { role: input.role },
    });
  } else if (provider.roleMapping && broughtInByConnection(membership)) {
    await applyMappedRole(ctx, trx, provider, { ...membership, userId: result.user.id }, input.role);
  }
  return result;
}

/**
 * Whether the connection brought the member in (just in time): the membership was made no earlier
 * than the user's link to the connection, and not from an invitation. A member who was in the
 * organization before their account was linked keeps the role the organization gave them.
 */
function broughtInByConnection(membership: { createdAt: Date; invitedBy: string | null; linkedAt: Date | null }) {
  return (
    membership.invitedBy === null &&
    membership.linkedAt !== null &&
    membership.createdAt.getTime() >= membership.linkedAt.getTime()
  );
}

/**
 * The identity provider is the source of truth for its members' roles when the connection maps them:
 * the role the answer maps to replaces the one held (an owner's change by hand included), except that
 * the organization's only owner is never demoted. Runs under the organization lock.
 */
async function applyMappedRole(
  ctx: AuthContext,
  trx: DB,
  provider: SsoProviderRecord,
  member: { id: string; role: string; userId: string },
  role: string,
) {
  const { organizationId } = provider;
  if (sameRoles(member.role, role)) return;
  const { creatorRole } = ctx.options.organization;
  if (isOwnerRole(ctx, member.role) && !isOwnerRole(ctx, role)) {
    if ((await countMembersWithRole(trx, organizationId, creatorRole)) <= 1) {
      ctx.logger.warn("sso role mapping left the only owner an owner", { memberId: member.id, mappedRole: role });
      return;
    }
  }
  const updated = await updateMemberRoleData(ctx, trx, member.id, role);
  if (!updated) return;
  await ctx.webhooks.enqueue(trx, "member.updated", updated);
  await auditDirectoryEvent(ctx, trx, "directory.member_role_updated", {
    providerId: provider.providerId,
    organizationId,
    subjectId: member.userId,
    details: { from: member.role, to: role },
  });
}

function sameRoles(a: string, b: string): boolean {
  const set = (roles: string) => [...new Set(parseRoles(roles))].sort().join(",");
  return set(a) === set(b);
}

/**
 * GET /sso/callback/:providerId. Every refusal is a redirect to the flow's error URL with
 * `error=<code>`; only a bug escapes (the route turns it into error=internal_server_error).
 */
export async function completeSSOCallback(ctx: AuthContext, input: CallbackInput): Promise<CallbackOutcome> {
  const opened = await openCallback(ctx, input);
  if ("outcome" in opened) return (await recordProviderRefusal(ctx, input, opened.refused)) ?? opened.outcome;
  const { state, fail } = opened;
  // The state names the connection it was started for: another connection's callback cannot finish it.
  if (state.providerId !== `${SSO_STATE_PREFIX}${input.providerId}`) return fail("oauth_provider_not_found");
  const provider = await findSsoProvider(ctx.db, input.providerId);
  const client = provider ? ssoClient(ctx, provider, redirectURIOf(ctx, provider.providerId)) : null;
  if (!provider || !client) return fail("oauth_provider_not_found");
  if (!input.params.code) return fail("no_code");
  if (state.test) return completeSSOTest(ctx, provider, client, input, state, state.test);
  if (!state.callbackURL || !isSafeRedirectTarget(state.callbackURL, ctx.isTrustedOrigin)) {
    return fail("no_callback_url");
  }

  const answer = await readAnswer(ctx, provider, client, input, state);
  if ("failure" in answer) return fail(answer.failure);
  const { claims, profile, tokens } = answer;
  return finishSSOSignIn(ctx, provider, { profile, claims, tokens }, state, input, fail);
}

/** A test sign-in the provider refused: recorded as its result, the provider's code its refusal. */
async function recordProviderRefusal(
  ctx: AuthContext,
  input: CallbackInput,
  refused: { state: OAuthStateData; code: string } | undefined,
): Promise<CallbackOutcome | null> {
  const test = refused?.state.test;
  if (!refused || !test || refused.state.providerId !== `${SSO_STATE_PREFIX}${input.providerId}`) return null;
  const provider = await findSsoProvider(ctx.db, input.providerId);
  if (!provider) return null;
  const nothing = { claims: null, email: null, name: null, role: null };
  return recordSSOTestResult(ctx, provider, test, { ...nothing, refusal: refused.code });
}

type SSOClient = NonNullable<ReturnType<typeof ssoClient>>;

/**
 * The provider's answer to a callback: the code redeemed, the claims read, the email mapped and in a
 * verified domain. A refusal is its `error=` code, with what was read before it (a test shows it).
 */
async function readAnswer(
  ctx: AuthContext,
  provider: SsoProviderRecord,
  client: SSOClient,
  input: CallbackInput,
  state: OAuthStateData,
): Promise<
  | {
      claims: Claims;
      profile: { id: string; email: string; name: string; image: string | null };
      tokens: ProviderTokens;
    }
  | { failure: string; claims?: Claims; email?: string; name?: string }
> {
  const redeemed = await redeemCode(ctx, client, input.params, state);
  if ("failure" in redeemed) return { failure: redeemed.failure };
  const { tokens: exchanged, idTokenClaims } = redeemed.exchange;
  let claims: Claims | null;
  try {
    claims = exchanged.accessToken ? await client.fetchUserInfo(exchanged.accessToken, idTokenClaims) : idTokenClaims;
  } catch (error) {
    ctx.logger.warn("sso user info failed", { provider: client.id, error: describe(error) });
    claims = null;
  }
  const profile = claims ? client.mapProfile(claims) : null;
  if (!claims || !profile) return { failure: "unable_to_get_user_info", ...(claims ? { claims } : {}) };
  const email = profile.email?.trim().toLowerCase();
  if (!email?.includes("@")) return { failure: "email_not_found", claims, name: profile.name };
  // The organization speaks only for the domains it proved.
  const domain = emailDomain(email);
  if (!provider.domains.some((d) => d.verified && d.domain === domain)) {
    return { failure: "email_domain_not_verified", claims, email, name: profile.name };
  }
  const tokens = { ...exchanged, scopes: exchanged.scopes.length ? exchanged.scopes : state.scopes };
  return { claims, profile: { ...profile, email }, tokens };
}

/**
 * A test sign-in's callback: the answer read as a sign-in reads it, then recorded with the role the
 * mapping gives and the refusal a sign-in would meet; nobody is signed in, linked or added.
 */
async function completeSSOTest(
  ctx: AuthContext,
  provider: SsoProviderRecord,
  client: SSOClient,
  input: CallbackInput,
  state: OAuthStateData,
  test: NonNullable<OAuthStateData["test"]>,
): Promise<CallbackOutcome> {
  const answer = await readAnswer(ctx, provider, client, input, state);
  if ("failure" in answer) {
    const claims = answer.claims ?? null;
    return recordSSOTestResult(ctx, provider, test, {
      claims,
      email: answer.email ?? null,
      name: answer.name ?? null,
      role: claims ? roleFromClaims(ctx, provider, claims) : null,
      refusal: answer.failure,
    });
  }
  const { claims, profile } = answer;
  return recordSSOTestResult(ctx, provider, test, {
    claims,
    email: profile.email,
    name: profile.name,
    role: roleFromClaims(ctx, provider, claims),
    refusal: null,
  });
}

/**
 * The end of every SSO sign-in, OIDC or SAML, once the provider's answer is verified and its email is
 * in a verified domain: the user found, linked or created with the organization's membership (the
 * mapped role), then the session. `fail` makes the flow's `error=` redirect.
 */
export async function finishSSOSignIn(
  ctx: AuthContext,
  provider: SsoProviderRecord,
  answer: {
    profile: { id: string; email: string; name: string; image: string | null };
    claims: Claims;
    tokens: ProviderTokens;
  },
  flow: { callbackURL: string; newUserURL?: string },
  input: Pick<CallbackInput, "currentSession" | "meta">,
  fail: (code: string) => CallbackOutcome,
): Promise<CallbackOutcome> {
  const { profile, claims, tokens } = answer;
  const role = roleFromClaims(ctx, provider, claims);
  const emailDenied = providerDeniesEmail(provider, claims);
  const signIn = () =>
    ctx.db.transaction().execute(async (trx): Promise<SignedIn | OwesSecondFactor> => {
      const provisioned = await provisionUser(ctx, trx, provider, {
        profileId: profile.id,
        email: profile.email,
        name: profile.name,
        image: profile.image,
        tokens,
        role,
        emailDenied,
      });
      try {
        // The session commits with the link, membership and role it was made on, or none of them do.
        const session = await createSession(ctx, trx, provisioned.user.id, input.meta, {
          rememberMe: true,
          knownUser: provisioned.user,
          proof: "provider",
          signInMethod: "sso",
          signInProviderId: provider.providerId,
          activeOrganizationId: provider.organizationId,
        });
        return { provisioned, session };
      } catch (error) {
        // The second factor is owed: the membership and role stand, the session waits for the code.
        if (error instanceof TwoFactorRequired) return { provisioned, twoFactor: error };
        throw error;
      }
    });

  let outcome: SignedIn | OwesSecondFactor;
  try {
    outcome = await signIn().catch((error) => {
      // Two first sign-ins of one person at once: the unique keys let one create the user and the
      // link; the other, tried again, finds them.
      if (isUniqueViolation(error)) return signIn();
      throw error;
    });
  } catch (error) {
    if (error instanceof SSORefusal) return fail(error.code);
    if (error instanceof AuthError) return fail(error.code === "BANNED_USER" ? "banned" : error.code.toLowerCase());
    if (isUniqueViolation(error)) return fail("unable_to_create_user");
    throw error;
  }

  if ("twoFactor" in outcome) {
    const location = new URL(flow.callbackURL, ctx.baseURL);
    location.searchParams.set("twoFactorRedirect", "true");
    return {
      kind: "two-factor",
      location: location.toString(),
      userId: outcome.twoFactor.userId,
      signInMethod: outcome.twoFactor.signInMethod,
      signInProviderId: outcome.twoFactor.signInProviderId,
    };
  }
  const { provisioned, session } = outcome;
  const data: SessionWithUser = { session, user: provisioned.user };
  await retireAnonymousUser(ctx, await input.currentSession(), data);
  const location = provisioned.isNewUser && flow.newUserURL ? flow.newUserURL : flow.callbackURL;
  return { kind: "signed-in", location, data };
}

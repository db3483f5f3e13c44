import type { SessionWithUser, User } from "../../../contract/models.js";
import type { SignInSSOBody } from "../../../contract/sso.js";
import type { AuthContext } from "../../context.js";
import { newId } from "../../crypto/random.js";
import { AuthError } from "../../errors.js";
import type { Claims, ProviderTokens } from "../../providers/types.js";
import { isUniqueViolation } from "../../store/database.js";
import { findMember } from "../../store/members.js";
import { findOrganization, lockOrganization } from "../../store/organizations.js";
import { findAccountWithUser, updateAccountTokens } from "../../store/social-accounts.js";
import {
  findOrganizationSsoProvider,
  findProviderByVerifiedDomain,
  findSsoProvider,
  type SsoProviderRecord,
} from "../../store/sso-providers.js";
import { findUserByEmail } from "../../store/users.js";
import { isSafeRedirectTarget } from "../../trusted-origins.js";
import { retireAnonymousUser } from "../anonymous.js";
import { createSocialAccount, createUserRow } from "../hooked-writes.js";
import { insertMemberUnderLimit } from "../members.js";
import { createSession, TwoFactorRequired } from "../sessions.js";
import { type CallbackInput, type CallbackOutcome, describe, openCallback, redeemCode } from "../social/callback.js";
import { startAuthorization } from "../social/start.js";
import { createOAuthState } from "../social/state.js";
import { mergeScopes, sealTokens } from "../social/tokens.js";
import { redirectURIOf } from "./connections.js";
import { SSO_STATE_PREFIX, ssoClient } from "./oidc-client.js";
import { newSamlRequestId, samlAuthorizeURL } from "./saml.js";

function domainOf(email: string): string {
  return email.slice(email.lastIndexOf("@") + 1).toLowerCase();
}

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
    const domain = body.domain ?? domainOf(body.email as string);
    provider = await findProviderByVerifiedDomain(ctx.db, domain);
  } else throw new AuthError("SSO_IDENTIFIER_REQUIRED");
  if (!provider) throw new AuthError("SSO_PROVIDER_NOT_FOUND");
  return provider;
}

/** POST /sign-in/sso: the identity provider's authorization URL, with state, PKCE and nonce stored. */
export async function startSSOSignIn(ctx: AuthContext, body: SignInSSOBody): Promise<{ url: string; state: string }> {
  const provider = await resolveConnection(ctx, body);
  if (body.providerType && body.providerType !== provider.type) throw new AuthError("SSO_PROVIDER_NOT_FOUND");
  // Until a domain is proven, the connection could speak for addresses its organization does not own.
  if (!provider.domains.some((d) => d.verified)) throw new AuthError("DOMAIN_NOT_VERIFIED");
  if (provider.type === "saml") return startSAMLSignIn(ctx, provider, body);
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
 * SAML: the state (sent as RelayState) keeps the AuthnRequest id the response must answer; the
 * browser goes to the IdP's SSO URL with the deflated request.
 */
async function startSAMLSignIn(ctx: AuthContext, provider: SsoProviderRecord, body: SignInSSOBody) {
  const request = { id: newSamlRequestId(), issuedAt: ctx.now().toISOString() };
  const { state } = await createOAuthState(
    ctx,
    {
      providerId: `${SSO_STATE_PREFIX}${provider.providerId}`,
      callbackURL: body.callbackURL || ctx.baseURL,
      ...(body.errorCallbackURL ? { errorURL: body.errorCallbackURL } : {}),
      ...(body.newUserCallbackURL ? { newUserURL: body.newUserCallbackURL } : {}),
      scopes: [],
      saml: request,
    },
    { openid: false },
  );
  return { url: await samlAuthorizeURL(ctx, provider, request, state), state };
}

/** The role a first sign-in joins with: the first mapped value the claim holds, else the default. */
export function roleFromClaims(provider: SsoProviderRecord, claims: Claims): string {
  if (!provider.roleMapping) return provider.defaultRole;
  const { claim, values } = JSON.parse(provider.roleMapping) as { claim: string; values: Record<string, string> };
  const raw = claims[claim];
  const held = new Set((Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === "string"));
  for (const [value, role] of Object.entries(values)) if (held.has(value)) return role;
  return provider.defaultRole;
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

/**
 * In one transaction: the user the provider account is linked to, else the user with that email
 * (linked now: the domain is verified, so the organization speaks for the address), else a new user;
 * then, the first time, membership of the connection's organization with the mapped role.
 */
async function provisionUser(
  ctx: AuthContext,
  provider: SsoProviderRecord,
  input: { profileId: string; email: string; name: string; image: string | null; tokens: ProviderTokens; role: string },
): Promise<SSOUser> {
  const now = ctx.now();
  const sealed = sealTokens(ctx, input.tokens);
  return ctx.db.transaction().execute(async (trx) => {
    let result: SSOUser;
    const linked = await findAccountWithUser(trx, provider.providerId, input.profileId);
    if (linked) {
      const scope = mergeScopes(linked.account.scope, input.tokens.scopes).join(",") || null;
      await updateAccountTokens(trx, linked.account.id, { ...sealed, scope }, now);
      result = { user: linked.user, isNewUser: false };
    } else {
      const existing = await findUserByEmail(trx, input.email);
      // An account nobody proved the address of may be a squatter's: it is not handed over here.
      if (existing && !existing.emailVerified) throw new SSORefusal("account_not_linked");
      const user =
        existing ??
        (await createUserRow(ctx, trx, {
          id: newId(),
          name: input.name,
          email: input.email,
          emailVerified: true,
          image: input.image,
          role: ctx.options.admin.defaultRole,
          now,
        }));
      if (!existing) await ctx.webhooks.enqueue(trx, "user.created", user);
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
    if (!(await findMember(trx, provider.organizationId, result.user.id))) {
      await insertMemberUnderLimit(ctx, trx, {
        organizationId: provider.organizationId,
        userId: result.user.id,
        role: input.role,
        teamIds: [],
      });
    }
    return result;
  });
}

/**
 * GET /sso/callback/:providerId. Every refusal is a redirect to the flow's error URL with
 * `error=<code>`; only a bug escapes (the route turns it into error=internal_server_error).
 */
export async function completeSSOCallback(ctx: AuthContext, input: CallbackInput): Promise<CallbackOutcome> {
  const { params } = input;
  const opened = await openCallback(ctx, input);
  if ("outcome" in opened) return opened.outcome;
  const { state, fail } = opened;
  // The state names the connection it was started for: another connection's callback cannot finish it.
  if (state.providerId !== `${SSO_STATE_PREFIX}${input.providerId}`) return fail("oauth_provider_not_found");
  const provider = await findSsoProvider(ctx.db, input.providerId);
  const client = provider ? ssoClient(ctx, provider, redirectURIOf(ctx, provider.providerId)) : null;
  if (!provider || !client) return fail("oauth_provider_not_found");
  if (!params.code) return fail("no_code");
  if (!state.callbackURL || !isSafeRedirectTarget(state.callbackURL, ctx.isTrustedOrigin)) {
    return fail("no_callback_url");
  }

  const redeemed = await redeemCode(ctx, client, params, state);
  if ("failure" in redeemed) return fail(redeemed.failure);
  const { tokens: exchanged, idTokenClaims } = redeemed.exchange;
  let claims: Claims | null;
  try {
    claims = exchanged.accessToken ? await client.fetchUserInfo(exchanged.accessToken, idTokenClaims) : idTokenClaims;
  } catch (error) {
    ctx.logger.warn("sso user info failed", { provider: client.id, error: describe(error) });
    claims = null;
  }
  const profile = claims ? client.mapProfile(claims) : null;
  if (!claims || !profile) return fail("unable_to_get_user_info");
  const email = profile.email?.trim().toLowerCase();
  if (!email?.includes("@")) return fail("email_not_found");
  // The organization speaks only for the domains it proved.
  const domain = domainOf(email);
  if (!provider.domains.some((d) => d.verified && d.domain === domain)) return fail("email_domain_not_verified");

  const tokens = { ...exchanged, scopes: exchanged.scopes.length ? exchanged.scopes : state.scopes };
  return finishSSOSignIn(ctx, provider, { profile: { ...profile, email }, claims, tokens }, state, input, fail);
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
  let provisioned: SSOUser;
  try {
    provisioned = await provisionUser(ctx, provider, {
      profileId: profile.id,
      email: profile.email,
      name: profile.name,
      image: profile.image,
      tokens,
      role: roleFromClaims(provider, claims),
    });
  } catch (error) {
    if (error instanceof SSORefusal) return fail(error.code);
    if (error instanceof AuthError) return fail(error.code.toLowerCase());
    // Two first sign-ins of one person at once: the unique keys decide, the loser is told so.
    if (isUniqueViolation(error)) return fail("unable_to_create_user");
    throw error;
  }

  try {
    const session = await createSession(ctx, ctx.db, provisioned.user.id, input.meta, {
      rememberMe: true,
      knownUser: provisioned.user,
      proof: "provider",
      signInMethod: "sso",
      activeOrganizationId: provider.organizationId,
    });
    const data: SessionWithUser = { session, user: provisioned.user };
    await retireAnonymousUser(ctx, await input.currentSession(), data);
    const location = provisioned.isNewUser && flow.newUserURL ? flow.newUserURL : flow.callbackURL;
    return { kind: "signed-in", location, data };
  } catch (error) {
    if (error instanceof TwoFactorRequired) {
      const location = new URL(flow.callbackURL, ctx.baseURL);
      location.searchParams.set("twoFactorRedirect", "true");
      return {
        kind: "two-factor",
        location: location.toString(),
        userId: error.userId,
        signInMethod: error.signInMethod,
      };
    }
    if (error instanceof AuthError) return fail(error.code === "BANNED_USER" ? "banned" : error.code.toLowerCase());
    throw error;
  }
}

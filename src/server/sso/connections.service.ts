import type { SessionWithUser } from "../../contract/models.js";
import type { RegisterSSOProviderBody, SSOProviderView, UpdateSSOProviderBody } from "../../contract/sso.js";
import { locales } from "../../i18n/index.js";
import { auditChange, auditedChange, noteAudit } from "../audit/trail.service.js";
import { type AuthContext, apiURL } from "../context.js";
import { newId } from "../crypto/random.js";
import { ssoConnectionChangeNotice } from "../email/templates.js";
import { AuthError, isAuthError } from "../errors.js";
import { isLoopbackHostname } from "../loopback.js";
import { isOwnerRole, normalizeRoles, roleAllows } from "../services/access-control.js";
import { type Caller, isSetupLinkCaller, setupLinkOrganization } from "../services/caller.js";
import { isSessionFresh } from "../services/sessions.js";
import { type DB, isUniqueViolation } from "../store/database.js";
import { findMember, listMemberEmailsWithRole } from "../store/members.js";
import { findOrganization, lockOrganization } from "../store/organizations.js";
import { discoveryEndpointOf, probeDiscovery, ssoSecretCipher } from "./oidc-client.service.js";
import {
  deleteSsoDomains,
  deleteSsoProviderRow,
  findSsoProvider,
  insertSsoDomains,
  insertSsoProvider,
  listOrganizationsSsoProviders,
  listUserMemberRoles,
  type SsoProviderRecord,
  setPendingChange,
  updateSsoProviderRow,
} from "./providers.store.js";
import {
  acsURLOf,
  certFingerprint,
  checkSamlConnection,
  readSamlSettings,
  type SamlSettings,
  samlSettingsFrom,
  spEntityIdOf,
  spMetadataURLOf,
} from "./saml.service.js";

const DEFAULT_SCOPES = ["openid", "email", "profile"];
/** Who may manage an organization's connections: roles granting organization:update (owner, admin). */
const MANAGE = { organization: ["update"] } as const;

/** What the identity provider's admin registers: the OIDC redirect URI, or the SAML ACS URL. */
export function registeredURIOf(ctx: AuthContext, p: SsoProviderRecord): string {
  return p.type === "saml" ? acsURLOf(ctx, p.providerId) : redirectURIOf(ctx, p.providerId);
}

export function redirectURIOf(ctx: AuthContext, providerId: string): string {
  return apiURL(ctx, `/sso/callback/${encodeURIComponent(providerId)}`);
}

/**
 * https, or plain http on loopback when private issuers are allowed (tests run a real provider
 * there). Whether the host is public is checked where it is dialled (providers/public-fetch.ts).
 */
function checkIssuer(ctx: AuthContext, issuer: string): void {
  const url = new URL(issuer);
  const plainAllowed = isLoopbackHostname(url.hostname) && ctx.options.sso.allowPrivateIssuers;
  if (url.protocol !== "https:" && !(url.protocol === "http:" && plainAllowed)) throw new AuthError("INVALID_ISSUER");
  if (url.search || url.hash || url.username || url.password) throw new AuthError("INVALID_ISSUER");
}

async function requireManager(ctx: AuthContext, organizationId: string, userId: string): Promise<void> {
  const member = await findMember(ctx.db, organizationId, userId);
  if (!member || !roleAllows(ctx, member.role, MANAGE)) throw new AuthError("SSO_INSUFFICIENT_ACCESS");
}

/**
 * A connection the caller manages: a member's (owners and admins pass), or a setup link's holder,
 * whose route has checked its scope and who reaches its own organization's connections only.
 * Another organization's connection answers as if it did not exist (no cross-tenant ids); a member
 * of its own organization without the right role gets 403.
 */
export async function findManagedProvider(ctx: AuthContext, caller: Caller, providerId: string) {
  const provider = await findSsoProvider(ctx.db, providerId);
  if (!provider) throw new AuthError("SSO_PROVIDER_NOT_FOUND");
  if (isSetupLinkCaller(caller)) {
    if (provider.organizationId !== caller.organizationId) throw new AuthError("SSO_PROVIDER_NOT_FOUND");
    return provider;
  }
  const member = await findMember(ctx.db, provider.organizationId, caller.user.id);
  if (!member) throw new AuthError("SSO_PROVIDER_NOT_FOUND");
  // A member's refused change is its organization's to read in the trail; a stranger's is not.
  noteAudit(ctx, { organizationId: provider.organizationId });
  if (!roleAllows(ctx, member.role, MANAGE)) throw new AuthError("SSO_INSUFFICIENT_ACCESS");
  return provider;
}

/** A connection as its owners see it: the secret never leaves, the client id only by its last four. */
export function providerView(ctx: AuthContext, p: SsoProviderRecord): SSOProviderView {
  const common = {
    providerId: p.providerId,
    type: p.type,
    issuer: p.issuer,
    domain: p.domains.map((d) => d.domain).join(","),
    domains: p.domains.map((d) => ({
      domain: d.domain,
      verified: d.verified,
      provenForIssuer: d.verified && d.provenIssuer === p.issuer,
    })),
    domainVerified: p.domains.length > 0 && p.domains.every((d) => d.verified),
    organizationId: p.organizationId,
    redirectURI: registeredURIOf(ctx, p),
    defaultRole: p.defaultRole,
    roleMapping: p.roleMapping ? JSON.parse(p.roleMapping) : null,
    pendingChange: p.pendingChange
      ? {
          fields: Object.keys(JSON.parse(p.pendingChange)).sort(),
          requestedBy: p.pendingChangeBy,
          requestedAt: p.pendingChangeAt,
        }
      : null,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
  if (p.type === "saml") {
    const settings = readSamlSettings(p);
    return {
      ...common,
      samlConfig: {
        idpEntityId: settings.idpEntityId,
        entryPoint: settings.entryPoint,
        certFingerprints: settings.certs.map(certFingerprint),
        audience: spEntityIdOf(ctx, p, settings),
        callbackUrl: acsURLOf(ctx, p.providerId),
        spMetadataURL: spMetadataURLOf(ctx, p.providerId),
        wantAssertionsSigned: true,
        identifierFormat: settings.identifierFormat,
        mapping: settings.mapping,
      },
    };
  }
  return {
    ...common,
    oidcConfig: {
      clientIdLastFour: p.clientId.slice(-4),
      discoveryEndpoint: discoveryEndpointOf(p.issuer),
      scopes: p.scopes,
      pkce: true,
      mapping: JSON.parse(p.mapping),
    },
  };
}

/**
 * The roles a connection gives: known ones, and never the owner role. An identity provider's answer
 * (anyone its admins put in a group) must not make an owner: owners are made in the organization.
 */
function checkRoles(ctx: AuthContext, body: Pick<RegisterSSOProviderBody, "defaultRole" | "roleMapping">) {
  const defaultRole = body.defaultRole === undefined ? undefined : normalizeRoles(ctx, body.defaultRole);
  const mapped = Object.values(body.roleMapping?.values ?? {}).map((role) => normalizeRoles(ctx, role));
  if ([defaultRole ?? "", ...mapped].some((role) => isOwnerRole(ctx, role)))
    throw new AuthError("SSO_ROLE_NOT_ALLOWED");
  return defaultRole;
}

function checkDiscoveryEndpoint(issuer: string, discoveryEndpoint: string | undefined): void {
  // Only the issuer's own document is read: a URL elsewhere would make us fetch what a registrant names.
  if (discoveryEndpoint !== undefined && discoveryEndpoint !== discoveryEndpointOf(issuer)) {
    throw new AuthError("DISCOVERY_FAILED", { message: "discoveryEndpoint must be the issuer's own" });
  }
}

/**
 * Registers a connection: for a member who manages the organization, or for a setup link's own
 * organization. Either way its domains start unproven, so it signs in nobody who exists until they
 * are proven for its issuer (sso/domains.service.ts).
 */
export async function registerProvider(
  ctx: AuthContext,
  caller: Caller,
  body: RegisterSSOProviderBody,
): Promise<SSOProviderView> {
  if (body.samlConfig && body.oidcConfig) {
    throw new AuthError("SAML_CONFIG_INVALID", { message: "give oidcConfig or samlConfig, not both" });
  }
  if (!body.oidcConfig && !body.samlConfig) throw new AuthError("OIDC_CONFIG_REQUIRED");
  const link = isSetupLinkCaller(caller) ? caller : null;
  const organizationId = link
    ? setupLinkOrganization(link, body.organizationId)
    : (body.organizationId ?? (caller as SessionWithUser).session.activeOrganizationId);
  if (!organizationId) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  // A link's connection names no user (the audit trail names the link): its maker's account may be gone.
  const userId = link ? null : (caller as SessionWithUser).user.id;
  if (userId) await requireManager(ctx, organizationId, userId);
  let saml: SamlSettings | null = null;
  if (body.samlConfig) saml = await samlSettingsFrom(ctx, body.providerId, body.issuer, body.samlConfig);
  else {
    checkIssuer(ctx, body.issuer);
    checkDiscoveryEndpoint(body.issuer, body.oidcConfig?.discoveryEndpoint);
  }
  const defaultRole = checkRoles(ctx, body) ?? "member";
  if (ctx.providers.get(body.providerId)) throw new AuthError("SSO_PROVIDER_ID_TAKEN");
  if (await findSsoProvider(ctx.db, body.providerId)) throw new AuthError("SSO_PROVIDER_ID_TAKEN");
  if (!saml) await probeDiscovery(ctx, body.issuer);

  const now = ctx.now();
  const id = newId();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await insertSsoProvider(trx, {
        id,
        providerId: body.providerId,
        organizationId,
        userId,
        issuer: saml ? saml.idpEntityId : body.issuer,
        clientId: body.oidcConfig?.clientId ?? "",
        clientSecret: saml ? "" : ssoSecretCipher(ctx).encrypt(body.oidcConfig?.clientSecret ?? ""),
        scopes: saml ? [] : (body.oidcConfig?.scopes ?? DEFAULT_SCOPES),
        mapping: JSON.stringify(saml ? saml.mapping : (body.oidcConfig?.mapping ?? {})),
        defaultRole,
        roleMapping: body.roleMapping ? JSON.stringify(body.roleMapping) : null,
        type: saml ? "saml" : "oidc",
        samlConfig: saml ? JSON.stringify(saml) : null,
        now,
      });
      await insertSsoDomains(
        trx,
        body.domain.map((domain) => ({ id: newId(), providerId: id, domain })),
        now,
      );
      await auditChange(ctx, trx, {
        organizationId,
        details: {
          providerId: body.providerId,
          type: saml ? "saml" : "oidc",
          issuer: saml ? saml.idpEntityId : body.issuer,
          domains: body.domain,
          defaultRole,
          ...(body.roleMapping ? { roleMapping: body.roleMapping } : {}),
        },
      });
    });
  } catch (error) {
    // Two registrations of one providerId at once: the unique key decides.
    if (isUniqueViolation(error)) throw new AuthError("SSO_PROVIDER_ID_TAKEN");
    throw error;
  }
  const created = await findSsoProvider(ctx.db, body.providerId);
  if (!created) throw new AuthError("SSO_PROVIDER_NOT_FOUND");
  return providerView(ctx, created);
}

/** One organization's connections: what its setup link shows. */
export async function listOrganizationProviders(ctx: AuthContext, organizationId: string): Promise<SSOProviderView[]> {
  const providers = await listOrganizationsSsoProviders(ctx.db, [organizationId]);
  return providers.map((p) => providerView(ctx, p));
}

export async function listProviders(ctx: AuthContext, userId: string): Promise<SSOProviderView[]> {
  const memberships = await listUserMemberRoles(ctx.db, userId);
  const managed = memberships.filter((m) => roleAllows(ctx, m.role, MANAGE)).map((m) => m.organizationId);
  const providers = await listOrganizationsSsoProviders(ctx.db, managed);
  return providers.map((p) => providerView(ctx, p));
}

/** The row fields that decide who asserts identity: changing them is an owner's act, staged until confirmed. */
const IDENTITY_FIELDS = ["issuer", "clientId", "clientSecret", "mapping", "samlConfig"] as const;
type ProviderPatch = Parameters<typeof updateSsoProviderRow>[2];

/** A patch split into what applies now (scopes, roles, domains) and what waits for an owner's confirmation. */
function splitPatch(patch: ProviderPatch): { now: ProviderPatch; staged: ProviderPatch | null } {
  const now: Record<string, unknown> = {};
  const staged: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    ((IDENTITY_FIELDS as readonly string[]).includes(key) ? staged : now)[key] = value;
  }
  return { now: now as ProviderPatch, staged: Object.keys(staged).length > 0 ? (staged as ProviderPatch) : null };
}

/** Owners only, with a recent sign-in: who asserts identity for every address of the domains. */
async function requireFreshOwner(ctx: AuthContext, provider: SsoProviderRecord, caller: SessionWithUser) {
  const member = await findMember(ctx.db, provider.organizationId, caller.user.id);
  if (!member || !isOwnerRole(ctx, member.role)) throw new AuthError("SSO_OWNER_REQUIRED");
  if (!isSessionFresh(ctx, caller.session)) throw new AuthError("SESSION_NOT_FRESH");
}

/**
 * Changes a connection. Scopes, roles and domains change at once (roles never the owner's; a new
 * domain starts unverified). A change of who asserts identity (issuer, client, claim mapping, SAML
 * settings) needs an owner with a recent sign-in, is staged while the old settings keep working, is
 * mailed to every owner, and applies only when an owner confirms it (confirmProviderChange).
 *
 * A setup link's holder may ask for it too: on a connection with no verified domain it applies at
 * once (such a connection signs nobody in: sign-in.service.ts), else it is staged for an owner's confirmation
 * like anyone's, requested by `setup-link:<id>`.
 */
export async function updateProvider(
  ctx: AuthContext,
  caller: Caller,
  body: UpdateSSOProviderBody,
): Promise<SSOProviderView> {
  const link = isSetupLinkCaller(caller) ? caller : null;
  const member = link ? null : (caller as SessionWithUser);
  const provider = await findManagedProvider(ctx, caller, body.providerId);
  const patch = provider.type === "saml" ? await samlPatch(ctx, provider, body) : await oidcPatch(ctx, provider, body);
  const split = splitPatch(patch);
  const signsNobodyIn = !provider.domains.some((d) => d.verified);
  const { now: immediate, staged } =
    link && split.staged && signsNobodyIn ? { now: { ...split.now, ...split.staged }, staged: null } : split;
  // Dropping a verified domain lifts enforced SSO and routing for it: an owner's act too (never a link's).
  const dropsVerified =
    body.domain !== undefined && provider.domains.some((d) => d.verified && !body.domain?.includes(d.domain));
  if (dropsVerified && link) throw new AuthError("SSO_OWNER_REQUIRED");
  if ((staged || dropsVerified) && member) await requireFreshOwner(ctx, provider, member);
  const requester = member
    ? { id: member.user.id, text: `${member.user.name} <${member.user.email}>` }
    : { id: `setup-link:${link?.id}`, text: `Setup link ${link?.label ?? link?.id}` };
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    // Under the organization's lock: a confirmation racing this staging applies one or the other whole.
    await lockOrganization(trx, ctx.dialect, provider.organizationId);
    await updateSsoProviderRow(trx, provider.id, immediate, now);
    if (body.domain) await replaceDomains(trx, provider, body.domain, now);
    if (staged) {
      await setPendingChange(trx, provider.id, { change: JSON.stringify(staged), by: requester.id, at: now });
      await mailOwners(ctx, trx, provider, requester.text, Object.keys(staged));
    }
    await auditUpdate(ctx, trx, provider, body, staged ? Object.keys(staged).sort() : []);
  });
  if (staged) ctx.mail.wake();
  return currentView(ctx, provider.providerId);
}

async function oidcPatch(ctx: AuthContext, provider: SsoProviderRecord, body: UpdateSSOProviderBody) {
  if (body.samlConfig !== undefined) {
    throw new AuthError("SAML_CONFIG_INVALID", { message: "this is an OpenID Connect connection" });
  }
  const issuer = body.issuer ?? provider.issuer;
  if (body.issuer !== undefined) checkIssuer(ctx, body.issuer);
  checkDiscoveryEndpoint(issuer, body.oidcConfig?.discoveryEndpoint);
  const defaultRole = checkRoles(ctx, { defaultRole: body.defaultRole, roleMapping: body.roleMapping ?? undefined });
  if (body.issuer !== undefined && body.issuer !== provider.issuer) await probeDiscovery(ctx, body.issuer);
  const oidc = body.oidcConfig ?? {};
  const patch: ProviderPatch = {
    ...(body.issuer !== undefined && body.issuer !== provider.issuer ? { issuer: body.issuer } : {}),
    ...(oidc.clientId !== undefined && oidc.clientId !== provider.clientId ? { clientId: oidc.clientId } : {}),
    ...(oidc.clientSecret !== undefined ? { clientSecret: ssoSecretCipher(ctx).encrypt(oidc.clientSecret) } : {}),
    ...(oidc.scopes !== undefined ? { scopes: oidc.scopes } : {}),
    ...(oidc.mapping !== undefined && JSON.stringify(oidc.mapping) !== provider.mapping
      ? { mapping: JSON.stringify(oidc.mapping) }
      : {}),
    ...(defaultRole !== undefined ? { defaultRole } : {}),
    ...(body.roleMapping !== undefined
      ? { roleMapping: body.roleMapping ? JSON.stringify(body.roleMapping) : null }
      : {}),
  };
  return patch;
}

/** A SAML connection's patch: `samlConfig` fields given replace the kept ones; the rest stays. */
async function samlPatch(ctx: AuthContext, provider: SsoProviderRecord, body: UpdateSSOProviderBody) {
  if (body.oidcConfig !== undefined) {
    throw new AuthError("SAML_CONFIG_INVALID", { message: "this is a SAML connection: use samlConfig" });
  }
  const current = readSamlSettings(provider);
  const settings =
    body.samlConfig || body.issuer !== undefined
      ? await samlSettingsFrom(ctx, provider.providerId, body.issuer, body.samlConfig ?? {}, {
          ...current,
          // A new top-level issuer names the IdP anew.
          ...(body.issuer !== undefined ? { idpEntityId: body.issuer } : {}),
        })
      : current;
  const defaultRole = checkRoles(ctx, { defaultRole: body.defaultRole, roleMapping: body.roleMapping ?? undefined });
  const samlConfig = JSON.stringify(settings);
  const patch: ProviderPatch = {
    ...(samlConfig !== provider.samlConfig
      ? { issuer: settings.idpEntityId, mapping: JSON.stringify(settings.mapping), samlConfig }
      : {}),
    ...(defaultRole !== undefined ? { defaultRole } : {}),
    ...(body.roleMapping !== undefined
      ? { roleMapping: body.roleMapping ? JSON.stringify(body.roleMapping) : null }
      : {}),
  };
  return patch;
}

async function mailOwners(
  ctx: AuthContext,
  trx: DB,
  provider: SsoProviderRecord,
  requestedBy: string,
  fields: string[],
) {
  const organization = await findOrganization(trx, { id: provider.organizationId });
  for (const owner of await listOrganizationOwners(ctx, trx, provider.organizationId)) {
    await ctx.mail.enqueue(
      trx,
      ssoConnectionChangeNotice(locales[0], owner.email, {
        requestedBy,
        organization: organization?.name ?? provider.organizationId,
        providerId: provider.providerId,
        fields,
      }),
    );
  }
}

async function listOrganizationOwners(ctx: AuthContext, trx: DB, organizationId: string) {
  const members = await listMemberEmailsWithRole(trx, organizationId, ctx.options.organization.creatorRole);
  return members.filter((member) => isOwnerRole(ctx, member.role));
}

/** POST /sso/confirm-provider-change: an owner with a recent sign-in applies the staged change. */
export async function confirmProviderChange(
  ctx: AuthContext,
  caller: SessionWithUser,
  providerId: string,
): Promise<SSOProviderView> {
  const provider = await findManagedProvider(ctx, caller, providerId);
  await requireFreshOwner(ctx, provider, caller);
  if (!provider.pendingChange) throw new AuthError("NO_PENDING_CONNECTION_CHANGE");
  const seen = provider.pendingChange;
  const staged = JSON.parse(seen) as ProviderPatch;
  await ctx.db.transaction().execute(async (trx) => {
    await lockOrganization(trx, ctx.dialect, provider.organizationId);
    // The change the owner saw, not one staged since (nor one another owner applied meanwhile).
    if ((await findSsoProvider(trx, providerId))?.pendingChange !== seen) {
      throw new AuthError("NO_PENDING_CONNECTION_CHANGE");
    }
    await updateSsoProviderRow(trx, provider.id, staged, ctx.now());
    await setPendingChange(trx, provider.id, null);
    await auditChange(ctx, trx, {
      organizationId: provider.organizationId,
      details: {
        providerId,
        confirmed: Object.keys(staged).sort(),
        requestedBy: provider.pendingChangeBy,
        ...(staged.issuer !== undefined ? { issuer: staged.issuer } : {}),
      },
    });
  });
  return currentView(ctx, providerId);
}

/** POST /sso/cancel-provider-change: an owner drops the staged change; the current settings stay. */
export async function cancelProviderChange(
  ctx: AuthContext,
  caller: SessionWithUser,
  providerId: string,
): Promise<SSOProviderView> {
  const provider = await findManagedProvider(ctx, caller, providerId);
  const member = await findMember(ctx.db, provider.organizationId, caller.user.id);
  if (!member || !isOwnerRole(ctx, member.role)) throw new AuthError("SSO_OWNER_REQUIRED");
  if (!provider.pendingChange) throw new AuthError("NO_PENDING_CONNECTION_CHANGE");
  await auditedChange(ctx, (db) => setPendingChange(db, provider.id, null), {
    organizationId: provider.organizationId,
    details: { providerId, canceled: Object.keys(JSON.parse(provider.pendingChange)).sort() },
  });
  return currentView(ctx, providerId);
}

async function currentView(ctx: AuthContext, providerId: string): Promise<SSOProviderView> {
  const updated = await findSsoProvider(ctx.db, providerId);
  if (!updated) throw new AuthError("SSO_PROVIDER_NOT_FOUND");
  return providerView(ctx, updated);
}

/**
 * The update's entry: which fields the request set (a secret by its name only), the new values of
 * those that decide who gets in and as what, and which of them wait for an owner's confirmation.
 */
function auditUpdate(
  ctx: AuthContext,
  trx: DB,
  provider: SsoProviderRecord,
  body: UpdateSSOProviderBody,
  staged: string[],
) {
  const { providerId, oidcConfig, samlConfig, ...top } = body;
  const given = (fields: object, prefix = "") =>
    Object.entries(fields)
      .filter(([, value]) => value !== undefined)
      .map(([key]) => `${prefix}${key}`);
  const changed = [
    ...given(top),
    ...given(oidcConfig ?? {}, "oidcConfig."),
    ...given(samlConfig ?? {}, "samlConfig."),
  ].sort();
  return auditChange(ctx, trx, {
    organizationId: provider.organizationId,
    details: {
      providerId,
      changed,
      ...(staged.length > 0 ? { staged } : {}),
      ...(body.issuer !== undefined ? { issuer: body.issuer } : {}),
      ...(body.domain !== undefined ? { domains: body.domain } : {}),
      ...(body.defaultRole !== undefined ? { defaultRole: body.defaultRole } : {}),
      ...(body.roleMapping !== undefined ? { roleMapping: body.roleMapping } : {}),
    },
  });
}

/** Domains kept keep their verification; new ones start unverified; dropped ones go. */
async function replaceDomains(trx: DB, provider: SsoProviderRecord, domains: string[], now: Date): Promise<void> {
  const wanted = new Set(domains);
  const kept = new Set(provider.domains.map((d) => d.domain));
  await deleteSsoDomains(
    trx,
    provider.domains.filter((d) => !wanted.has(d.domain)).map((d) => d.id),
  );
  await insertSsoDomains(
    trx,
    domains.filter((d) => !kept.has(d)).map((domain) => ({ id: newId(), providerId: provider.id, domain })),
    now,
  );
}

/**
 * Removes a connection. One holding verified domains is how the organization's enforced SSO and
 * domain routing work: taking it away is an owner's act with a recent sign-in, as changing it is.
 */
export async function deleteProvider(ctx: AuthContext, caller: SessionWithUser, providerId: string): Promise<void> {
  const provider = await findManagedProvider(ctx, caller, providerId);
  if (provider.domains.some((d) => d.verified)) await requireFreshOwner(ctx, provider, caller);
  await ctx.db.transaction().execute(async (trx) => {
    await deleteSsoProviderRow(trx, provider.id, provider.providerId);
    await auditChange(ctx, trx, {
      organizationId: provider.organizationId,
      details: { providerId, type: provider.type, issuer: provider.issuer },
    });
  });
}

/**
 * "Test the connection": OIDC reads the issuer's discovery document through the same public-address
 * guard as sign-in; SAML re-checks the kept settings. A failure is the answer, not a refusal.
 */
export async function testConnection(
  ctx: AuthContext,
  caller: Caller,
  providerId: string,
): Promise<{ ok: boolean; error: { code: string; message: string } | null }> {
  const provider = await findManagedProvider(ctx, caller, providerId);
  try {
    if (provider.type === "saml") await checkSamlConnection(ctx, provider);
    else await probeDiscovery(ctx, provider.issuer);
    return { ok: true, error: null };
  } catch (error) {
    if (!isAuthError(error)) throw error;
    return { ok: false, error: { code: error.code, message: error.message } };
  }
}

import type { SessionWithUser, User } from "../../contract/models.js";
import {
  NO_POLICY,
  type PolicyRefusal,
  type PolicyRules,
  type PolicyState,
  policyRules,
  type SignInMethod,
} from "../../contract/organization-policy.js";
import { auditEvent } from "../audit/trail.service.js";
import type { AuthContext } from "../context.js";
import { AuthError } from "../errors.js";
import type { CallerRulesRows } from "../store/caller-reads.js";
import type { DB } from "../store/database.js";
import { findMember } from "../store/members.js";
import {
  findDomainOwner,
  findPolicyRow,
  findSessionRules,
  knownToOrganizationDirectory,
  type OwnedRef,
  organizationIdOf,
  touchSessionActivity,
  upsertPolicyRow,
  verifiedDomainsOf,
} from "../store/organization-policies.js";
import { lockOrganization } from "../store/organizations.js";
import { findUserById } from "../store/users.js";
import { toDate } from "../store/values.js";
import { isOwnerRole } from "./access-control.js";
import { emailDomain } from "./email-domain.js";

/**
 * Organization policy (docs/organization-policy.md): rules an organization's owners set for the
 * sessions that act in it. Checked in one place for every route that acts in an organization
 * (http/route.ts calls organizationStanding), from rows the session's own statement read, so an
 * organization without a policy costs no round trip; and at sign-in for enforced SSO (createSession
 * calls checkSignInMethod).
 */

/** Stored rules, read leniently: a field missing from an older row is off. */
export function parseRules(text: string): PolicyRules {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return NO_POLICY;
  }
  const parsed = policyRules.partial().safeParse(raw);
  return parsed.success ? { ...NO_POLICY, ...parsed.data } : NO_POLICY;
}

/** Which organization a request acts in: named by id, slug, team, invitation or connection, else the active one. */
export type ActedIn = { id: string } | OwnedRef;

const text = (value: unknown): string | undefined =>
  typeof value === "string" && value.length > 0 ? value : undefined;

/** The organization a request names (body, then query), else the session's active one; null: none. */
export function actedInOrganization(
  feature: string | undefined,
  inputs: readonly unknown[],
  activeOrganizationId: string | null | undefined,
): ActedIn | null {
  for (const input of inputs) {
    if (!input || typeof input !== "object") continue;
    const named = input as Record<string, unknown>;
    const id = text(named.organizationId);
    if (id) return { id };
    const slug = text(named.organizationSlug);
    if (slug) return { slug };
    const teamId = text(named.teamId);
    if (teamId) return { teamId };
    const invitationId = text(named.invitationId);
    if (invitationId) return { invitationId };
    const providerId = text(named.providerId);
    if (providerId && feature === "sso") return { ssoProviderId: providerId };
    if (providerId && feature === "scim") return { scimProviderId: providerId };
  }
  return activeOrganizationId ? { id: activeOrganizationId } : null;
}

/** How a session stands with one organization's policy. */
export interface Standing {
  organizationId: string;
  rules: PolicyRules;
  state: PolicyState;
}

/** How often, at most, acting in an organization is written down (for idle timeouts). */
function touchInterval(idleTimeout: number): number {
  return Math.min(60, Math.floor(idleTimeout / 4)) * 1000;
}

/**
 * The caller's standing with the organization the request acts in, or null when that organization
 * (or none of the caller's) has a policy. `rows`: what the session's statement read; undefined when
 * it could not (auth.api calls), then read here.
 */
export async function organizationStanding(
  ctx: AuthContext,
  caller: SessionWithUser,
  rows: CallerRulesRows | undefined,
  actedIn: ActedIn | null,
): Promise<(Standing & { lastActiveAt: Date; ssoProviderId: string | null }) | null> {
  if (!actedIn) return null;
  const { session } = caller;
  const known = rows ?? (await findSessionRules(ctx.db, session.id));
  // A member of no organization with a policy: the usual case, and nothing more to read.
  if (known.policies.length === 0) return null;
  let organizationId: string | null;
  if ("id" in actedIn) organizationId = actedIn.id;
  else if ("slug" in actedIn)
    organizationId = known.policies.find((p) => p.slug === actedIn.slug)?.organizationId ?? null;
  else organizationId = await organizationIdOf(ctx.db, actedIn);
  const row = organizationId ? known.policies.find((p) => p.organizationId === organizationId) : undefined;
  if (!row) return null;
  const rules = parseRules(row.rules);
  const lastActiveAt = known.lastActiveAt ? toDate(known.lastActiveAt) : session.createdAt;
  const { state, ssoProviderId } = await stateOf(ctx, caller, rules, row.organizationId, known, lastActiveAt);
  return { organizationId: row.organizationId, rules, state, lastActiveAt, ssoProviderId };
}

/** What the rules ask of this session, and which it fails (in the order they are checked). */
async function stateOf(
  ctx: AuthContext,
  { session, user }: SessionWithUser,
  rules: PolicyRules,
  organizationId: string,
  signIn: SignedInBy,
  lastActiveAt: Date,
  db: DB = ctx.db,
): Promise<{ state: PolicyState; ssoProviderId: string | null }> {
  const now = ctx.now().getTime();
  const unmet: PolicyRefusal[] = [];
  const { signInMethod } = signIn;
  // Held while an owner: a role change by any path (a directory's group, a connection's mapping)
  // ends it, whether or not that path took them off the list.
  const breakGlass =
    rules.requireSSO &&
    signInMethod === "password" &&
    user.twoFactorEnabled &&
    rules.breakGlassUserIds.includes(user.id) &&
    isOwnerRole(ctx, (await findMember(db, organizationId, user.id))?.role ?? "");
  const ssoProviderId = rules.requireSSO && !breakGlass ? await ssoOwed(db, organizationId, user, signIn) : null;
  if (ssoProviderId) unmet.push("SSO_REQUIRED");
  const allowed = rules.allowedSignInMethods as readonly string[] | null;
  if (allowed && !breakGlass && !(signInMethod && allowed.includes(signInMethod))) {
    unmet.push("SIGN_IN_METHOD_NOT_ALLOWED_BY_ORGANIZATION");
  }
  const created = session.createdAt.getTime();
  if (rules.maxSessionAge !== null && now - created > rules.maxSessionAge * 1000) {
    unmet.push("SESSION_TOO_OLD_FOR_ORGANIZATION");
  }
  const last = Math.max(created, lastActiveAt.getTime());
  if (rules.idleTimeout !== null && now - last > rules.idleTimeout * 1000) unmet.push("SESSION_IDLE_FOR_ORGANIZATION");
  if (rules.requireTwoFactor && !user.twoFactorEnabled) unmet.push("TWO_FACTOR_REQUIRED_BY_ORGANIZATION");
  const state: PolicyState = {
    requireTwoFactor: rules.requireTwoFactor,
    requireSSO: rules.requireSSO,
    maxSessionAge: rules.maxSessionAge,
    idleTimeout: rules.idleTimeout,
    allowedSignInMethods: rules.allowedSignInMethods,
    signInMethod,
    breakGlass,
    unmet,
    sessionExpiresAt: rules.maxSessionAge === null ? null : new Date(created + rules.maxSessionAge * 1000),
  };
  return { state, ssoProviderId };
}

/** How a session was signed in: the method, and for SSO the connection. */
type SignedInBy = Pick<CallerRulesRows, "signInMethod" | "signInProviderId">;

/**
 * The connection a session must sign in through before it acts in an organization that requires SSO,
 * or null when it owes none. Only an SSO session from one of the organization's own connections
 * counts (another organization's connection, even one the member runs, does not). Owed by addresses
 * in the organization's verified domains, and by anyone its identity provider or directory knows
 * (enforced SSO follows the member, not the address they have now). Read only for such sessions.
 */
async function ssoOwed(db: DB, organizationId: string, user: User, signIn: SignedInBy): Promise<string | null> {
  const domains = await verifiedDomainsOf(db, organizationId);
  const own = signIn.signInMethod === "sso" && domains.some((d) => d.providerId === signIn.signInProviderId);
  if (own) return null;
  const held = domains.find((d) => d.domain === emailDomain(user.email));
  if (held) return held.providerId;
  const first = domains[0];
  if (first && (await knownToOrganizationDirectory(db, organizationId, user.id))) return first.providerId;
  return null;
}

/**
 * The one check of every route that acts in an organization: 403 with the first rule the session
 * fails (its code names the rule; `organizationId` and every `unmet` code ride along so the app can
 * guide the user), else the session's activity is noted for an idle timeout (coarsely: at most
 * once a minute, so a busy session writes rarely).
 */
export async function enforceOrganizationPolicy(
  ctx: AuthContext,
  caller: SessionWithUser,
  rows: CallerRulesRows | undefined,
  actedIn: ActedIn | null,
): Promise<void> {
  const standing = await organizationStanding(ctx, caller, rows, actedIn);
  if (!standing) return;
  const { state, rules, organizationId, ssoProviderId } = standing;
  const refusal = state.unmet[0];
  if (refusal === "SSO_REQUIRED" && ssoProviderId) throw ssoRequired(ssoProviderId, organizationId, state.unmet);
  if (refusal) throw new AuthError(refusal, { details: { organizationId, unmet: state.unmet } });
  if (rules.idleTimeout !== null) {
    const now = ctx.now();
    const last = Math.max(caller.session.createdAt.getTime(), standing.lastActiveAt.getTime());
    if (now.getTime() - last >= touchInterval(rules.idleTimeout)) {
      await touchSessionActivity(ctx.db, caller.session.id, now);
    }
  }
}

/** Whether the session meets the organization's policy (true when it has none): what a token may vouch for. */
export async function standsWithPolicy(
  ctx: AuthContext,
  caller: SessionWithUser,
  organizationId: string,
): Promise<boolean> {
  const standing = await organizationStanding(ctx, caller, undefined, { id: organizationId });
  return !standing || standing.state.unmet.length === 0;
}

/** get-policy's and update-policy's answer. */
export interface PolicyReply {
  policy: PolicyRules & { organizationId: string; updatedAt: Date | null };
  caller: PolicyState;
}

async function callerMemberOf(ctx: AuthContext, caller: SessionWithUser, organizationId: string | undefined) {
  const id = organizationId ?? caller.session.activeOrganizationId;
  if (!id) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  const member = await findMember(ctx.db, id, caller.user.id);
  if (!member) throw new AuthError("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
  return member;
}

async function replyOf(
  ctx: AuthContext,
  caller: SessionWithUser,
  organizationId: string,
  rules: PolicyRules,
  updatedAt: Date | null,
  owner: boolean,
): Promise<PolicyReply> {
  const known = await findSessionRules(ctx.db, caller.session.id);
  const lastActiveAt = known.lastActiveAt ? toDate(known.lastActiveAt) : caller.session.createdAt;
  const { state } = await stateOf(ctx, caller, rules, organizationId, known, lastActiveAt);
  // Who holds the break-glass path is the owners' to know.
  const breakGlassUserIds = owner ? rules.breakGlassUserIds : [];
  return { policy: { ...rules, breakGlassUserIds, organizationId, updatedAt }, caller: state };
}

/** GET /organization/get-policy: any member reads the rules (owners also the break-glass users). */
export async function getPolicy(
  ctx: AuthContext,
  caller: SessionWithUser,
  query: { organizationId?: string },
): Promise<PolicyReply> {
  const member = await callerMemberOf(ctx, caller, query.organizationId);
  const row = await findPolicyRow(ctx.db, member.organizationId);
  const rules = row ? parseRules(row.rules) : NO_POLICY;
  return replyOf(ctx, caller, member.organizationId, rules, row?.updatedAt ?? null, isOwnerRole(ctx, member.role));
}

/**
 * POST /organization/update-policy (owners): the fields sent replace the stored ones. Refused when
 * the caller's own session would fail the new rules (an owner cannot lock themself out), when a
 * break-glass user is not an owner, or when SSO is required with no verified domain to require it for.
 */
export async function updatePolicy(
  ctx: AuthContext,
  caller: SessionWithUser,
  input: Partial<PolicyRules> & { organizationId?: string },
): Promise<PolicyReply> {
  const id = input.organizationId ?? caller.session.activeOrganizationId;
  if (!id) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  const { organizationId: _named, ...changes } = input;
  // Under the organization's lock: a role change cannot slip between the owner checks and the write.
  const rules = await ctx.db.transaction().execute(async (trx) => {
    await lockOrganization(trx, ctx.dialect, id);
    const member = await findMember(trx, id, caller.user.id);
    if (!member) throw new AuthError("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
    if (!isOwnerRole(ctx, member.role)) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THE_ORGANIZATION_POLICY");
    const row = await findPolicyRow(trx, id);
    const next: PolicyRules = { ...(row ? parseRules(row.rules) : NO_POLICY), ...changes };
    // Named in this request: each must be an owner. Kept from before: one no longer an owner (demoted
    // by a directory's group, a connection's mapping, a transfer) drops off instead of blocking the save.
    const named = changes.breakGlassUserIds !== undefined;
    const holders: string[] = [];
    for (const userId of new Set(next.breakGlassUserIds)) {
      const holder = await findMember(trx, id, userId);
      if (holder && isOwnerRole(ctx, holder.role)) holders.push(userId);
      else if (named) throw new AuthError("BREAK_GLASS_USER_MUST_BE_AN_OWNER", { details: { userId } });
    }
    next.breakGlassUserIds = holders;
    if (next.requireSSO && (await verifiedDomainsOf(trx, id)).length === 0) {
      throw new AuthError("SSO_CONNECTION_REQUIRED");
    }
    const known = await findSessionRules(trx, caller.session.id);
    const lastActiveAt = known.lastActiveAt ? toDate(known.lastActiveAt) : caller.session.createdAt;
    const { state } = await stateOf(ctx, caller, next, id, known, lastActiveAt, trx);
    if (state.unmet.length > 0) throw new AuthError("POLICY_WOULD_LOCK_YOU_OUT", { details: { unmet: state.unmet } });
    await upsertPolicyRow(trx, id, JSON.stringify(next), caller.user.id, ctx.now());
    await auditEvent(ctx, trx, "organization.policy_updated", {
      actorId: caller.user.id,
      organizationId: id,
      details: { changed: Object.keys(changes).sort() },
    });
    return next;
  });
  return replyOf(ctx, caller, id, rules, ctx.now(), true);
}

/**
 * Enforced SSO at sign-in (createSession): an address in a domain an organization holds verified,
 * whose policy requires SSO, signs in only through SSO: any other method is SSO_REQUIRED, naming the
 * connection. A break-glass owner may still use a password, always with a second factor: answered
 * `breakGlass` so the session owes one even from a trusted device, and is audited once it is made.
 */
export async function checkSignInMethod(
  ctx: AuthContext,
  db: DB,
  userId: string,
  method: SignInMethod,
  known: Pick<User, "email" | "twoFactorEnabled"> | null,
): Promise<{ breakGlass: { organizationId: string; providerId: string } } | null> {
  if (!ctx.options.sso.enabled || !ctx.options.organization.enabled) return null;
  if (method === "sso" || method === "impersonation" || method === "anonymous") return null;
  // The sign-in read the user already (most do): then only the domain is looked up.
  const user = known ?? (await findUserById(db, userId));
  if (!user) return null;
  const owner = await findDomainOwner(db, emailDomain(user.email));
  if (!owner?.rules) return null;
  const rules = parseRules(owner.rules);
  if (!rules.requireSSO) return null;
  const { providerId, organizationId } = owner;
  if (method === "password" && rules.breakGlassUserIds.includes(userId)) {
    const member = await findMember(db, organizationId, userId);
    if (member && isOwnerRole(ctx, member.role) && user.twoFactorEnabled && ctx.options.twoFactor.enabled) {
      return { breakGlass: { organizationId, providerId } };
    }
  }
  throw ssoRequired(providerId, organizationId);
}

/** SSO_REQUIRED naming the connection to sign in through (the app can start it with `providerId`). */
function ssoRequired(providerId: string, organizationId: string, unmet?: PolicyRefusal[]): AuthError {
  return new AuthError("SSO_REQUIRED", {
    message: `Your organization requires single sign-on for this address: sign in with SSO through "${providerId}"`,
    details: unmet ? { providerId, organizationId, unmet } : { providerId, organizationId },
  });
}

/**
 * A break-glass owner who stops being an owner leaves the list (it holds owners only; making them an
 * owner again does not put them back). In the role change's transaction; answers whether they were
 * on it, so the caller ends the sessions they signed in with a password.
 */
export async function dropBreakGlassHolder(
  ctx: AuthContext,
  trx: DB,
  organizationId: string,
  userId: string,
  changedBy: string,
): Promise<boolean> {
  const row = await findPolicyRow(trx, organizationId);
  const rules = row ? parseRules(row.rules) : NO_POLICY;
  if (!rules.breakGlassUserIds.includes(userId)) return false;
  const breakGlassUserIds = rules.breakGlassUserIds.filter((id) => id !== userId);
  await upsertPolicyRow(trx, organizationId, JSON.stringify({ ...rules, breakGlassUserIds }), changedBy, ctx.now());
  return true;
}

/** The audit entry of a break-glass sign-in, in the transaction that makes its session. */
export async function auditBreakGlass(
  ctx: AuthContext,
  trx: DB,
  userId: string,
  breakGlass: { organizationId: string; providerId: string },
): Promise<void> {
  await auditEvent(ctx, trx, "organization.sso_break_glass_sign_in", {
    actorId: userId,
    subjectId: userId,
    organizationId: breakGlass.organizationId,
    details: { method: "password", providerId: breakGlass.providerId },
  });
}

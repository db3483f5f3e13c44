import { Resolver } from "node:dns/promises";
import { auditChange } from "../audit/trail.service.js";
import type { AuthContext } from "../context.js";
import { safeEqual } from "../crypto/digest.js";
import { randomString, URL_SAFE } from "../crypto/random.js";
import { AuthError } from "../errors.js";
import type { Caller } from "../services/caller.js";
import { isUniqueViolation } from "../store/database.js";
import { findManagedProvider } from "./connections.service.js";
import {
  findProviderByVerifiedDomain,
  findSsoProvider,
  markDomainVerified,
  type SsoDomainRecord,
  type SsoProviderRecord,
  setDomainTokens,
} from "./providers.store.js";

const TOKEN_LENGTH = 24;

/**
 * Whether a domain of the connection has to be proven (again): never proven, or proven for another
 * issuer (SAML: entity id) than the one the connection names now. Until then a new issuer signs in
 * nobody who already exists (sso/sign-in.service.ts).
 */
export function needsProof(provider: SsoProviderRecord, domain: SsoDomainRecord): boolean {
  return !domain.verified || domain.provenIssuer !== provider.issuer;
}
const DNS_TIMEOUT_MS = 5_000;

/** The TXT record text that proves a connection's domain: `<prefix>-<providerId>=<token>` (better-auth's). */
export function txtRecordValue(ctx: AuthContext, providerId: string, token: string): string {
  return `${ctx.options.sso.domainVerification.tokenPrefix}-${providerId}=${token}`;
}

/**
 * The token every unverified domain of the connection must show in a TXT record. A token still valid
 * is answered again (asking twice does not invalidate a record already published).
 */
export async function requestDomainVerification(ctx: AuthContext, caller: Caller, providerId: string) {
  const provider = await findManagedProvider(ctx, caller, providerId);
  const pending = provider.domains.filter((d) => needsProof(provider, d));
  if (pending.length === 0) throw new AuthError("DOMAIN_VERIFIED");
  const now = ctx.now();
  const current = pending.find((d) => d.verificationToken && d.tokenExpiresAt && d.tokenExpiresAt > now);
  let token = current?.verificationToken ?? null;
  const everyPendingHasIt = pending.every(
    (d) => d.verificationToken === token && d.tokenExpiresAt && d.tokenExpiresAt > now,
  );
  if (!token || !everyPendingHasIt) {
    token ??= randomString(TOKEN_LENGTH, URL_SAFE);
    const expiresAt = new Date(now.getTime() + ctx.options.sso.domainVerification.expiresIn * 1000);
    await setDomainTokens(
      ctx.db,
      pending.map((d) => d.id),
      token,
      expiresAt,
    );
  }
  const value = txtRecordValue(ctx, provider.providerId, token);
  return {
    domainVerificationToken: token,
    records: pending.map((d) => ({ domain: d.domain, name: d.domain, value })),
  };
}

function resolverFor(ctx: AuthContext): Resolver {
  const resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: 2 });
  if (ctx.options.sso.dnsResolvers.length > 0) resolver.setServers([...ctx.options.sso.dnsResolvers]);
  return resolver;
}

/** The TXT strings at `domain` (a record's chunks joined, as RFC 7208 reads them); none when the lookup fails. */
async function txtRecords(ctx: AuthContext, domain: string): Promise<string[]> {
  try {
    return (await resolverFor(ctx).resolveTxt(domain)).map((chunks) => chunks.join(""));
  } catch (error) {
    ctx.logger.warn("sso domain TXT lookup failed", { domain, error: String(error) });
    return [];
  }
}

/**
 * Looks up each pending domain's TXT records and marks verified every domain that shows the
 * connection's token, in one transaction with its audit entry (the lookups come first: no
 * transaction waits on DNS). None proven: DOMAIN_VERIFICATION_FAILED (nothing changes). A domain
 * already verified for another connection stays with it (DOMAIN_VERIFIED_ELSEWHERE).
 */
export async function verifyDomains(ctx: AuthContext, caller: Caller, providerId: string) {
  const provider = await findManagedProvider(ctx, caller, providerId);
  const pending = provider.domains.filter((d) => needsProof(provider, d));
  if (pending.length === 0) throw new AuthError("DOMAIN_VERIFIED");
  const now = ctx.now();
  const live = pending.filter((d) => d.verificationToken && d.tokenExpiresAt && d.tokenExpiresAt > now);
  if (live.length === 0) throw new AuthError("NO_PENDING_VERIFICATION");

  const shown: typeof live = [];
  for (const domain of live) {
    const expected = txtRecordValue(ctx, provider.providerId, domain.verificationToken as string);
    const records = await txtRecords(ctx, domain.domain);
    if (records.some((record) => safeEqual(record.trim(), expected))) shown.push(domain);
  }
  if (shown.length === 0) throw new AuthError("DOMAIN_VERIFICATION_FAILED");
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const proven: string[] = [];
      for (const domain of shown) {
        const holder = await findProviderByVerifiedDomain(trx, domain.domain);
        if (holder && holder.id !== provider.id) continue;
        await markDomainVerified(trx, domain.id, provider.issuer, now);
        proven.push(domain.domain);
      }
      if (proven.length === 0) throw new AuthError("DOMAIN_VERIFIED_ELSEWHERE");
      await auditChange(ctx, trx, {
        organizationId: provider.organizationId,
        details: { providerId: provider.providerId, domains: proven },
      });
    });
  } catch (error) {
    // Another connection verified the same domain at the same moment: the unique index decides.
    if (isUniqueViolation(error)) throw new AuthError("DOMAIN_VERIFIED_ELSEWHERE");
    throw error;
  }
  const updated = await findSsoProvider(ctx.db, provider.providerId);
  const domains = (updated?.domains ?? []).map((d) => ({ domain: d.domain, verified: d.verified }));
  return { verified: domains.every((d) => d.verified), domains };
}

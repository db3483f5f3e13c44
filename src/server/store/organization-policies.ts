import type { CallerRulesRows } from "./caller-reads.js";
import type { DB } from "./db.js";
import { toDate } from "./values.js";

export interface PolicyRow {
  organizationId: string;
  /** JSON text (services/organization-policy.ts reads it). */
  rules: string;
  updatedAt: Date;
}

export async function findPolicyRow(db: DB, organizationId: string): Promise<PolicyRow | null> {
  const row = await db
    .selectFrom("organizationPolicy")
    .select(["organizationId", "rules", "updatedAt"])
    .where("organizationId", "=", organizationId)
    .executeTakeFirst();
  return row ? { ...row, updatedAt: toDate(row.updatedAt) } : null;
}

/** Writes an organization's rules, replacing what it had. */
export async function upsertPolicyRow(
  db: DB,
  organizationId: string,
  rules: string,
  updatedBy: string,
  now: Date,
): Promise<void> {
  await db
    .insertInto("organizationPolicy")
    .values({ organizationId, rules, updatedBy, updatedAt: now })
    .onConflict((oc) => oc.column("organizationId").doUpdateSet({ rules, updatedBy, updatedAt: now }))
    .execute();
}

/** Something a request names that belongs to one organization. */
export type OwnedRef =
  | { slug: string }
  | { teamId: string }
  | { invitationId: string }
  | { ssoProviderId: string }
  | { scimProviderId: string };

/** The organization a slug, team, invitation or connection belongs to (null: none such). */
export async function organizationIdOf(db: DB, ref: OwnedRef): Promise<string | null> {
  let row: { organizationId: string } | undefined;
  if ("slug" in ref) {
    row = await db
      .selectFrom("organization")
      .select("id as organizationId")
      .where("slug", "=", ref.slug)
      .executeTakeFirst();
  } else if ("teamId" in ref) {
    row = await db.selectFrom("team").select("organizationId").where("id", "=", ref.teamId).executeTakeFirst();
  } else if ("invitationId" in ref) {
    row = await db
      .selectFrom("invitation")
      .select("organizationId")
      .where("id", "=", ref.invitationId)
      .executeTakeFirst();
  } else if ("ssoProviderId" in ref) {
    row = await db
      .selectFrom("ssoProvider")
      .select("organizationId")
      .where("providerId", "=", ref.ssoProviderId)
      .executeTakeFirst();
  } else {
    row = await db
      .selectFrom("scimProvider")
      .select("organizationId")
      .where("providerId", "=", ref.scimProviderId)
      .executeTakeFirst();
  }
  return row?.organizationId ?? null;
}

/**
 * What organization policy needs of a session, read on its own (one statement): for requests whose
 * session was not read with it (auth.api calls, endpoint hooks). The caller statement's `rules`.
 */
export async function findSessionRules(db: DB, sessionId: string): Promise<CallerRulesRows> {
  const rows = await db
    .selectFrom("session")
    .leftJoin("member", "member.userId", "session.userId")
    .leftJoin("organizationPolicy", "organizationPolicy.organizationId", "member.organizationId")
    .leftJoin("organization", "organization.id", "organizationPolicy.organizationId")
    .select([
      "session.signInMethod",
      "session.signInProviderId",
      "session.lastActiveAt",
      "organizationPolicy.organizationId",
      "organization.slug",
      "organizationPolicy.rules",
    ])
    .where("session.id", "=", sessionId)
    .execute();
  const policies: CallerRulesRows["policies"] = [];
  for (const row of rows) {
    if (row.organizationId && row.slug && row.rules) {
      policies.push({ organizationId: row.organizationId, slug: row.slug, rules: row.rules });
    }
  }
  const first = rows[0];
  return {
    signInMethod: first?.signInMethod ?? null,
    signInProviderId: first?.signInProviderId ?? null,
    lastActiveAt: first?.lastActiveAt ?? null,
    policies,
  };
}

/** Notes that a session acted in an organization with an idle timeout. */
export async function touchSessionActivity(db: DB, sessionId: string, now: Date): Promise<void> {
  await db.updateTable("session").set({ lastActiveAt: now }).where("id", "=", sessionId).execute();
}

/** The organization holding `domain` verified through an SSO connection, its connection and its rules (JSON text, or null). */
export async function findDomainOwner(
  db: DB,
  domain: string,
): Promise<{ organizationId: string; providerId: string; rules: string | null } | null> {
  const row = await db
    .selectFrom("ssoDomain")
    .innerJoin("ssoProvider", "ssoProvider.id", "ssoDomain.providerId")
    .leftJoin("organizationPolicy", "organizationPolicy.organizationId", "ssoProvider.organizationId")
    .select(["ssoProvider.organizationId", "ssoProvider.providerId", "organizationPolicy.rules"])
    .where("ssoDomain.domain", "=", domain)
    .where("ssoDomain.verified", "=", true)
    .executeTakeFirst();
  return row ?? null;
}

/** The domains an organization's connections hold verified. */
export async function verifiedDomainsOf(
  db: DB,
  organizationId: string,
): Promise<{ domain: string; providerId: string }[]> {
  return db
    .selectFrom("ssoDomain")
    .innerJoin("ssoProvider", "ssoProvider.id", "ssoDomain.providerId")
    .select(["ssoDomain.domain", "ssoProvider.providerId"])
    .where("ssoProvider.organizationId", "=", organizationId)
    .where("ssoDomain.verified", "=", true)
    .execute();
}

/**
 * Whether the organization's identity provider or directory knows the user: an account linked to one
 * of its SSO connections, or a user one of its SCIM connections holds. Enforced SSO follows them
 * whatever their address is now.
 */
export async function knownToOrganizationDirectory(db: DB, organizationId: string, userId: string): Promise<boolean> {
  const linked = await db
    .selectFrom("account")
    .innerJoin("ssoProvider", "ssoProvider.providerId", "account.providerId")
    .select("account.id")
    .where("account.userId", "=", userId)
    .where("ssoProvider.organizationId", "=", organizationId)
    .unionAll(
      db
        .selectFrom("scimUser")
        .select("scimUser.id")
        .where("scimUser.userId", "=", userId)
        .where("scimUser.organizationId", "=", organizationId),
    )
    .limit(1)
    .execute();
  return linked.length > 0;
}

import type { Selectable } from "kysely";
import type { DB } from "../store/db.js";
import type { SsoDomainTable, SsoProviderTable } from "../store/schema.js";
import { toBool, toDate, toDateOrNull } from "../store/values.js";

/** A connection row with its domains; `clientSecret` is still sealed. */
export interface SsoProviderRecord {
  id: string;
  providerId: string;
  organizationId: string;
  /** Who registered it; null for a setup link's (the audit trail names the link). */
  userId: string | null;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
  mapping: string;
  defaultRole: string;
  roleMapping: string | null;
  type: "oidc" | "saml";
  /** SAML connections: their settings as JSON; null for OpenID Connect. */
  samlConfig: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** A staged change of who asserts identity (the row patch as JSON), until an owner confirms it. */
  pendingChange: string | null;
  pendingChangeBy: string | null;
  pendingChangeAt: Date | null;
  domains: SsoDomainRecord[];
}

export interface SsoDomainRecord {
  id: string;
  domain: string;
  verified: boolean;
  verificationToken: string | null;
  tokenExpiresAt: Date | null;
  verifiedAt: Date | null;
  /** The issuer (SAML: entity id) the domain was proven for. */
  provenIssuer: string | null;
}

function mapDomain(row: Selectable<SsoDomainTable>): SsoDomainRecord {
  return {
    id: row.id,
    domain: row.domain,
    verified: toBool(row.verified),
    verificationToken: row.verificationToken,
    tokenExpiresAt: toDateOrNull(row.tokenExpiresAt),
    verifiedAt: toDateOrNull(row.verifiedAt),
    provenIssuer: row.provenIssuer,
  };
}

function mapProvider(row: Selectable<SsoProviderTable>, domains: SsoDomainRecord[]): SsoProviderRecord {
  return {
    ...row,
    type: row.type === "saml" ? "saml" : "oidc",
    scopes: row.scopes.split(" ").filter(Boolean),
    createdAt: toDate(row.createdAt),
    updatedAt: toDate(row.updatedAt),
    pendingChangeAt: toDateOrNull(row.pendingChangeAt),
    domains,
  };
}

async function withDomains(db: DB, rows: Selectable<SsoProviderTable>[]): Promise<SsoProviderRecord[]> {
  if (rows.length === 0) return [];
  const domainRows = await db
    .selectFrom("ssoDomain")
    .selectAll()
    .where(
      "providerId",
      "in",
      rows.map((r) => r.id),
    )
    .orderBy("createdAt")
    .orderBy("domain")
    .execute();
  return rows.map((row) => mapProvider(row, domainRows.filter((d) => d.providerId === row.id).map(mapDomain)));
}

export async function findSsoProvider(db: DB, providerId: string): Promise<SsoProviderRecord | null> {
  const row = await db.selectFrom("ssoProvider").selectAll().where("providerId", "=", providerId).executeTakeFirst();
  return row ? ((await withDomains(db, [row]))[0] ?? null) : null;
}

/** The first connection an organization registered (sign-in by organization slug). */
export async function findOrganizationSsoProvider(db: DB, organizationId: string): Promise<SsoProviderRecord | null> {
  const row = await db
    .selectFrom("ssoProvider")
    .selectAll()
    .where("organizationId", "=", organizationId)
    .orderBy("createdAt")
    .orderBy("id")
    .executeTakeFirst();
  return row ? ((await withDomains(db, [row]))[0] ?? null) : null;
}

/** The connection holding `domain` verified, if any: the only way a domain routes a sign-in. */
export async function findProviderByVerifiedDomain(db: DB, domain: string): Promise<SsoProviderRecord | null> {
  const row = await db
    .selectFrom("ssoProvider")
    .innerJoin("ssoDomain", "ssoDomain.providerId", "ssoProvider.id")
    .selectAll("ssoProvider")
    .where("ssoDomain.domain", "=", domain)
    .where("ssoDomain.verified", "=", true)
    .executeTakeFirst();
  return row ? ((await withDomains(db, [row]))[0] ?? null) : null;
}

export async function listOrganizationsSsoProviders(db: DB, organizationIds: string[]): Promise<SsoProviderRecord[]> {
  if (organizationIds.length === 0) return [];
  const rows = await db
    .selectFrom("ssoProvider")
    .selectAll()
    .where("organizationId", "in", organizationIds)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
  return withDomains(db, rows);
}

/** A connection as registered: its settings, before it has domains or a staged change. */
export type NewSsoProvider = Omit<
  SsoProviderRecord,
  "createdAt" | "updatedAt" | "pendingChange" | "pendingChangeBy" | "pendingChangeAt" | "domains"
> & { now: Date };

export async function insertSsoProvider(db: DB, p: NewSsoProvider): Promise<void> {
  const { now, scopes, ...rest } = p;
  await db
    .insertInto("ssoProvider")
    .values({ ...rest, scopes: scopes.join(" "), createdAt: now, updatedAt: now })
    .execute();
}

export async function updateSsoProviderRow(
  db: DB,
  id: string,
  change: Partial<
    Pick<
      NewSsoProvider,
      "issuer" | "clientId" | "clientSecret" | "scopes" | "mapping" | "defaultRole" | "roleMapping" | "samlConfig"
    >
  >,
  now: Date,
): Promise<void> {
  const { scopes, ...rest } = change;
  await db
    .updateTable("ssoProvider")
    .set({ ...rest, ...(scopes ? { scopes: scopes.join(" ") } : {}), updatedAt: now })
    .where("id", "=", id)
    .execute();
}

/**
 * Removes a connection, its domains and the accounts it linked: a later connection reusing the
 * provider id (perhaps another organization's) must not inherit the links to its users.
 */
export async function deleteSsoProviderRow(db: DB, id: string, providerId: string): Promise<void> {
  await db.deleteFrom("account").where("providerId", "=", providerId).execute();
  await db.deleteFrom("ssoDomain").where("providerId", "=", id).execute();
  await db.deleteFrom("ssoProvider").where("id", "=", id).execute();
}

export async function insertSsoDomains(
  db: DB,
  rows: { id: string; providerId: string; domain: string }[],
  now: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto("ssoDomain")
    .values(rows.map((r) => ({ ...r, verified: false, createdAt: now })))
    .execute();
}

export async function deleteSsoDomains(db: DB, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom("ssoDomain").where("id", "in", ids).execute();
}

/** Gives every unverified domain of a connection the token its TXT record must carry. */
export async function setDomainTokens(db: DB, domainIds: string[], token: string, expiresAt: Date): Promise<void> {
  if (domainIds.length === 0) return;
  await db
    .updateTable("ssoDomain")
    .set({ verificationToken: token, tokenExpiresAt: expiresAt })
    .where("id", "in", domainIds)
    .execute();
}

/**
 * Marks one domain verified for the connection's current issuer; the partial unique index refuses a
 * second verified holder.
 */
export async function markDomainVerified(db: DB, domainId: string, issuer: string, now: Date): Promise<void> {
  await db
    .updateTable("ssoDomain")
    .set({ verified: true, verifiedAt: now, verificationToken: null, tokenExpiresAt: null, provenIssuer: issuer })
    .where("id", "=", domainId)
    .execute();
}

/** Stages (or, with null, drops) a change of who asserts identity for the connection. */
export async function setPendingChange(
  db: DB,
  id: string,
  pending: { change: string; by: string; at: Date } | null,
): Promise<void> {
  await db
    .updateTable("ssoProvider")
    .set({
      pendingChange: pending?.change ?? null,
      pendingChangeBy: pending?.by ?? null,
      pendingChangeAt: pending?.at ?? null,
    })
    .where("id", "=", id)
    .execute();
}

/** The caller's organizations and roles (list-providers keeps those whose role may manage them). */
export async function listUserMemberRoles(db: DB, userId: string): Promise<{ organizationId: string; role: string }[]> {
  return db.selectFrom("member").select(["organizationId", "role"]).where("userId", "=", userId).execute();
}

/**
 * The user's membership of the connection's organization with what tells whether the connection
 * brought it in: the invitation it came from, if any, and when the user was linked to the connection.
 */
export async function findConnectionMembership(
  db: DB,
  input: { organizationId: string; userId: string; providerId: string },
): Promise<{ id: string; role: string; createdAt: Date; invitedBy: string | null; linkedAt: Date | null } | null> {
  const row = await db
    .selectFrom("member")
    .leftJoin("account", (join) =>
      join.onRef("account.userId", "=", "member.userId").on("account.providerId", "=", input.providerId),
    )
    .select(["member.id", "member.role", "member.createdAt", "member.invitedBy", "account.createdAt as linkedAt"])
    .where("member.organizationId", "=", input.organizationId)
    .where("member.userId", "=", input.userId)
    .orderBy("account.createdAt")
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    role: row.role,
    createdAt: toDate(row.createdAt),
    invitedBy: row.invitedBy,
    linkedAt: toDateOrNull(row.linkedAt),
  };
}

/** Whether one of the organization's connections holds `domain` verified: then the organization speaks for its addresses. */
export async function organizationHoldsDomain(db: DB, organizationId: string, domain: string): Promise<boolean> {
  const row = await db
    .selectFrom("ssoDomain")
    .innerJoin("ssoProvider", "ssoProvider.id", "ssoDomain.providerId")
    .select("ssoDomain.id")
    .where("ssoProvider.organizationId", "=", organizationId)
    .where("ssoDomain.domain", "=", domain)
    .where("ssoDomain.verified", "=", true)
    .executeTakeFirst();
  return row !== undefined;
}

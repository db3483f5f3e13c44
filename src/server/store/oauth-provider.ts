import type { Selectable } from "kysely";
import type { DB } from "./database.js";
import type { OAuthClientTable, OAuthCodeTable, OAuthDeviceCodeTable, OAuthGrantTable } from "./schema.js";
import { toBool, toDate, toDateOrNull } from "./values.js";

/** A client as the services use it (list fields parsed). */
export interface OAuthClient {
  id: string;
  clientId: string;
  clientSecretHash: string | null;
  name: string;
  tokenEndpointAuthMethod: "client_secret_basic" | "client_secret_post" | "none";
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  grantTypes: string[];
  scopes: string[];
  clientUri: string | null;
  logoUri: string | null;
  skipConsent: boolean;
  disabled: boolean;
  organizationId: string | null;
  /** A personal client's owner (null for an organization's). */
  userId: string | null;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** Its last token, to the minute. */
  lastUsedAt: Date | null;
  /** Set for a client known by its Client ID Metadata Document: the copy is fresh until then. */
  metadataDocumentExpiresAt: Date | null;
  backchannelLogoutUri: string | null;
  frontchannelLogoutUri: string | null;
  accessTokenFormat: "jwt" | "opaque";
  /** RFC 7592: the digest of a dynamically registered client's registration access token. */
  registrationAccessTokenHash: string | null;
}

const list = (json: string): string[] => JSON.parse(json) as string[];

function toClient(row: Selectable<OAuthClientTable>): OAuthClient {
  return {
    ...row,
    tokenEndpointAuthMethod: row.tokenEndpointAuthMethod as OAuthClient["tokenEndpointAuthMethod"],
    redirectUris: list(row.redirectUris),
    postLogoutRedirectUris: list(row.postLogoutRedirectUris),
    grantTypes: list(row.grantTypes),
    scopes: list(row.scopes),
    skipConsent: toBool(row.skipConsent),
    disabled: toBool(row.disabled),
    createdAt: toDate(row.createdAt),
    updatedAt: toDate(row.updatedAt),
    lastUsedAt: toDateOrNull(row.lastUsedAt),
    metadataDocumentExpiresAt: toDateOrNull(row.metadataDocumentExpiresAt),
    accessTokenFormat: row.accessTokenFormat === "opaque" ? "opaque" : "jwt",
  };
}

export async function insertClient(db: DB, client: OAuthClient): Promise<void> {
  await db
    .insertInto("oauthClient")
    .values({
      ...client,
      redirectUris: JSON.stringify(client.redirectUris),
      postLogoutRedirectUris: JSON.stringify(client.postLogoutRedirectUris),
      grantTypes: JSON.stringify(client.grantTypes),
      scopes: JSON.stringify(client.scopes),
    })
    .execute();
}

/**
 * Writes a metadata document's client (services/oauth-provider/metadata-document.ts): inserted, or
 * its document fields and freshness replaced; `disabled` and its grants stay. Instances refreshing
 * at once each write the same document.
 */
export async function upsertMetadataDocumentClient(db: DB, client: OAuthClient): Promise<void> {
  const fields = {
    name: client.name,
    redirectUris: JSON.stringify(client.redirectUris),
    postLogoutRedirectUris: JSON.stringify(client.postLogoutRedirectUris),
    grantTypes: JSON.stringify(client.grantTypes),
    scopes: JSON.stringify(client.scopes),
    clientUri: client.clientUri,
    logoUri: client.logoUri,
    metadataDocumentExpiresAt: client.metadataDocumentExpiresAt,
    updatedAt: client.updatedAt,
  };
  await db
    .insertInto("oauthClient")
    .values({
      ...client,
      ...fields,
    })
    .onConflict((oc) => oc.column("clientId").doUpdateSet(fields))
    .execute();
}

export async function findClient(db: DB, clientId: string): Promise<OAuthClient | null> {
  const row = await db.selectFrom("oauthClient").selectAll().where("clientId", "=", clientId).executeTakeFirst();
  return row ? toClient(row) : null;
}

/** An organization's clients, or a user's own (those of no organization). */
export async function listClients(
  db: DB,
  owner: { organizationId: string } | { userId: string },
): Promise<OAuthClient[]> {
  let query = db.selectFrom("oauthClient").selectAll();
  query =
    "organizationId" in owner
      ? query.where("organizationId", "=", owner.organizationId)
      : query.where("userId", "=", owner.userId);
  const rows = await query.orderBy("createdAt", "asc").orderBy("id").limit(500).execute();
  return rows.map(toClient);
}

/** Every client, newest first, one page, and how many there are (the admin area). */
export async function listAllClients(
  db: DB,
  page: { limit: number; offset: number },
): Promise<{ clients: OAuthClient[]; total: number }> {
  const rows = await db
    .selectFrom("oauthClient")
    .selectAll()
    .orderBy("createdAt", "desc")
    .orderBy("id")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const count = await db
    .selectFrom("oauthClient")
    .select((eb) => eb.fn.countAll<number | string | bigint>().as("n"))
    .executeTakeFirstOrThrow();
  return { clients: rows.map(toClient), total: Number(count.n) };
}

/** Records a client's last token (the caller writes it at most once a minute). */
export async function touchClient(db: DB, clientId: string, at: Date): Promise<void> {
  await db.updateTable("oauthClient").set({ lastUsedAt: at }).where("clientId", "=", clientId).execute();
}

export async function deleteClient(db: DB, clientId: string): Promise<boolean> {
  const result = await db.deleteFrom("oauthClient").where("clientId", "=", clientId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function updateClient(
  db: DB,
  clientId: string,
  change: Partial<
    Pick<
      OAuthClient,
      | "name"
      | "redirectUris"
      | "postLogoutRedirectUris"
      | "grantTypes"
      | "scopes"
      | "clientUri"
      | "logoUri"
      | "disabled"
      | "backchannelLogoutUri"
      | "frontchannelLogoutUri"
      | "accessTokenFormat"
    >
  > & { updatedAt: Date },
): Promise<void> {
  const { redirectUris, postLogoutRedirectUris, grantTypes, scopes, ...plain } = change;
  await db
    .updateTable("oauthClient")
    .set({
      ...plain,
      ...(redirectUris ? { redirectUris: JSON.stringify(redirectUris) } : {}),
      ...(postLogoutRedirectUris ? { postLogoutRedirectUris: JSON.stringify(postLogoutRedirectUris) } : {}),
      ...(grantTypes ? { grantTypes: JSON.stringify(grantTypes) } : {}),
      ...(scopes ? { scopes: JSON.stringify(scopes) } : {}),
    })
    .where("clientId", "=", clientId)
    .execute();
}

export async function setClientSecretHash(db: DB, clientId: string, hash: string, now: Date): Promise<void> {
  await db
    .updateTable("oauthClient")
    .set({ clientSecretHash: hash, updatedAt: now })
    .where("clientId", "=", clientId)
    .execute();
}

export type NewCode = Omit<
  Selectable<OAuthCodeTable>,
  "usedAt" | "grantId" | "authTime" | "createdAt" | "expiresAt"
> & {
  authTime: Date;
  createdAt: Date;
  expiresAt: Date;
};

export async function insertCode(db: DB, code: NewCode): Promise<void> {
  await db.insertInto("oauthCode").values(code).execute();
}

export interface StoredCode extends NewCode {
  usedAt: Date | null;
  grantId: string | null;
}

const toCode = (row: Selectable<OAuthCodeTable>): StoredCode => ({
  ...row,
  authTime: toDate(row.authTime),
  createdAt: toDate(row.createdAt),
  expiresAt: toDate(row.expiresAt),
  usedAt: toDateOrNull(row.usedAt),
});

/**
 * Marks the code used and answers it, in one statement: of any number of exchanges at once, one
 * gets the row and every other finds it used. Null when it was used already or never issued.
 */
export async function claimCode(db: DB, codeHash: string, now: Date): Promise<StoredCode | null> {
  const row = await db
    .updateTable("oauthCode")
    .set({ usedAt: now })
    .where("codeHash", "=", codeHash)
    .where("usedAt", "is", null)
    .returningAll()
    .executeTakeFirst();
  return row ? toCode(row) : null;
}

export async function findCode(db: DB, codeHash: string): Promise<StoredCode | null> {
  const row = await db.selectFrom("oauthCode").selectAll().where("codeHash", "=", codeHash).executeTakeFirst();
  return row ? toCode(row) : null;
}

export async function setCodeGrant(db: DB, codeHash: string, grantId: string): Promise<void> {
  await db.updateTable("oauthCode").set({ grantId }).where("codeHash", "=", codeHash).execute();
}

export interface Grant {
  id: string;
  clientId: string;
  userId: string | null;
  scopes: string[];
  resource: string | null;
  authTime: Date | null;
  nonce: string | null;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  /** The session that authorized it (the ID token's `sid`). */
  sessionId: string | null;
}

const toGrant = (row: Selectable<OAuthGrantTable>): Grant => ({
  ...row,
  scopes: row.scopes.split(" ").filter(Boolean),
  authTime: toDateOrNull(row.authTime),
  createdAt: toDate(row.createdAt),
  expiresAt: toDate(row.expiresAt),
  revokedAt: toDateOrNull(row.revokedAt),
});

export async function insertGrant(db: DB, grant: Grant): Promise<void> {
  await db
    .insertInto("oauthGrant")
    .values({ ...grant, scopes: grant.scopes.join(" ") })
    .execute();
}

export async function findGrant(db: DB, id: string): Promise<Grant | null> {
  const row = await db.selectFrom("oauthGrant").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toGrant(row) : null;
}

export async function extendGrant(db: DB, id: string, expiresAt: Date): Promise<void> {
  await db
    .updateTable("oauthGrant")
    .set({ expiresAt })
    .where("id", "=", id)
    .where("expiresAt", "<", expiresAt)
    .execute();
}

/** Revokes grants and deletes their refresh tokens; answers how many were live. */
export async function revokeGrants(db: DB, ids: string[], now: Date): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .updateTable("oauthGrant")
    .set({ revokedAt: now })
    .where("id", "in", ids)
    .where("revokedAt", "is", null)
    .executeTakeFirst();
  await db.deleteFrom("oauthRefreshToken").where("grantId", "in", ids).execute();
  return Number(result.numUpdatedRows);
}

/** The live grants a user gave: to the organization's own clients, or (null) to any client. */
export async function liveGrantIdsOfUser(db: DB, userId: string, organizationId: string | null): Promise<string[]> {
  let query = db
    .selectFrom("oauthGrant")
    .select("oauthGrant.id")
    .where("oauthGrant.userId", "=", userId)
    .where("oauthGrant.revokedAt", "is", null);
  if (organizationId !== null) {
    query = query
      .innerJoin("oauthClient", "oauthClient.clientId", "oauthGrant.clientId")
      .where("oauthClient.organizationId", "=", organizationId);
  }
  return (await query.execute()).map((row) => row.id);
}

/** The live grants a user gave a client. */
export async function liveGrantIds(db: DB, userId: string, clientId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("oauthGrant")
    .select("id")
    .where("userId", "=", userId)
    .where("clientId", "=", clientId)
    .where("revokedAt", "is", null)
    .execute();
  return rows.map((row) => row.id);
}

/** An opaque access token's digest, in its grant (deleted with it). */
export async function insertAccessToken(
  db: DB,
  token: { tokenHash: string; grantId: string; scopes: string[]; audience: string[]; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto("oauthAccessToken")
    .values({ ...token, scopes: token.scopes.join(" "), audience: JSON.stringify(token.audience) })
    .execute();
}

export async function findAccessToken(
  db: DB,
  tokenHash: string,
): Promise<{ grantId: string; scopes: string; audience: string[]; createdAt: Date; expiresAt: Date } | null> {
  const row = await db
    .selectFrom("oauthAccessToken")
    .select(["grantId", "scopes", "audience", "createdAt", "expiresAt"])
    .where("tokenHash", "=", tokenHash)
    .executeTakeFirst();
  return row
    ? {
        ...row,
        audience: JSON.parse(row.audience) as string[],
        createdAt: toDate(row.createdAt),
        expiresAt: toDate(row.expiresAt),
      }
    : null;
}

export async function insertRefreshToken(
  db: DB,
  token: { tokenHash: string; grantId: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db.insertInto("oauthRefreshToken").values(token).execute();
}

export interface StoredRefreshToken {
  tokenHash: string;
  grantId: string;
  expiresAt: Date;
  usedAt: Date | null;
}

export async function findRefreshToken(db: DB, tokenHash: string): Promise<StoredRefreshToken | null> {
  const row = await db
    .selectFrom("oauthRefreshToken")
    .select(["tokenHash", "grantId", "expiresAt", "usedAt"])
    .where("tokenHash", "=", tokenHash)
    .executeTakeFirst();
  return row ? { ...row, expiresAt: toDate(row.expiresAt), usedAt: toDateOrNull(row.usedAt) } : null;
}

/** Marks a refresh token used, in one statement: true for the one use that rotates it. */
export async function claimRefreshToken(db: DB, tokenHash: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("oauthRefreshToken")
    .set({ usedAt: now })
    .where("tokenHash", "=", tokenHash)
    .where("usedAt", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export interface Consent {
  id: string;
  userId: string;
  clientId: string;
  scopes: string[];
  createdAt: Date;
  updatedAt: Date;
}

export async function findConsent(db: DB, userId: string, clientId: string): Promise<Consent | null> {
  const row = await db
    .selectFrom("oauthConsent")
    .selectAll()
    .where("userId", "=", userId)
    .where("clientId", "=", clientId)
    .executeTakeFirst();
  return row
    ? {
        ...row,
        scopes: row.scopes.split(" ").filter(Boolean),
        createdAt: toDate(row.createdAt),
        updatedAt: toDate(row.updatedAt),
      }
    : null;
}

/** Records the scopes as consented (the union with any consented before). */
export async function saveConsent(db: DB, consent: Consent): Promise<void> {
  await db
    .insertInto("oauthConsent")
    .values({ ...consent, scopes: consent.scopes.join(" ") })
    .onConflict((oc) =>
      oc
        .columns(["userId", "clientId"])
        .doUpdateSet({ scopes: consent.scopes.join(" "), updatedAt: consent.updatedAt }),
    )
    .execute();
}

export async function listConsents(db: DB, userId: string): Promise<(Consent & { clientName: string })[]> {
  const rows = await db
    .selectFrom("oauthConsent")
    .innerJoin("oauthClient", "oauthClient.clientId", "oauthConsent.clientId")
    .select([
      "oauthConsent.id",
      "oauthConsent.userId",
      "oauthConsent.clientId",
      "oauthConsent.scopes",
      "oauthConsent.createdAt",
      "oauthConsent.updatedAt",
      "oauthClient.name as clientName",
    ])
    .where("oauthConsent.userId", "=", userId)
    .orderBy("oauthConsent.createdAt", "asc")
    .limit(500)
    .execute();
  return rows.map((row) => ({
    ...row,
    scopes: row.scopes.split(" ").filter(Boolean),
    createdAt: toDate(row.createdAt),
    updatedAt: toDate(row.updatedAt),
  }));
}

/** Deletes a user's consent; answers its client, or null when the user has none of that id. */
export async function deleteConsent(db: DB, userId: string, id: string): Promise<string | null> {
  const row = await db
    .deleteFrom("oauthConsent")
    .where("id", "=", id)
    .where("userId", "=", userId)
    .returning("clientId")
    .executeTakeFirst();
  return row?.clientId ?? null;
}

export interface DeviceCode {
  id: string;
  deviceCodeHash: string;
  userCodeHash: string;
  clientId: string;
  scopes: string[];
  resource: string | null;
  status: "pending" | "approved" | "denied";
  userId: string | null;
  authTime: Date | null;
  intervalSeconds: number;
  lastPolledAt: Date | null;
  usedAt: Date | null;
  createdAt: Date;
  expiresAt: Date;
}

function toDeviceCode(row: Selectable<OAuthDeviceCodeTable>): DeviceCode {
  return {
    ...row,
    scopes: row.scopes.split(" ").filter(Boolean),
    status: row.status as DeviceCode["status"],
    intervalSeconds: Number(row.intervalSeconds),
    authTime: toDateOrNull(row.authTime),
    lastPolledAt: toDateOrNull(row.lastPolledAt),
    usedAt: toDateOrNull(row.usedAt),
    createdAt: toDate(row.createdAt),
    expiresAt: toDate(row.expiresAt),
  };
}

export async function insertDeviceCode(db: DB, code: DeviceCode): Promise<void> {
  await db
    .insertInto("oauthDeviceCode")
    .values({ ...code, scopes: code.scopes.join(" ") })
    .execute();
}

export async function findDeviceCode(
  db: DB,
  by: { deviceCodeHash: string } | { userCodeHash: string },
): Promise<DeviceCode | null> {
  const query = db.selectFrom("oauthDeviceCode").selectAll();
  const row = await ("deviceCodeHash" in by
    ? query.where("deviceCodeHash", "=", by.deviceCodeHash)
    : query.where("userCodeHash", "=", by.userCodeHash)
  ).executeTakeFirst();
  return row ? toDeviceCode(row) : null;
}

/**
 * Records a poll, in one statement, unless the last was less than the interval ago: then the
 * interval grows by five seconds (RFC 8628 3.5) and false is answered (slow_down). Parallel polls
 * get one true at most.
 */
export async function recordPoll(db: DB, id: string, now: Date, interval: number): Promise<boolean> {
  const since = new Date(now.getTime() - interval * 1000);
  const polled = await db
    .updateTable("oauthDeviceCode")
    .set({ lastPolledAt: now })
    .where("id", "=", id)
    .where((eb) => eb.or([eb("lastPolledAt", "is", null), eb("lastPolledAt", "<=", since)]))
    .executeTakeFirst();
  if (Number(polled.numUpdatedRows) === 1) return true;
  await db
    .updateTable("oauthDeviceCode")
    .set((eb) => ({ intervalSeconds: eb("intervalSeconds", "+", 5), lastPolledAt: now }))
    .where("id", "=", id)
    .execute();
  return false;
}

/** Approves or denies a pending code, in one statement: false when it was answered already. */
export async function answerDeviceCode(
  db: DB,
  id: string,
  answer: { status: "approved"; userId: string; authTime: Date } | { status: "denied"; userId: string },
): Promise<boolean> {
  const result = await db
    .updateTable("oauthDeviceCode")
    .set(answer)
    .where("id", "=", id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks an approved code redeemed, in one statement: true for the one poll that gets the tokens. */
export async function claimDeviceCode(db: DB, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("oauthDeviceCode")
    .set({ usedAt: now })
    .where("id", "=", id)
    .where("status", "=", "approved")
    .where("usedAt", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

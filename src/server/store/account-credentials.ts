import type { SelectQueryBuilder } from "kysely";
import { CREDENTIAL_PROVIDER } from "./accounts.js";
import type { DB } from "./db.js";
import type { DialectName } from "./dialect.js";
import type { Database } from "./schema.js";

/**
 * Every table that references a user, sorted by whether its rows let someone into the account. A
 * test lists the foreign keys to user.id in the live schema and fails on a table named in neither,
 * so a new kind of credential cannot be added without deciding how a mailbox proof strips it.
 */
export const CREDENTIAL_TABLES = [
  "account",
  "passkey",
  "twoFactor",
  "twoFactorChallenge",
  "session",
  // A user's own API keys act as the user; OAuth grants (their codes and refresh tokens), pending
  // device codes and consents let a client act as the user.
  "apiKey",
  "oauthGrant",
  "oauthCode",
  "oauthDeviceCode",
  "oauthConsent",
] as const;
/**
 * What the account owns or did, not a way in: it stays with the account when its owner takes it.
 * `scimUser` is a directory's claim on a member (it signs no one in; SSO sign-ins are `account`
 * rows), `ssoProvider.userId` who registered a connection, `scimGroupMember` a directory group's
 * member, `organizationPolicy.updatedBy` who last set a policy, `oauthClient` a client the user
 * registered (its grants are credentials, above). `knownDevice` lets no one in but
 * silences the new-device mail, so a stripped account forgets its devices too (below).
 */
export const NON_CREDENTIAL_USER_TABLES = [
  "member",
  "invitation",
  "teamMember",
  "scimUser",
  "ssoProvider",
  "scimGroupMember",
  "organizationPolicy",
  "knownDevice",
  "oauthClient",
] as const;

/** Which credentials an unproven account loses: all of them, or those enrolled on top of sign-up. */
export type StripScope = "everything" | "enrolled-factors";

export interface RemovedCredentials {
  password: boolean;
  socialAccounts: number;
  passkeys: number;
  twoFactor: boolean;
  /** The user's own API keys, and OAuth grants and consents given to clients. */
  delegated: number;
}

export const removedAnything = (removed: RemovedCredentials) =>
  removed.password || removed.socialAccounts > 0 || removed.passkeys > 0 || removed.twoFactor || removed.delegated > 0;

/**
 * Deletes the user's ways in other than sessions (the caller ends those, to queue their webhooks):
 * linked accounts (with "everything", the password too), passkeys, the TOTP secret and backup codes,
 * pending two-factor sign-ins, and one-time values acting for the user (with "enrolled-factors",
 * only trusted devices). `mailedCodeIdentifiers` are codes mailed to the address (keyed by it).
 */
export async function deleteUserCredentials(
  db: DB,
  dialect: DialectName,
  input: {
    userId: string;
    scope: StripScope;
    trustedDevicePrefix: string;
    mailedCodeIdentifiers: string[];
    now: Date;
  },
): Promise<RemovedCredentials> {
  const { userId, scope } = input;
  let accounts = db.deleteFrom("account").where("userId", "=", userId);
  if (scope === "enrolled-factors") accounts = accounts.where("providerId", "!=", CREDENTIAL_PROVIDER);
  const deletedAccounts = await accounts.returning("providerId").execute();
  const passkeys = await db.deleteFrom("passkey").where("userId", "=", userId).executeTakeFirst();
  const twoFactor = await db.deleteFrom("twoFactor").where("userId", "=", userId).executeTakeFirst();
  // What lets someone else act as the user: their own API keys (an organization's stay with it) and
  // what they granted OAuth clients (a grant's refresh tokens go with it).
  let delegated = 0;
  const ownKeys = db.deleteFrom("apiKey").where("userId", "=", userId).where("organizationId", "is", null);
  delegated += Number((await ownKeys.executeTakeFirst()).numDeletedRows);
  for (const table of ["oauthCode", "oauthDeviceCode", "oauthConsent", "oauthGrant"] as const) {
    delegated += Number((await db.deleteFrom(table).where("userId", "=", userId).executeTakeFirst()).numDeletedRows);
  }
  await db.deleteFrom("twoFactorChallenge").where("userId", "=", userId).execute();
  // Devices whoever held the unproven account signed in from must not count as the owner's.
  if (scope === "everything") await db.deleteFrom("knownDevice").where("userId", "=", userId).execute();
  await db
    .updateTable("user")
    .set({ twoFactorEnabled: false, updatedAt: input.now })
    .where("id", "=", userId)
    .execute();
  let pending = db.selectFrom("verification").select("id").where("value", "=", userId);
  if (scope === "enrolled-factors") pending = pending.where("identifier", "like", `${input.trustedDevicePrefix}%`);
  await deleteUnlocked(db, dialect, pending);
  if (scope === "everything" && input.mailedCodeIdentifiers.length > 0) {
    const codes = db.selectFrom("verification").select("id").where("identifier", "in", input.mailedCodeIdentifiers);
    await deleteUnlocked(db, dialect, codes);
  }
  const socialAccounts = deletedAccounts.filter((a) => a.providerId !== CREDENTIAL_PROVIDER).length;
  return {
    password: deletedAccounts.length > socialAccounts,
    socialAccounts,
    passkeys: Number(passkeys.numDeletedRows),
    twoFactor: Number(twoFactor.numDeletedRows) > 0,
    delegated,
  };
}

/**
 * Marks the address proven, only if it was not: false when a racing proof got there first. Claimed
 * before anything is stripped, so of two parallel proofs only one strips (and mails the owner).
 */
export async function claimUnprovenAddress(db: DB, userId: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("user")
    .set({ emailVerified: true, updatedAt: now })
    .where("id", "=", userId)
    .where("emailVerified", "=", false)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * A racing proof of the same mailbox holds the row it is consuming (a reset token, a code) until it
 * commits, and then waits for this one at claimUnprovenAddress: on PostgreSQL such rows are skipped
 * rather than waited for, which would deadlock. The racing proof deletes them itself.
 */
async function deleteUnlocked(
  db: DB,
  dialect: DialectName,
  rows: SelectQueryBuilder<Database, "verification", { id: string }>,
): Promise<void> {
  const ids = dialect === "postgres" ? rows.forUpdate().skipLocked() : rows;
  await db.deleteFrom("verification").where("id", "in", ids).execute();
}

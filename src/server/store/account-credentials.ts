import { CREDENTIAL_PROVIDER } from "./accounts.js";
import type { DB } from "./database.js";

/**
 * Every table that references a user, sorted by whether its rows let someone into the account. A
 * test lists the foreign keys to user.id in the live schema and fails on a table named in neither,
 * so a new kind of credential cannot be added without deciding how a mailbox proof strips it.
 */
export const CREDENTIAL_TABLES = ["account", "passkey", "twoFactor", "twoFactorChallenge", "session"] as const;
/** What the account owns or did, not a way in: it stays with the account when its owner takes it. */
export const NON_CREDENTIAL_USER_TABLES = ["member", "invitation", "teamMember"] as const;

/** Which credentials an unproven account loses: all of them, or those enrolled on top of sign-up. */
export type StripScope = "everything" | "enrolled-factors";

export interface RemovedCredentials {
  password: boolean;
  socialAccounts: number;
  passkeys: number;
  twoFactor: boolean;
}

export const removedAnything = (removed: RemovedCredentials) =>
  removed.password || removed.socialAccounts > 0 || removed.passkeys > 0 || removed.twoFactor;

/**
 * Deletes the user's ways in other than sessions (the caller ends those, to queue their webhooks):
 * linked accounts (with "everything", the password too), passkeys, the TOTP secret and backup codes,
 * pending two-factor sign-ins, and one-time values acting for the user (with "enrolled-factors",
 * only trusted devices). `mailedCodeIdentifiers` are codes mailed to the address (keyed by it).
 */
export async function deleteUserCredentials(
  db: DB,
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
  await db.deleteFrom("twoFactorChallenge").where("userId", "=", userId).execute();
  await db
    .updateTable("user")
    .set({ twoFactorEnabled: false, updatedAt: input.now })
    .where("id", "=", userId)
    .execute();
  let verifications = db.deleteFrom("verification").where("value", "=", userId);
  if (scope === "enrolled-factors")
    verifications = verifications.where("identifier", "like", `${input.trustedDevicePrefix}%`);
  await verifications.execute();
  if (scope === "everything" && input.mailedCodeIdentifiers.length > 0) {
    await db.deleteFrom("verification").where("identifier", "in", input.mailedCodeIdentifiers).execute();
  }
  const socialAccounts = deletedAccounts.filter((a) => a.providerId !== CREDENTIAL_PROVIDER).length;
  return {
    password: deletedAccounts.length > socialAccounts,
    socialAccounts,
    passkeys: Number(passkeys.numDeletedRows),
    twoFactor: Number(twoFactor.numDeletedRows) > 0,
  };
}
